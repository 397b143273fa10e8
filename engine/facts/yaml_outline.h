// SPDX-License-Identifier: Apache-2.0
// A YAML text as trees of its nodes with their extents, for an editor's
// outline: every document's root, its mappings' keys and where each node
// starts and ends. Read with the parser LoadYaml uses (loader.h), and as far
// as the text parses: a text broken part-way gives what comes before the
// break, each node the break cut ending where the last thing read ends.
//
//   for (const facts::YamlNode& root : facts::YamlOutline(text))
//     if (const facts::YamlNode* pools = root.Child("pools")) ...
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/source.h"

namespace capops::facts {

struct YamlNode {
  enum class Shape { kScalar, kMap, kList };
  Shape shape = Shape::kScalar;
  bool has_key = false;            // it is a mapping's value
  std::string key;                 // its key's text (a scalar key; "" for a complex one)
  SourceLoc key_at;                // where that key starts
  std::string text;                // a scalar's text (quotes removed); "" for an alias
  SourceLoc begin;                 // its first character, 1-based line and character column
  SourceLoc end;                   // just past its last character
  std::vector<YamlNode> children;  // a mapping's values (keyed) or a list's items

  /// A mapping's value of scalar key `key`, or nullptr.
  const YamlNode* Child(std::string_view key) const;
};

/// The root of each document of `text` that has one, in order. Nodes
/// deeper than `max_depth` are left out (their parent still spans them),
/// so a hostile nesting costs neither stack nor memory.
std::vector<YamlNode> YamlOutline(std::string_view text, size_t max_depth = 16);

}  // namespace capops::facts
