// SPDX-License-Identifier: Apache-2.0
// What each document of a YAML text says it is, without loading it: the
// top-level `apiVersion` and `kind`, read from libfyaml's events as they
// come. Nothing is built and nothing is kept but a few scalars, so memory
// stays flat whatever the text holds, and the reader stops as soon as the
// caller knows enough: directory discovery tells a plan from a Kubernetes
// dump or an 8 MB JSON file this way (workspace/plan_set.h).
//
//   std::optional<Diagnostic> problem = facts::ScanHeads(text, 0, options, {},
//       [&](const facts::DocumentHead& head) {
//         return !(head.kind && head.kind->text == "CapacityPlan");  // false: stop
//       });
//
// A head is what the events show; where they cannot show it (an alias this
// reader cannot resolve, a `<<` merge, a key given twice) the head says it
// is `unsure`, and only a full load (loader.h) can tell.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/diagnostic.h"
#include "engine/common/source.h"
#include "engine/facts/loader.h"

namespace capops::facts {

/// The value of a top-level `apiVersion` or `kind`.
struct HeadField {
  std::string text;    // a scalar's text (quotes removed, escapes read); "" for a collection
  SourceLoc loc;       // where the value is written (an alias: where it is used)
  bool scalar = true;  // false: a mapping or a sequence
};

/// The head of one document that is not empty (a stray `---`, a null).
struct DocumentHead {
  SourceLoc loc;        // where its root starts
  bool is_map = false;  // its root is a mapping; else it has no fields
  std::optional<HeadField> api_version;
  std::optional<HeadField> kind;
  /// The keys of ScanHeads's `watch` among the top-level keys read before
  /// the head was complete (all of them when it has no `kind`).
  std::vector<std::string> watched;
  /// `apiVersion` or `kind` may be other than the events show: the value of
  /// one of them, or a key, is an alias this reader does not follow (to no
  /// anchor, or one its table of a document's anchors could not hold), one
  /// of them is given twice, or a `<<` merge may bring one that is missing.
  bool unsure = false;
};

/// Reads `text`'s documents in order and calls `on_head` with each one's
/// head as soon as it is known: when both `apiVersion` and `kind` have
/// been read, when its top-level mapping ends, or at once when its root is
/// not a mapping. `on_head` returns false to stop reading. When reading
/// goes on past a head and the same document gives `apiVersion` or `kind`
/// again, `on_head` is called for it once more, `unsure`.
///
/// Locations are in `file`, 1-based, columns in characters after any BOM,
/// as the loader's. Memory does not grow with the text (a bounded table of
/// anchors per document; nesting beyond `options.max_depth` stops the
/// read), and time is linear in the part of the text read; the document
/// limit does not apply: nothing is kept per document.
///
/// Returns the first problem that stopped the read before the end of the
/// text, as an error located in `file`: invalid YAML, a NUL byte, invalid
/// UTF-8 or a lone carriage return (each checked in the part of the text
/// read before a head that follows it is believed), nesting too deep.
/// nullopt when the text was read to its end or `on_head` stopped it.
std::optional<Diagnostic> ScanHeads(std::string_view text, FileId file, const LoadOptions& options,
                                    const std::vector<std::string>& watch,
                                    const std::function<bool(const DocumentHead&)>& on_head);

}  // namespace capops::facts
