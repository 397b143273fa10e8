// The check command: read policies and facts from disk, compile, lint,
// report, and turn the findings into an exit code.
#include "engine/cli/check_command.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <set>

#include "engine/api/engine.h"
#include "engine/cli/driver.h"
#include "engine/cli/pack_locator.h"
#include "engine/report/report.h"

namespace capops::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultPack = "capops-ai";

int Fail(std::ostream& err, const std::string& reason) {
  err << "capops-lint: error: " << reason << '\n';
  return kExitUsage;
}

// Paths below the working directory are shown relative to it.
std::string DisplayPath(const fs::path& p) {
  std::error_code ec;
  fs::path relative = fs::proximate(p, ec);
  if (ec || relative.empty() || *relative.begin() == "..") return p.lexically_normal().string();
  return relative.string();
}

// stdlib always, then the given policy paths or the default pack.
bool LoadPolicies(const CheckOptions& options, Engine* engine, std::string* error) {
  std::optional<fs::path> data = FindDataDir();
  std::vector<fs::path> roots;
  if (!data) {
    *error = "cannot find the shipped `stdlib/` and `policies/` (set CAPOPS_DATA_DIR)";
    return false;
  }
  roots.push_back(*data / "stdlib");
  if (options.policies.empty()) {
    roots.push_back(*data / "policies" / kDefaultPack);
  } else {
    roots.insert(roots.end(), options.policies.begin(), options.policies.end());
  }
  std::vector<fs::path> files;
  for (const fs::path& root : roots) {
    if (!CollectPolicyFiles(root, &files, error)) return false;
  }
  std::set<fs::path> seen;
  for (const fs::path& f : files) {
    if (!seen.insert(fs::weakly_canonical(f)).second) continue;
    std::string text;
    if (!ReadFile(f, &text, error)) return false;
    spdlog::debug("policy {}", f.string());
    engine->AddPolicy(DisplayPath(f), std::move(text));
  }
  return true;
}

bool ReadAll(const std::vector<std::string>& paths, std::vector<TextFile>* out, std::string* error) {
  for (const std::string& p : paths) {
    TextFile f{p, {}};
    if (!ReadFile(p, &f.text, error)) return false;
    out->push_back(std::move(f));
  }
  return true;
}

// Without --inventory, each plan's sibling inventory.yaml is used if present.
std::vector<std::string> DefaultInventories(const CheckOptions& options) {
  if (!options.inventories.empty()) return options.inventories;
  std::vector<std::string> found;
  std::set<fs::path> plans;
  for (const std::string& p : options.plans) plans.insert(fs::weakly_canonical(p));
  std::set<fs::path> added;
  for (const std::string& p : options.plans) {
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

bool AtOrAbove(Severity s, Severity threshold) { return static_cast<int>(s) >= static_cast<int>(threshold); }

}  // namespace

int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine;
  std::string error;
  if (!LoadPolicies(options, &engine, &error)) return Fail(err, error);
  Diagnostics policy_errors;
  if (!engine.Compile(&policy_errors)) {
    report::WriteDiagnostics(engine.sources(), policy_errors, {false, options.color}, err);
    return Fail(err, "the policies do not compile (" + std::to_string(policy_errors.size()) + " problem" +
                         (policy_errors.size() == 1 ? ")" : "s)"));
  }
  spdlog::debug("{} rules, ruleset {}", engine.program()->rules.size(), engine.ruleset_digest());

  std::vector<TextFile> plans, inventories;
  if (!ReadAll(options.plans, &plans, &error) || !ReadAll(DefaultInventories(options), &inventories, &error)) {
    return Fail(err, error);
  }
  engine.options().eval.trace = options.explain;
  eval::LintReport report = engine.Lint(plans, inventories);

  if (options.format == Format::kJson) {
    report::WriteJson(engine.sources(), report, CAPOPS_VERSION, out);
  } else {
    report::WriteText(engine.sources(), report, {options.explain, options.color}, out);
  }
  bool failing = false;
  for (const auto& v : report.violations) failing = failing || AtOrAbove(v.severity, options.fail_on);
  for (const auto& d : report.errors.items()) failing = failing || AtOrAbove(d.severity, options.fail_on);
  return failing ? kExitFindings : kExitClean;
}

}  // namespace capops::cli
