// SPDX-License-Identifier: Apache-2.0
// Places in a fact file's YAML text that a Value does not keep: the key of a
// map entry (KeyLocator, for messages about a key) and the scalar under an
// editor's cursor (PointAt, for the language server). Both read the text again
// with the parser LoadYaml uses (loader.h), on demand.
//
//   std::function<SourceLoc(SourceLoc)> key_at = facts::KeyLocator(sources, file);
//   SourceLoc key = key_at(value.loc());           // invalid when not known
//   std::optional<facts::YamlPoint> p = facts::PointAt(text, line, column);
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/source.h"

namespace capops::facts {

/// Where the keys of a file's mappings are, for messages about a key (an
/// unknown field): given where an entry's value starts (Value::loc), the
/// location of its key, or an invalid SourceLoc when no entry's value
/// starts there (a value merged in by `<<` is located at its `<<` key
/// already). Values keep no key locations, so the first call reads the
/// file's YAML again (its text, or the file on disk when the text was
/// released); that costs one parse, on the path of an error only. Each
/// function returned keeps its own table: use it from one thread.
std::function<SourceLoc(SourceLoc)> KeyLocator(const SourceManager& sources, FileId file);

/// One step of a path from a document's root: a mapping key or a list item.
struct PathStep {
  bool is_item = false;
  std::string key;   // a key's text (a scalar key; "" for a complex one)
  size_t index = 0;  // an item's place in its list
};

/// The scalar of a YAML text at a position, for an editor: the path from
/// its document's root, whether it is a key or a value, and its extent.
struct YamlPoint {
  size_t document = 0;         // which document of the text
  std::string kind;            // that document's top-level `kind`, "" when none
  std::vector<PathStep> path;  // to the mapping that holds a key; to the value itself
  bool on_key = false;
  std::string text;  // the scalar's text (quotes removed)
  SourceLoc begin;   // its first character (file left unset)
  SourceLoc end;     // just past its last character
  std::vector<std::string>
      keys;  // the keys of the mapping it is in (all of them; not itself when on_key)
};

/// The scalar under (or just before) 1-based `line` and `column`
/// (characters), read with the same parser as LoadYaml; an empty value
/// (`pool:`) is found from its key's line. nullopt when no scalar is there
/// or the text stops parsing before reaching it (what precedes an error is
/// still found).
std::optional<YamlPoint> PointAt(std::string_view text, uint32_t line, uint32_t column);

}  // namespace capops::facts
