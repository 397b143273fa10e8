// The check command: read policies and facts from disk, compile, lint,
// report, and turn the findings into an exit code.
#include "engine/cli/check_command.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <set>

#include "engine/api/engine.h"
#include "engine/cli/driver.h"
#include "engine/cli/pack_locator.h"
#include "engine/cli/policy_loader.h"
#include "engine/report/report.h"

namespace capops::cli {

namespace fs = std::filesystem;

namespace {

bool ReadAll(const std::vector<std::string>& paths, size_t limit, std::vector<TextFile>* out,
             std::string* error) {
  for (const std::string& p : paths) {
    TextFile f{p, {}};
    if (!ReadFile(p, &f.text, error, limit)) return false;
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
  Engine engine(options.engine);
  std::string error;
  if (!LoadPolicies(options.policies, &engine, &error)) return Fail(err, error);
  if (!CompileOrReport(&engine, options.color, err)) return kExitUsage;
  spdlog::debug("{} rules, ruleset {}", engine.program()->rules.size(), engine.ruleset_digest());

  std::vector<TextFile> plans, inventories;
  size_t limit = options.engine.facts.max_file_bytes;
  if (!ReadAll(options.plans, limit, &plans, &error) ||
      !ReadAll(DefaultInventories(options), limit, &inventories, &error)) {
    return Fail(err, error);
  }
  engine.options().eval.trace = options.explain;
  eval::LintReport report = engine.Lint(plans, inventories);

  if (options.format == Format::kJson) {
    report::WriteJson(engine.sources(), report, CAPOPS_VERSION, out);
  } else if (options.format == Format::kShort) {
    report::WriteShort(engine.sources(), report, out);
  } else {
    report::WriteText(engine.sources(), report, {options.explain, options.color}, out);
  }
  bool failing = false;
  for (const auto& v : report.violations) failing = failing || AtOrAbove(v.severity, options.fail_on);
  for (const auto& d : report.errors.items()) failing = failing || AtOrAbove(d.severity, options.fail_on);
  return failing ? kExitFindings : kExitClean;
}

}  // namespace capops::cli
