// SPDX-License-Identifier: Apache-2.0
// FactNames: a place in the facts in a planner's words — the record it
// belongs to and the field inside it — for a finding's secondary labels,
// which the evaluator words after the rule's variables (`d.slice`).
//
//   FactNames names(schema, documents, {slice_loc});
//   const FactName* n = names.Find(slice_loc, "slice", {});
//   n->Said("\"exploration\"")  // demand `explore`: `slice` is "exploration"
//
// Internal to engine/api: the lint run words every finding's labels with it
// once, so every output (text, JSON, SARIF, LSP, HTML, the result cache)
// says the same.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "engine/common/schema.h"
#include "engine/facts/loader.h"

namespace capops {

/// One value of the facts, named.
struct FactName {
  /// The innermost record with an `id` that holds the value, in words
  /// (`ManagedService`: "managed service"), and that id; both empty for a
  /// value outside such a record (`metadata.period.start`).
  std::string record;
  std::string id;
  /// The field path from that record, else from its document:
  /// "checkpoint.restore_tested", "substitutes[0].validation.numerics".
  std::string path;
  std::string field;       // the path's last field name; "" for a list item
  bool absent = false;     // not written: the schema filled in a default
  bool container = false;  // a map or a list
  SourceLoc owner;         // where that record is (its map); else invalid
  /// The value itself when it is a record with an id, in words with that
  /// id (allocation `a-explore`); else "".
  std::string itself;

  /// "demand `explore`: `slice` is \"exploration\"", or for an absent
  /// field "… `checkpoint.restore_tested` is not set (false)"; `value` is
  /// the value as a literal.
  std::string Said(const std::string& value) const;
  /// Where it is: "demand `explore`: `slice`", "`metadata.period`".
  std::string Where() const;
};

class FactNames {
 public:
  /// Walks `documents` (their roots typed by `schema`'s document records;
  /// untyped when the schema has none) once, without recursion, and keeps
  /// the names of the values located at one of `wanted`. The documents must
  /// outlive nothing here: names are copied.
  FactNames(const TypeTable& schema, const std::vector<facts::Document>& documents,
            const std::set<std::tuple<FileId, uint32_t, uint32_t>>& wanted);

  /// The value at `loc` a label is about: of the values there (a map and
  /// the defaults filled into it share its place; a value merged by `<<`
  /// is in each map it was merged into), the one whose field is `field`
  /// (when given), not a container, and held by a record at one of
  /// `owners` (the records the rule bound), as far as that leaves any.
  /// Null when no value is there.
  const FactName* Find(const SourceLoc& loc, std::string_view field,
                       const std::vector<SourceLoc>& owners) const;

  /// A rule's binding to the value at `loc` (`value`, as a literal) in
  /// words: a record with an id by its kind and id (allocation
  /// `a-explore`), a scalar as a label says it (demand `serve`: `floor` is
  /// 4), a map or list by where it is (`decision`); "" when no value is there.
  std::string Binding(const SourceLoc& loc, const std::string& value) const;

  size_t size() const { return names_.size(); }

 private:
  std::multimap<std::tuple<FileId, uint32_t, uint32_t>, FactName> names_;
};

/// A record type's name in words: "ManagedService" → "managed service".
std::string RecordWords(std::string_view record_name);

}  // namespace capops
