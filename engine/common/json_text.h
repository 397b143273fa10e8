// SPDX-License-Identifier: Apache-2.0
// The one way capops writes JSON text: nlohmann's dump() throws on strings
// that are not UTF-8 (a file name in Latin-1, a fact with a stray byte), so
// every writer goes through JsonText(), which replaces such bytes with
// U+FFFD instead of aborting the run.
//
//   out << JsonText(doc, 2) << '\n';
#pragma once

#include <string>

namespace capops {

/// `json` (nlohmann::json or ordered_json) as text; `indent` < 0 for one line.
/// Never throws for bad UTF-8.
template <typename Json>
std::string JsonText(const Json& json, int indent = -1) {
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace capops
