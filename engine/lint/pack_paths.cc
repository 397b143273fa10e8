// SPDX-License-Identifier: Apache-2.0
// The names reports give policy files outside the working directory.
// Entry points: PackPath, PackPaths.
#include "engine/lint/pack_paths.h"

namespace capops::lint {

namespace fs = std::filesystem;

namespace {

// `path` below `dir` ("." for `dir` itself); empty when it is not below it.
fs::path Below(const fs::path& dir, const fs::path& path) {
  fs::path rel = path.lexically_relative(dir);
  return rel.empty() || *rel.begin() == ".." ? fs::path() : rel;
}

}  // namespace

std::string PackPath(std::string_view path, const std::vector<std::string>& roots,
                     const fs::path& working_dir) {
  fs::path file = (working_dir / fs::path(path)).lexically_normal();
  if (!Below(working_dir, file).empty()) return std::string(path);
  fs::path best_root, best_rel;
  for (const std::string& r : roots) {
    fs::path root = (working_dir / fs::path(r)).lexically_normal();
    if (!root.has_filename()) root = root.parent_path();  // a trailing `/`
    fs::path rel = Below(root, file);
    if (rel.empty() || root.native().size() <= best_root.native().size()) continue;
    best_root = root;
    best_rel = rel;
  }
  // A file that is its own root, or under none: by its directory's name.
  if (best_root.empty() || best_rel == ".")
    return (file.parent_path().filename() / file.filename()).generic_string();
  return (best_root.filename() / best_rel).generic_string();
}

std::vector<std::pair<FileId, std::string>> PackPaths(const SourceManager& policies,
                                                      const std::vector<std::string>& roots,
                                                      const fs::path& working_dir) {
  std::vector<std::pair<FileId, std::string>> shown;
  for (FileId id = 0; id < policies.size(); ++id) {
    std::string_view path = policies.Path(id);
    std::string pack = PackPath(path, roots, working_dir);
    if (pack != path) shown.emplace_back(id, std::move(pack));
  }
  return shown;
}

}  // namespace capops::lint
