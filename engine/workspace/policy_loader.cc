// SPDX-License-Identifier: Apache-2.0
// Finds and reads policy files and fact files.
#include "engine/workspace/policy_loader.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <set>

#include "engine/common/escape.h"
#include "engine/workspace/file_system.h"
#include "engine/workspace/pack_locator.h"
#include "engine/workspace/same_file.h"

namespace capops::workspace {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultPack = "capops-ai";

}  // namespace

std::string DisplayPath(const FileSystem& files, const fs::path& p) {
  fs::path absolute = files.Absolute(p.string());
  fs::path relative = absolute.lexically_relative(files.WorkingDirectory());
  if (relative.empty() || *relative.begin() == "..") return p.lexically_normal().string();
  return relative.string();
}

std::string DisplayPath(const fs::path& path) {
  return DisplayPath(DiskFileSystem(), path);
}

std::optional<std::vector<fs::path>> PolicyRoots(const std::vector<std::string>& paths,
                                                 std::string* error) {
  std::optional<fs::path> data = FindDataDir(error);
  if (!data) return std::nullopt;
  std::vector<fs::path> roots = {*data / "stdlib"};
  if (paths.empty()) {
    roots.push_back(*data / "policies" / kDefaultPack);
  } else {
    roots.insert(roots.end(), paths.begin(), paths.end());
  }
  return roots;
}

bool CollectPolicyFiles(const FileSystem& files, const fs::path& path, std::vector<fs::path>* out,
                        std::string* error) {
  FileKind kind = files.Kind(path.string());
  if (kind == FileKind::kRegular) {
    out->push_back(path);
    return true;
  }
  if (kind != FileKind::kDirectory) {
    *error = "no policy file or directory `" + path.string() + "`";
    return false;
  }
  for (const std::string& f : files.FilesUnder(path.string())) {
    if (fs::path(f).extension() == ".cpl" && files.Kind(f) == FileKind::kRegular) out->push_back(f);
  }
  return true;
}

bool LoadPolicies(const FileSystem& files, const std::vector<std::string>& paths, Engine* engine,
                  std::string* error) {
  std::optional<std::vector<fs::path>> roots = PolicyRoots(paths, error);
  if (!roots) return false;
  std::vector<fs::path> found;
  for (const fs::path& root : *roots) {
    if (!CollectPolicyFiles(files, root, &found, error)) return false;
  }
  std::set<std::string> seen;
  for (const fs::path& f : found) {
    if (!seen.insert(files.RealPath(f.string())).second) continue;
    std::string text;
    if (!files.Read(f.string(), engine->options().parse.max_file_bytes, &text, error)) return false;
    spdlog::debug("policy {}", f.string());
    engine->AddPolicy(DisplayPath(files, f), std::move(text));
  }
  return true;
}

bool LoadPolicies(const std::vector<std::string>& paths, Engine* engine, std::string* error) {
  return LoadPolicies(DiskFileSystem(), paths, engine, error);
}

bool ReadAll(const FileSystem& files, const std::vector<std::string>& paths, size_t limit,
             std::vector<TextFile>* out, std::string* error) {
  for (const std::string& p : paths) {
    TextFile f{p, {}};
    if (!files.Read(p, limit, &f.text, error, &f.stamp)) return false;
    out->push_back(std::move(f));
  }
  return true;
}

std::vector<std::string> FilesOnce(const FileSystem& files, const std::vector<std::string>& paths,
                                   const char* what) {
  std::vector<std::string> twice;
  std::vector<std::string> once = DedupByIdentity(files, paths, &twice);
  for (const std::string& p : twice)
    spdlog::warn("{} `{}` is given twice; it is read once", what, Visible(p));
  return once;
}

}  // namespace capops::workspace
