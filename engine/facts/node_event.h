// SPDX-License-Identifier: Apache-2.0
// A YAML node event as the loader's document builder takes it, whichever
// reader parsed the text: libfyaml's events (loader.cc) or the simple
// reader's (simple_yaml.h). Internal to facts.
#pragma once

#include <optional>
#include <string_view>

#include "engine/common/source.h"

namespace capops::facts {

struct NodeEvent {
  enum class Type { kScalar, kAlias, kSequenceStart, kMappingStart, kSequenceEnd, kMappingEnd };
  Type type = Type::kScalar;
  /// Where the node starts (a quoted scalar at its quote, an alias at its
  /// `*`); none for an empty scalar, which has no text of its own.
  std::optional<SourceLoc> loc;
  /// A scalar's value, an alias's anchor name. The texts are valid until
  /// the reader's next event.
  std::string_view text;
  bool plain = false;  // a scalar written plain, not quoted
  std::string_view tag;
  std::optional<SourceLoc> tag_loc;  // where the tag is written; none: at the node
  std::string_view anchor;
};

}  // namespace capops::facts
