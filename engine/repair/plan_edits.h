// SPDX-License-Identifier: Apache-2.0
// Edits of a fact file's YAML text at the places its values were read from
// (Value::loc), keeping every byte outside the span edited: comments, key
// order, flow or block style. The repair search writes its alternatives
// with them (repair.h); an edit that cannot be placed with certainty is not
// made (nullopt), and the relint judges the rest.
//
//   std::optional<Replacement> r = ReplaceScalar(file, text, *a.Field("gpus"), "8");
//   auto edits = AddToList(file, text, a, "evidence", "r-may");
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/fix.h"
#include "engine/common/value.h"

namespace capops::repair {

/// `item` as a YAML scalar: plain when it is a plain id (letters, digits,
/// `-`, `_`, `.`, `/`, not starting with `-`), else double-quoted.
std::string YamlScalar(std::string_view item);

/// Replaces the scalar `value` was read from (plain or quoted, on one line)
/// by `with`, written as it is.
std::optional<Replacement> ReplaceScalar(FileId file, std::string_view text, const Value& value,
                                         std::string with);

/// Adds `item` to the list at `key` of map `owner`: before the `]` of a
/// flow list, as a line like the last item of a block list; when `owner`
/// has no `key`, writes `key: [item]` in a flow map before its `}`, or as
/// a line under its `id` in a block map.
std::optional<std::vector<Replacement>> AddToList(FileId file, std::string_view text,
                                                  const Value& owner, const std::string& key,
                                                  std::string_view item);

/// Adds `key: value` (`value` written as it is, such as a flow map) to map
/// `owner`, which does not have `key` written: before the `}` of a flow
/// map, else as a line under its `id` in a block map.
std::optional<std::vector<Replacement>> AddEntry(FileId file, std::string_view text,
                                                 const Value& owner, const std::string& key,
                                                 std::string_view value);

}  // namespace capops::repair
