// The check command: settle the configuration, read policies and facts,
// compile, lint, apply rule selection, waivers and baseline, report, and turn
// the findings into an exit code.
#include "engine/cli/check_command.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <sstream>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/lint/baseline.h"
#include "engine/lint/config.h"
#include "engine/cli/driver.h"
#include "engine/lint/output_file.h"
#include "engine/lint/pack_locator.h"
#include "engine/lint/same_file.h"
#include "engine/lint/plan_set.h"
#include "engine/lint/policy_loader.h"
#include "engine/lint/result_cache.h"
#include "engine/lint/rule_selection.h"
#include "engine/lint/waivers.h"
#include "engine/report/ci_report.h"
#include "engine/report/report.h"

namespace capops::cli {

namespace fs = std::filesystem;

namespace {

template <typename T>
T Either(const T& flag, const T& config) {
  return flag.empty() ? config : flag;
}

// The config file in force (named, found upwards, or none), merged under the
// flags: a flag wins over the config. False after printing its errors.
bool SettleConfig(CheckOptions* options, SourceManager* sources, lint::Config* config,
                  std::ostream& err) {
  std::optional<fs::path> path;
  if (!options->config.empty()) {
    path = options->config;
  } else if (!options->no_config) {
    path = lint::FindConfig(".");  // shown relative to the working directory
  }
  if (path) {
    spdlog::debug("config {}", path->string());
    lint::ConfigResult r = lint::LoadConfig(sources, *path, options->engine.facts);
    if (r.diagnostics.HasErrors()) {
      report::WriteDiagnostics(*sources, r.diagnostics, {false, options->color}, err);
      return false;
    }
    *config = std::move(r.config);
  }
  options->policies = Either(options->policies, config->policies);
  options->inventories = Either(options->inventories, config->inventories);
  options->plans = Either(options->plans, config->plans);
  options->waivers = Either(options->waivers, config->waivers);
  options->baseline = Either(options->baseline, config->baseline);
  options->cache = Either(options->cache, config->cache);
  if (!options->fail_on) options->fail_on = config->fail_on.value_or(lint::FailOn::kError);
  return true;
}

// Reads a waivers or baseline file into the engine's sources; prints its
// problems and returns false when it cannot be used.
template <typename Parsed>
bool ReadSideFile(const std::string& path, Engine* engine, Parsed* parsed, bool color,
                  std::ostream& err) {
  std::string text, error;
  if (!lint::ReadFile(path, &text, &error, engine->options().facts.max_file_bytes)) {
    Fail(err, error);
    return false;
  }
  FileId file = engine->AddSource(path, std::move(text));
  Diagnostics problems = parsed->Parse(engine->sources(), file, engine->options().facts);
  if (!problems.HasErrors()) return true;
  report::WriteDiagnostics(engine->sources(), problems, {false, color}, err);
  return false;
}

bool WriteBaselineFile(const std::string& path, const eval::LintReport& report, Engine* engine,
                       std::ostream& err) {
  std::ostringstream text;
  lint::FindingKeys keys(engine->sources(), engine->options().facts, fs::path(path).parent_path());
  lint::WriteBaseline(report, &keys, text);
  std::string error;
  if (!lint::WriteFileAtomically(path, text.str(), &error)) {
    Fail(err, error);
    return false;
  }
  spdlog::info("wrote the baseline {}", path);
  return true;
}

// Every file the run reads: an output that is one of them would destroy it.
std::vector<std::string> Inputs(const CheckOptions& options, const Engine& engine, const lint::PlanSet& plans) {
  std::vector<std::string> inputs = plans.plans();
  for (const lint::PlanGroup& g : plans.groups()) inputs.insert(inputs.end(), g.inventories.begin(), g.inventories.end());
  for (FileId f = 0; f < engine.sources().size(); ++f) inputs.emplace_back(engine.sources().Path(f));
  for (const std::string* side : {&options.config, &options.waivers}) {
    if (!side->empty()) inputs.push_back(*side);
  }
  return inputs;
}

// False after saying why when an output would overwrite an input. The
// baseline read may be the one rewritten (`--baseline F --write-baseline F`).
bool OutputsSpareInputs(const CheckOptions& options, const Engine& engine, const lint::PlanSet& plans,
                        std::ostream& err) {
  std::vector<std::string> inputs = Inputs(options, engine, plans);
  std::string error;
  if (!options.output.empty()) {
    std::vector<std::string> all = inputs;
    for (const std::string* side : {&options.baseline, &options.write_baseline}) {
      if (!side->empty()) all.push_back(*side);
    }
    if (lint::IsSameFileAsAny(options.output, all, &error)) {
      Fail(err, error);
      return false;
    }
  }
  if (!options.write_baseline.empty() && lint::IsSameFileAsAny(options.write_baseline, inputs, &error)) {
    Fail(err, error);
    return false;
  }
  return true;
}

// The result cache of `--cache[=DIR]`, or null: not asked for, or unusable
// (then the run goes on without it, after a warning).
std::unique_ptr<lint::ResultCache> OpenCache(const std::string& dir) {
  if (dir.empty()) return nullptr;
  std::string warning;
  std::unique_ptr<lint::ResultCache> cache = lint::ResultCache::Open(dir, &warning);
  if (!cache) spdlog::warn("{}", warning);
  return cache;
}

// Waivers, then the baseline (written first if asked): known findings go.
bool Triage(const CheckOptions& options, Engine* engine, eval::LintReport* report,
            std::ostream& err) {
  if (!options.waivers.empty()) {
    lint::Waivers waivers;
    if (!ReadSideFile(options.waivers, engine, &waivers, options.color, err)) return false;
    lint::FindingKeys keys(engine->sources(), engine->options().facts, waivers.base_dir());
    waivers.Apply(report, &keys, lint::TodayUtc());
  }
  std::string baseline_path = options.baseline;
  if (!options.write_baseline.empty()) {
    if (!WriteBaselineFile(options.write_baseline, *report, engine, err)) return false;
    baseline_path = options.write_baseline;
  }
  if (!baseline_path.empty()) {
    lint::Baseline baseline;
    if (!ReadSideFile(baseline_path, engine, &baseline, options.color, err)) return false;
    lint::FindingKeys keys(engine->sources(), engine->options().facts, baseline.base_dir());
    baseline.Filter(report, &keys);
  }
  return true;
}

// The rule set as the reports list it: disabled and re-graded per the config.
std::vector<report::RuleDescriptor> Describe(const Engine& engine, const lint::RuleSelection& selection) {
  std::vector<report::RuleDescriptor> rules =
      report::DescribeRules(*engine.program(), engine.sources());
  for (report::RuleDescriptor& r : rules) {
    r.enabled = selection.enabled(r.id);
    r.severity = selection.SeverityOf(r.id, r.severity);
  }
  return rules;
}

void WriteReport(const CheckOptions& options, const Engine& engine, const lint::RuleSelection& selection,
                 const lint::PlanSet& plans, const eval::LintReport& report, std::ostream& out) {
  const SourceManager& sources = engine.sources();
  report::CiOptions ci{CAPOPS_VERSION, plans.plans()};
  switch (options.format) {
    case Format::kText:
      return report::WriteText(sources, report, {options.explain, options.color}, out);
    case Format::kShort:
      return report::WriteShort(sources, report, out);
    case Format::kJson:
      return report::WriteJson(sources, report, CAPOPS_VERSION, out);
    case Format::kSarif:
      return report::WriteSarif(sources, report, Describe(engine, selection), ci, out);
    case Format::kJunit:
      return report::WriteJunit(sources, report, Describe(engine, selection), ci, out);
    case Format::kGithub:
      return report::WriteGithub(sources, report, out);
  }
}

}  // namespace

int RunCheck(const CheckOptions& flags, std::ostream& out, std::ostream& err) {
  CheckOptions options = flags;
  SourceManager config_sources;
  lint::Config config;
  if (!SettleConfig(&options, &config_sources, &config, err)) return kExitUsage;
  if (options.plans.empty())
    return Fail(err, "no plan files given (name them, or set `plans:` in .capops.yaml)");

  Engine engine(options.engine);
  std::string error;
  if (!lint::LoadPolicies(options.policies, &engine, &error)) return Fail(err, error);
  if (!CompileOrReport(&engine, options.color, err)) return kExitUsage;
  if (engine.program()->rules.empty()) return Fail(err, "the policies define no rules, so nothing would be checked");
  spdlog::debug("{} rules, ruleset {}", engine.program()->rules.size(), engine.ruleset_digest());
  Diagnostics config_problems;
  lint::RuleSelection selection = lint::RuleSelection::Make(config, *engine.program(), &config_problems);
  for (const lint::ParamOverride& p : config.params) engine.SetParam(p.name.text, p.value, &config_problems);
  if (config_problems.HasErrors()) {
    config_problems.Sort();
    report::WriteDiagnostics(config_sources, config_problems, {false, options.color}, err);
    return kExitUsage;
  }

  lint::PlanSet plans(options.engine.facts);
  for (const std::string& arg : options.plans) {
    if (!plans.Add(arg, &error)) return Fail(err, error);
  }
  plans.Group(lint::FilesOnce(options.inventories, "inventory"));
  if (!OutputsSpareInputs(options, engine, plans, err)) return kExitUsage;
  if (!options.allow_empty && selection.disabled().size() >= engine.program()->rules.size())
    return Fail(err, "every rule is disabled, so nothing would be checked (pass `--allow-empty` to run anyway)");
  engine.options().eval.trace = options.explain;
  engine.options().skip_rules = selection.disabled();
  eval::LintReport report;
  std::unique_ptr<lint::ResultCache> cache = OpenCache(options.cache);
  if (!lint::LintPlanSet(&engine, plans, options.engine.facts.max_file_bytes, &report, &error,
                   cache.get()))
    return Fail(err, error);
  if (!options.allow_empty && report.plans == 0 && !report.errors.HasErrors()) {
    return Fail(err, "no `CapacityPlan` document in the files given, so nothing was checked "
                     "(inventories go with `--inventory`; pass `--allow-empty` to accept an empty run)");
  }
  selection.Apply(&report);
  if (!Triage(options, &engine, &report, err)) return kExitUsage;

  if (options.output.empty()) {
    WriteReport(options, engine, selection, plans, report, out);
  } else {
    std::ostringstream text;
    WriteReport(options, engine, selection, plans, report, text);
    if (!lint::WriteFileAtomically(options.output, text.str(), &error)) return Fail(err, error);
  }
  return lint::Fails(report, *options.fail_on) ? kExitFindings : kExitClean;
}

}  // namespace capops::cli
