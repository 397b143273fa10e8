// SPDX-License-Identifier: Apache-2.0
// Where a document is: the `file:` URIs the protocol names documents by, and
// the paths capops reads. Another scheme (`untitled:`) names no path.
//
//   std::optional<std::string> path = PathOfUri("file:///tmp/a%20b.yaml");  // "/tmp/a b.yaml"
#pragma once

#include <optional>
#include <string>

namespace capops::lsp {

/// `file:///a%20b` → `/a b`; nullopt for other schemes and malformed escapes.
std::optional<std::string> PathOfUri(const std::string& uri);
/// `/a b` → `file:///a%20b`.
std::string UriOfPath(const std::string& path);

}  // namespace capops::lsp
