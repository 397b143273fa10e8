// SPDX-License-Identifier: Apache-2.0
// Fixes: a change to a fact file that repairs a finding, as data. One
// model serves every place a fix is shown or applied — the text and JSON
// reports, SARIF `fixes`, the language server's quick fixes and
// `capops-lint --fix` — so each reads the same edit rather than the words
// of a hint.
//
// A Fix is a short description and the replacements that make it, each a
// byte span of one file and the text put there. The span is also kept as
// 1-based line and character columns (SourceLoc), the form editors and SARIF
// regions take.
//
//   Fix f{"change `slcie` to `slice`", {{file, begin, end, 120, 5, "slice"}}};
//   std::string fixed;
//   if (ApplyReplacements(text, f.replacements, &fixed, &why)) …
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/source.h"

namespace capops {

/// The bytes [offset, offset + length) of `file` replaced by `text`;
/// `begin` and `end` are the same span as line and character column (end
/// just past its last character). An insertion has length 0 and begin == end.
struct Replacement {
  FileId file = kNoFile;
  SourceLoc begin;
  SourceLoc end;
  uint32_t offset = 0;
  uint32_t length = 0;
  std::string text;

  friend bool operator==(const Replacement&, const Replacement&) = default;
};

/// A change that repairs one finding: what it does, for people ("cite
/// `r-may` in allocation `a-tune`'s evidence"), and the edits that do it.
struct Fix {
  std::string description;
  std::vector<Replacement> replacements;

  friend bool operator==(const Fix&, const Fix&) = default;
};

/// The byte offset in `text` of 1-based `line` and character `column` (a
/// column one past the line's last character is its end), or nullopt when
/// the text has no such place.
std::optional<uint32_t> ByteOffsetAt(std::string_view text, uint32_t line, uint32_t column);

/// A Replacement of bytes [offset, offset + length) of `text` (file `file`)
/// by `with`, its line and column worked out; nullopt when the span is not
/// inside the text or does not start and end on character boundaries.
std::optional<Replacement> MakeReplacement(FileId file, std::string_view text, uint32_t offset,
                                           uint32_t length, std::string with);

/// Whether two replacements of one file touch the same span: they overlap,
/// or an insertion is at the edge of the other's span (their order would
/// be a guess).
bool Overlap(const Replacement& a, const Replacement& b);

/// Applies the replacements (all of one file, whose text is `text`) into
/// `*out`. False, with `*why` set, when one reaches past the text or two
/// overlap (an insertion at the edge of another's span overlaps it too:
/// their order would be a guess); `*out` is then unchanged.
bool ApplyReplacements(std::string_view text, std::vector<Replacement> replacements,
                       std::string* out, std::string* why);

}  // namespace capops
