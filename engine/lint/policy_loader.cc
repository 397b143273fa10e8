// Finds and reads policy files and fact files.
#include "engine/lint/policy_loader.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <set>

#include "engine/common/escape.h"
#include "engine/lint/pack_locator.h"
#include "engine/lint/same_file.h"

namespace capops::lint {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultPack = "capops-ai";

}  // namespace

std::string DisplayPath(const fs::path& p) {
  std::error_code ec;
  fs::path relative = fs::proximate(p, ec);
  if (ec || relative.empty() || *relative.begin() == "..") return p.lexically_normal().string();
  return relative.string();
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

bool LoadPolicies(const std::vector<std::string>& paths, Engine* engine, std::string* error) {
  std::optional<std::vector<fs::path>> roots = PolicyRoots(paths, error);
  if (!roots) return false;
  std::vector<fs::path> files;
  for (const fs::path& root : *roots) {
    if (!CollectPolicyFiles(root, &files, error)) return false;
  }
  std::set<fs::path> seen;
  for (const fs::path& f : files) {
    if (!seen.insert(fs::weakly_canonical(f)).second) continue;
    std::string text;
    if (!ReadFile(f, &text, error, engine->options().parse.max_file_bytes)) return false;
    spdlog::debug("policy {}", f.string());
    engine->AddPolicy(DisplayPath(f), std::move(text));
  }
  return true;
}

bool ReadAll(const std::vector<std::string>& paths, size_t limit, std::vector<TextFile>* out,
             std::string* error) {
  for (const std::string& p : paths) {
    TextFile f{p, {}};
    if (!ReadFile(p, &f.text, error, limit, &f.stamp)) return false;
    out->push_back(std::move(f));
  }
  return true;
}

std::vector<std::string> FilesOnce(const std::vector<std::string>& paths, const char* what) {
  std::vector<std::string> twice;
  std::vector<std::string> once = DedupByIdentity(paths, &twice);
  for (const std::string& p : twice)
    spdlog::warn("{} `{}` is given twice; it is read once", what, Visible(p));
  return once;
}

std::vector<std::string> DefaultInventories(const std::vector<std::string>& plan_paths,
                                            const std::vector<std::string>& given) {
  if (!given.empty()) return FilesOnce(given, "inventory");
  std::vector<std::string> found;
  std::set<fs::path> plans;
  for (const std::string& p : plan_paths) plans.insert(fs::weakly_canonical(p));
  std::set<fs::path> added;
  for (const std::string& p : plan_paths) {
    fs::path sibling = fs::path(p).parent_path() / "inventory.yaml";
    std::error_code ec;
    if (!fs::is_regular_file(sibling, ec)) continue;
    fs::path canonical = fs::weakly_canonical(sibling);
    if (plans.count(canonical) != 0 || !added.insert(canonical).second) continue;
    spdlog::debug("inventory {} (beside the plan)", sibling.string());
    found.push_back(sibling.lexically_normal().string());
  }
  return found;
}

}  // namespace capops::lint
