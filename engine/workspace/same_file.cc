// SPDX-License-Identifier: Apache-2.0
// SameFile and DedupByIdentity: file identity (FileSystem::Identity: by
// stat(2) on disk), so that one file named twice on a command line or in a
// config is read once.
#include "engine/workspace/same_file.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

namespace capops::workspace {

bool SameFile(const FileSystem& files, const std::string& a, const std::string& b) {
  std::optional<std::string> x = files.Identity(a);
  std::optional<std::string> y = files.Identity(b);
  return x && y && *x == *y;
}

std::vector<std::string> DedupByIdentity(const FileSystem& files,
                                         const std::vector<std::string>& paths,
                                         std::vector<std::string>* dropped) {
  std::vector<std::string> kept;
  std::set<std::string> seen;
  for (const std::string& path : paths) {
    std::optional<std::string> id = files.Identity(path);
    if (id && !seen.insert(*id).second) {
      if (dropped != nullptr) dropped->push_back(path);
      continue;
    }
    kept.push_back(path);
  }
  return kept;
}

bool CoversAll(const FileSystem& files, const std::vector<std::string>& have,
               const std::vector<std::string>& wanted) {
  std::set<std::string> present;
  for (const std::string& path : have) {
    if (std::optional<std::string> id = files.Identity(path)) present.insert(*id);
  }
  return std::all_of(wanted.begin(), wanted.end(), [&](const std::string& path) {
    std::optional<std::string> id = files.Identity(path);
    return id && present.count(*id) != 0;
  });
}

bool IsSameFileAsAny(const FileSystem& files, const std::string& output,
                     const std::vector<std::string>& inputs, std::string* error) {
  for (const std::string& input : inputs) {
    if (!SameFile(files, output, input)) continue;
    *error = "refusing to write `" + output + "`: it is the input `" + input + "`";
    return true;
  }
  return false;
}

}  // namespace capops::workspace
