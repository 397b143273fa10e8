// LintSession: the whole lint of `capops-lint PLAN…` in one place — config,
// policies, rule selection, plan files, lint with the cache, waivers,
// baseline, grading. Entry point: LintSession::Run.
#include "engine/lint/session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "engine/lint/baseline.h"
#include "engine/lint/config_params.h"
#include "engine/lint/output_file.h"
#include "engine/lint/pack_locator.h"
#include "engine/lint/policy_loader.h"
#include "engine/lint/result_cache.h"
#include "engine/lint/same_file.h"
#include "engine/lint/waivers.h"

namespace capops::lint {

namespace fs = std::filesystem;

namespace {

template <typename T>
T Either(const T& given, const T& config) {
  return given.empty() ? config : given;
}

// The result cache asked for, or null: not asked for, or unusable (then the
// run goes on without it, after a warning).
std::unique_ptr<ResultCache> OpenCache(const std::string& dir) {
  if (dir.empty()) return nullptr;
  std::string warning;
  std::unique_ptr<ResultCache> cache = ResultCache::Open(dir, &warning);
  if (!cache) spdlog::warn("{}", warning);
  return cache;
}

}  // namespace

LintSession::LintSession(SessionOptions options)
    : options_(std::move(options)), plan_set_(options_.engine.facts) {}

LintSession::~LintSession() = default;

const Report& LintSession::Run() {
  if (ran_) return report_;
  ran_ = true;
  if (!SettleConfig() || !Prepare() || !LintPlans() || !Triage()) {
    report_.status = Status::kUsage;
    return report_;
  }
  report_.status = Fails(report_.findings, report_.fail_on) ? Status::kFindings : Status::kClean;
  return report_;
}

bool LintSession::Refuse(std::string reason) {
  report_.error = std::move(reason);
  return false;
}

// The config file in force (named, found upwards, or none), merged under
// the options: an option given wins over the config.
bool LintSession::SettleConfig() {
  std::optional<fs::path> path;
  if (!options_.config.empty()) {
    path = options_.config;
  } else if (!options_.no_config) {
    path = FindConfig(options_.config_search);
  }
  if (path) {
    spdlog::debug("config {}", path->string());
    ConfigResult r = LoadConfig(&config_sources_, *path, options_.engine.facts);
    if (r.diagnostics.HasErrors()) {
      report_.problems = std::move(r.diagnostics);
      report_.problem_sources = &config_sources_;
      return false;
    }
    config_ = std::move(r.config);
  }
  options_.policies = Either(options_.policies, config_.policies);
  options_.inventories = Either(options_.inventories, config_.inventories);
  named_plans_ = !options_.plans.empty();
  options_.plans = Either(options_.plans, config_.plans);
  options_.waivers = Either(options_.waivers, config_.waivers);
  options_.baseline = Either(options_.baseline, config_.baseline);
  options_.cache = Either(options_.cache, config_.cache);
  report_.fail_on = options_.fail_on.value_or(config_.fail_on.value_or(FailOn::kError));
  report_.rules_url = Either(options_.rules_url, config_.rules_url);
  report_.config_path = config_.path;
  if (!options_.source_root.empty()) {
    std::error_code ec;
    if (!fs::is_directory(options_.source_root, ec))
      return Refuse("--source-root `" + options_.source_root + "` is not a directory");
    report_.source_root = fs::absolute(options_.source_root, ec).lexically_normal().string();
  }
  if (options_.plans.empty())
    return Refuse("no plan files given (name them, or set `plans:` in .capops.yaml)");
  return true;
}

// Policies compiled, rules selected, params set, plan files found.
bool LintSession::Prepare() {
  engine_ = std::make_unique<Engine>(options_.engine);
  report_.engine = engine_.get();
  std::string error;
  if (!LoadPolicies(options_.policies, engine_.get(), &error)) return Refuse(error);
  if (!engine_->Compile(&report_.problems)) {
    report_.problem_sources = &engine_->sources();
    size_t n = report_.problems.size();
    return Refuse("the policies do not compile (" + std::to_string(n) + " problem" +
                  (n == 1 ? ")" : "s)"));
  }
  const check::Program& program = *engine_->program();
  if (program.rules.empty())
    return Refuse("the policies define no rules, so nothing would be checked");
  spdlog::debug("{} rules, ruleset {}", program.rules.size(), engine_->ruleset_digest());
  Diagnostics config_problems;
  selection_ = RuleSelection::Make(config_, program, &config_problems);
  report_.selection = &selection_;
  ApplyConfigParams(config_, engine_.get(), &config_problems);
  if (config_problems.HasErrors()) {
    config_problems.Sort();
    report_.problems = std::move(config_problems);
    report_.problem_sources = &config_sources_;
    return false;
  }
  sources_ = std::make_unique<SourceManager>(&engine_->sources());
  report_.sources = sources_.get();
  for (const std::string& arg : options_.plans) {
    if (!plan_set_.Add(arg, &error)) return Refuse(error);
  }
  plan_set_.Group(FilesOnce(options_.inventories, "inventory"));
  report_.plan_files = plan_set_.plans();
  if (!OutputsSpareInputs()) return false;
  if (!options_.allow_empty && selection_.disabled().size() >= program.rules.size())
    return Refuse(
        "every rule is disabled, so nothing would be checked (pass `--allow-empty` to run anyway)");
  return true;
}

// False after saying why when an output would overwrite an input. The
// baseline read may be the one rewritten (`--baseline F --write-baseline F`).
bool LintSession::OutputsSpareInputs() {
  std::vector<std::string> inputs = plan_set_.plans();
  for (const PlanGroup& g : plan_set_.groups())
    inputs.insert(inputs.end(), g.inventories.begin(), g.inventories.end());
  for (FileId f = 0; f < engine_->sources().size(); ++f)
    inputs.emplace_back(engine_->sources().Path(f));
  for (const std::string* side : {&options_.config, &options_.waivers}) {
    if (!side->empty()) inputs.push_back(*side);
  }
  std::string error;
  if (!options_.output.empty()) {
    std::vector<std::string> all = inputs;
    for (const std::string* side : {&options_.baseline, &options_.write_baseline}) {
      if (!side->empty()) all.push_back(*side);
    }
    if (IsSameFileAsAny(options_.output, all, &error)) return Refuse(error);
  }
  if (!options_.write_baseline.empty() && IsSameFileAsAny(options_.write_baseline, inputs, &error))
    return Refuse(error);
  return true;
}

bool LintSession::LintPlans() {
  LintOptions lint;
  lint.trace = options_.trace;
  lint.skip_rules = selection_.disabled();
  if (options_.keep_facts) lint.facts = &report_.facts;
  std::unique_ptr<ResultCache> cache = options_.keep_facts ? nullptr : OpenCache(options_.cache);
  std::string error;
  if (!LintPlanSet(*engine_, lint, sources_.get(), plan_set_, options_.engine.facts.max_file_bytes,
                   &report_.findings, &error, cache.get()))
    return Refuse(error);
  engine_->NameParams(&report_.findings);  // cached findings too, as the config now says
  const eval::LintReport& findings = report_.findings;
  if (!options_.allow_empty && findings.plans == 0 && !findings.errors.HasErrors()) {
    return Refuse(
        "no `CapacityPlan` document in the files given, so nothing was checked "
        "(inventories go with `--inventory`; pass `--allow-empty` to accept an empty run)");
  }
  selection_.Apply(&report_.findings);
  return true;
}

// Reads a waivers or baseline file into the engine's sources; false with
// its problems when it cannot be used.
template <typename Parsed>
bool LintSession::ReadSideFile(const std::string& path, Parsed* parsed) {
  std::string text, error;
  if (!ReadFile(path, &text, &error, engine_->options().facts.max_file_bytes)) return Refuse(error);
  FileId file = engine_->AddSource(sources_.get(), path, std::move(text));
  Diagnostics problems = parsed->Parse(*sources_, file, engine_->options().facts);
  if (!problems.HasErrors()) return true;
  report_.problems = std::move(problems);
  report_.problem_sources = sources_.get();
  return false;
}

bool LintSession::WriteBaselineFile(const std::string& path) {
  std::ostringstream text;
  FindingKeys keys(*sources_, engine_->options().facts, fs::path(path).parent_path());
  WriteBaseline(report_.findings, &keys, text);
  std::string error;
  if (!WriteFileAtomically(path, text.str(), &error)) return Refuse(error);
  spdlog::debug("wrote the baseline {}", path);
  return true;
}

// When the plans were named (a pre-commit batch, a file given by hand) and
// leave out some of the config's: the fact files this run read. Empty when
// it linted every plan there is to lint.
std::vector<std::string> LintSession::PartialRunFiles() const {
  if (!named_plans_ || config_.plans.empty()) return {};
  PlanSet all(options_.engine.facts);
  std::string error;
  for (const std::string& arg : config_.plans) {
    if (!all.Add(arg, &error))
      return {};  // the config's own plans are not to be had: judge every waiver
  }
  // By the files themselves, however the config and the command line spell them.
  if (CoversAll(plan_set_.plans(), all.plans())) return {};
  std::vector<std::string> files = plan_set_.plans();
  for (const PlanGroup& g : plan_set_.groups())
    files.insert(files.end(), g.inventories.begin(), g.inventories.end());
  return files;
}

// Waivers, then the baseline (written first if asked): known findings go.
bool LintSession::Triage() {
  if (!options_.waivers.empty()) {
    Waivers waivers;
    if (!ReadSideFile(options_.waivers, &waivers)) return false;
    FindingKeys keys(*sources_, engine_->options().facts, waivers.base_dir());
    std::vector<std::string> partial = PartialRunFiles();
    waivers.Apply(&report_.findings, &keys, TodayUtc(), partial.empty() ? nullptr : &partial);
  }
  std::string baseline_path = options_.baseline;
  if (!options_.write_baseline.empty()) {
    if (!WriteBaselineFile(options_.write_baseline)) return false;
    baseline_path = options_.write_baseline;
  }
  if (!baseline_path.empty()) {
    Baseline baseline;
    if (!ReadSideFile(baseline_path, &baseline)) return false;
    FindingKeys keys(*sources_, engine_->options().facts, baseline.base_dir());
    baseline.Filter(&report_.findings, &keys);
  }
  return true;
}

}  // namespace capops::lint
