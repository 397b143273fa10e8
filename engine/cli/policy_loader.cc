// Finds, reads and compiles policy files for the CLI's commands.
#include "engine/cli/policy_loader.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <set>

#include "engine/cli/driver.h"
#include "engine/cli/pack_locator.h"
#include "engine/cli/same_file.h"
#include "engine/common/escape.h"
#include "engine/report/report.h"

namespace capops::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultPack = "capops-ai";

// Paths below the working directory are shown relative to it.
std::string DisplayPath(const fs::path& p) {
  std::error_code ec;
  fs::path relative = fs::proximate(p, ec);
  if (ec || relative.empty() || *relative.begin() == "..") return p.lexically_normal().string();
  return relative.string();
}

}  // namespace

int Fail(std::ostream& err, const std::string& reason) {
  // Reasons quote paths and names the user gave: one line, no control byte.
  err << "capops-lint: error: " << Visible(reason) << '\n';
  return kExitUsage;
}

bool LoadPolicies(const std::vector<std::string>& paths, Engine* engine, std::string* error) {
  std::optional<fs::path> data = FindDataDir();
  if (!data) {
    *error = "cannot find the shipped `stdlib/` and `policies/` (set CAPOPS_DATA_DIR)";
    return false;
  }
  std::vector<fs::path> roots = {*data / "stdlib"};
  if (paths.empty()) {
    roots.push_back(*data / "policies" / kDefaultPack);
  } else {
    roots.insert(roots.end(), paths.begin(), paths.end());
  }
  std::vector<fs::path> files;
  for (const fs::path& root : roots) {
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

bool CompileOrReport(Engine* engine, bool color, std::ostream& err) {
  Diagnostics problems;
  if (engine->Compile(&problems)) return true;
  report::WriteDiagnostics(engine->sources(), problems, {false, color}, err);
  Fail(err, "the policies do not compile (" + std::to_string(problems.size()) + " problem" +
                (problems.size() == 1 ? ")" : "s)"));
  return false;
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
  for (const std::string& p : twice) spdlog::warn("{} `{}` is given twice; it is read once", what, Visible(p));
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

int PrepareEngine(const std::vector<std::string>& policies, const std::vector<std::string>& plans,
                  const std::vector<std::string>& inventories, bool color, Engine* engine, eval::Facts* facts,
                  std::ostream& err) {
  std::string error;
  if (!LoadPolicies(policies, engine, &error)) return Fail(err, error);
  if (!CompileOrReport(engine, color, err)) return kExitUsage;
  std::vector<TextFile> plan_files, inventory_files;
  size_t limit = engine->options().facts.max_file_bytes;
  if (!ReadAll(plans, limit, &plan_files, &error) ||
      !ReadAll(DefaultInventories(plans, inventories), limit, &inventory_files, &error)) {
    return Fail(err, error);
  }
  if (plan_files.empty() && inventory_files.empty()) return -1;
  Diagnostics problems;
  if (!engine->LoadFacts(plan_files, inventory_files, facts, &problems)) {
    report::WriteDiagnostics(engine->sources(), problems, {false, color}, err);
    return kExitFindings;
  }
  return -1;
}

}  // namespace capops::cli
