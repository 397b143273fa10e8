// SPDX-License-Identifier: Apache-2.0
// File URIs and paths (uri.h). Entry points: PathOfUri, UriOfPath.
#include "engine/lsp/uri.h"

#include "engine/common/escape.h"

namespace capops::lsp {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string> PathOfUri(const std::string& uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.compare(0, kScheme.size(), kScheme) != 0) return std::nullopt;
  std::string rest = uri.substr(kScheme.size());
  if (rest.empty() || rest[0] != '/') {
    // `file://host/path`: only the local host is ours.
    size_t slash = rest.find('/');
    if (slash == std::string::npos || rest.compare(0, slash, "localhost") != 0) return std::nullopt;
    rest = rest.substr(slash);
  }
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] != '%') {
      path.push_back(rest[i]);
      continue;
    }
    if (i + 2 >= rest.size()) return std::nullopt;
    int hi = HexValue(rest[i + 1]), lo = HexValue(rest[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    char c = static_cast<char>(hi * 16 + lo);
    if (c == '\0') return std::nullopt;
    path.push_back(c);
    i += 2;
  }
  return path;
}

std::string UriOfPath(const std::string& path) {
  return (path.empty() || path[0] != '/' ? "file:///" : "file://") + PercentEncoded(path, "/");
}

}  // namespace capops::lsp
