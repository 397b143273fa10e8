// SPDX-License-Identifier: Apache-2.0
// MapReader: reads the tool's own YAML files (config, waivers, baseline) one
// field at a time, with located errors.
//
// The files are loaded as located Values (facts::LoadRawYaml); a MapReader
// wraps one map of them. Each getter names a key it knows; Finish() reports
// every key nobody asked for, with a did-you-mean among the known ones, so an
// unknown or misspelt key is never ignored. A value of the wrong type is an
// error at the value; a missing required key is an error at the map.
//
//   MapReader r(root, "config", &diags);
//   std::vector<std::string> plans;
//   r.Strings("plans", &plans);
//   r.Finish();
//
// The Value and the Diagnostics must outlive the reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/diagnostic.h"
#include "engine/common/value.h"

namespace capops::lint {

/// A string read from a file, with where it was.
struct LocatedString {
  std::string text;
  SourceLoc loc;
};

class MapReader {
 public:
  /// `what` names the map in messages ("config", "waiver"). A `value` that
  /// is not a map is reported at once; the reader then reads nothing.
  MapReader(const Value& value, std::string what, Diagnostics* diags);

  bool is_map() const { return map_ != nullptr; }
  /// The map's location (for errors about the whole entry).
  SourceLoc loc() const { return loc_; }

  /// The value of `key`, or nullptr. Marks `key` as known.
  const Value* Get(std::string_view key);
  /// A string. False (and, if `required`, an error) when absent or of another type.
  bool String(std::string_view key, LocatedString* out, bool required = false);
  /// A string or a list of strings; a single string becomes a one-item list.
  bool Strings(std::string_view key, std::vector<LocatedString>* out);
  bool Strings(std::string_view key, std::vector<std::string>* out);
  /// A plain date (`2027-01-31`), as days since 1970-01-01; a date with a
  /// time is refused.
  bool Date(std::string_view key, int64_t* days, SourceLoc* loc, bool required = false);
  /// A number, or a duration or size with its unit (`4`, `0.5`, `2d`,
  /// `80GiB`). False (after an error when present) when absent or of
  /// another type.
  bool Amount(std::string_view key, Value* out);
  /// A map or a list; nullptr (after an error) when of another type.
  const Value* Map(std::string_view key);
  const Value* List(std::string_view key);

  /// Reports the keys not asked for. Call once, after the getters.
  void Finish();

 private:
  void WrongType(std::string_view key, const Value& value, const char* expected);
  void Missing(std::string_view key);

  const Value* map_ = nullptr;
  SourceLoc loc_;
  std::string what_;
  Diagnostics* diags_;
  std::vector<std::string> known_;
};

}  // namespace capops::lint
