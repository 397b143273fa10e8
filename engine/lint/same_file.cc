// SameFile and DedupByIdentity: file identity by stat(2), so that one file
// named twice on a command line or in a config is read once.
#include "engine/lint/same_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

namespace capops::lint {

namespace {

using Identity = std::pair<dev_t, ino_t>;

// stat follows symlinks: a link and its target have one identity.
std::optional<Identity> IdentityOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return Identity{st.st_dev, st.st_ino};
}

}  // namespace

bool SameFile(const std::string& a, const std::string& b) {
  std::optional<Identity> x = IdentityOf(a);
  std::optional<Identity> y = IdentityOf(b);
  return x && y && *x == *y;
}

std::vector<std::string> DedupByIdentity(const std::vector<std::string>& paths,
                                         std::vector<std::string>* dropped) {
  std::vector<std::string> kept;
  std::set<Identity> seen;
  for (const std::string& path : paths) {
    std::optional<Identity> id = IdentityOf(path);
    if (id && !seen.insert(*id).second) {
      if (dropped != nullptr) dropped->push_back(path);
      continue;
    }
    kept.push_back(path);
  }
  return kept;
}

bool CoversAll(const std::vector<std::string>& have, const std::vector<std::string>& wanted) {
  std::set<Identity> present;
  for (const std::string& path : have) {
    if (std::optional<Identity> id = IdentityOf(path)) present.insert(*id);
  }
  return std::all_of(wanted.begin(), wanted.end(), [&](const std::string& path) {
    std::optional<Identity> id = IdentityOf(path);
    return id && present.count(*id) != 0;
  });
}

bool IsSameFileAsAny(const std::string& output, const std::vector<std::string>& inputs,
                     std::string* error) {
  for (const std::string& input : inputs) {
    if (!SameFile(output, input)) continue;
    *error = "refusing to write `" + output + "`: it is the input `" + input + "`";
    return true;
  }
  return false;
}

}  // namespace capops::lint
