// SPDX-License-Identifier: Apache-2.0
// GlobMatch: `*`, `?`, `[…]` within a path segment and `**` across them.
#include "engine/lint/glob_match.h"

#include <fnmatch.h>

#include <filesystem>
#include <vector>

namespace capops::lint {

namespace {

namespace fs = std::filesystem;

bool SegmentsMatch(const std::vector<std::string>& pat, size_t i,
                   const std::vector<std::string>& path, size_t j) {
  while (i < pat.size()) {
    if (pat[i] == "**") {
      for (size_t k = j; k <= path.size(); ++k) {
        if (SegmentsMatch(pat, i + 1, path, k)) return true;
      }
      return false;
    }
    if (j >= path.size() || fnmatch(pat[i].c_str(), path[j].c_str(), FNM_PERIOD) != 0) return false;
    ++i;
    ++j;
  }
  return j == path.size();
}

std::vector<std::string> Segments(std::string_view path) {
  std::vector<std::string> out;
  for (const fs::path& s : fs::path(path).lexically_normal()) {
    if (!s.empty() && s != ".") out.push_back(s.string());
  }
  return out;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view path) {
  return SegmentsMatch(Segments(pattern), 0, Segments(path), 0);
}

}  // namespace capops::lint
