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

bool AtOrAbove(Severity s, Severity threshold) { return static_cast<int>(s) >= static_cast<int>(threshold); }

}  // namespace

int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine(options.engine);
  std::string error;
  if (!LoadPolicies(options.policies, &engine, &error)) return Fail(err, error);
  if (!CompileOrReport(&engine, options.color, err)) return kExitUsage;
  if (engine.program()->rules.empty()) return Fail(err, "the policies define no rules, so nothing would be checked");
  spdlog::debug("{} rules, ruleset {}", engine.program()->rules.size(), engine.ruleset_digest());

  std::vector<TextFile> plans, inventories;
  size_t limit = options.engine.facts.max_file_bytes;
  if (!ReadAll(options.plans, limit, &plans, &error) ||
      !ReadAll(DefaultInventories(options.plans, options.inventories), limit, &inventories, &error)) {
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
