// SPDX-License-Identifier: Apache-2.0
// LintSession: `capops-lint PLAN…` on a file system — config, policies,
// the lint::Project, plan files, the run, the baseline written. Entry
// point: LintSession::Run.
#include "engine/workspace/session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

#include "engine/workspace/config_file.h"
#include "engine/workspace/policy_loader.h"
#include "engine/workspace/result_cache_dir.h"
#include "engine/workspace/same_file.h"

namespace capops::workspace {

namespace fs = std::filesystem;

namespace {

template <typename T>
T Either(const T& given, const T& config) {
  return given.empty() ? config : given;
}

FileSystem& Choose(FileSystem* given, std::unique_ptr<DiskFileSystem>* disk) {
  if (given != nullptr) return *given;
  *disk = std::make_unique<DiskFileSystem>();
  return **disk;
}

}  // namespace

namespace {

// Reads a waivers or baseline file; false with `*error` set when it cannot be.
bool ReadSideFile(const FileSystem& files, const std::string& path, size_t limit,
                  std::optional<lint::SideFile>* out, std::string* error) {
  if (path.empty()) return true;
  lint::SideFile file{path, {}};
  if (!files.Read(path, limit, &file.text, error)) return false;
  *out = std::move(file);
  return true;
}

}  // namespace

OpenedProject OpenProject(FileSystem& files, SessionOptions options) {
  OpenedProject out;
  lint::Report& refused = out.refused;
  refused.status = Status::kUsage;
  auto refuse = [&](std::string reason) {
    refused.error = std::move(reason);
    out.options = std::move(options);
    return std::move(out);
  };
  // The config file in force, merged under the options.
  std::optional<fs::path> path;
  if (!options.config.empty()) {
    path = options.config;
  } else if (!options.no_config) {
    path = FindConfig(files, options.config_search);
  }
  auto config_sources = std::make_shared<SourceManager>();
  lint::Config& config = out.config;
  if (path) {
    spdlog::debug("config {}", path->string());
    ConfigResult r = LoadConfig(files, config_sources.get(), *path, options.engine.facts);
    if (r.diagnostics.HasErrors()) {
      refused.problems = std::move(r.diagnostics);
      refused.problem_sources = config_sources.get();
      refused.keep = config_sources;
      return refuse("");
    }
    config = std::move(r.config);
  }
  bool own_policies = !options.policies.empty() || !config.policies.empty();
  options.policies = Either(options.policies, config.policies);
  options.inventories = Either(options.inventories, config.inventories);
  out.named_plans = !options.plans.empty();
  options.plans = Either(options.plans, config.plans);
  options.waivers = Either(options.waivers, config.waivers);
  options.baseline = Either(options.baseline, config.baseline);
  options.cache = Either(options.cache, config.cache);
  refused.fail_on = options.fail_on.value_or(config.fail_on.value_or(lint::FailOn::kError));
  refused.rules_url = Either(options.rules_url, config.rules_url);
  refused.config_path = config.path;
  refused.working_dir = files.WorkingDirectory();
  if (!options.source_root.empty()) {
    if (files.Kind(options.source_root) != FileKind::kDirectory)
      return refuse("--source-root `" + options.source_root + "` is not a directory");
    refused.source_root = files.Absolute(options.source_root);
  } else {
    const std::string& cwd = files.WorkingDirectory();
    refused.source_root = RepositoryRoot(files, cwd).value_or(cwd).string();
  }
  // The project: policies read and compiled, rules selected, params set.
  lint::ProjectSpec spec;
  spec.config = config;
  spec.config_sources = config_sources;
  spec.fail_on = refused.fail_on;
  spec.rules_url = refused.rules_url;
  spec.source_root = refused.source_root;
  spec.working_dir = refused.working_dir;
  spec.trace = options.trace;
  spec.allow_empty = options.allow_empty;
  spec.keep_facts = options.keep_facts;
  spec.profile = options.profile;
  bool shared =
      options.compiled && !own_policies && config.params.empty() && config.rule_params.empty();
  std::string error;
  // Where the policies come from, for reports to name their files by.
  if (std::optional<std::vector<fs::path>> roots = PolicyRoots(options.policies, &error)) {
    for (const fs::path& root : *roots) spec.policy_roots.push_back(files.Absolute(root.string()));
  }
  error.clear();
  if (shared) {
    spec.compiled = options.compiled;
  } else {
    spec.engine = std::make_shared<Engine>(options.engine);
    refused.engine = spec.engine.get();
    refused.keep = spec.engine;
    if (!LoadPolicies(files, options.policies, spec.engine.get(), &error)) return refuse(error);
  }
  // A baseline being written replaces the one read.
  size_t limit = options.engine.facts.max_file_bytes;
  if (!ReadSideFile(files, options.waivers, limit, &spec.waivers, &error) ||
      (options.write_baseline.empty() &&
       !ReadSideFile(files, options.baseline, limit, &spec.baseline, &error)))
    return refuse(error);
  lint::Report made;
  out.project = lint::Project::Make(std::move(spec), &made);
  if (!out.project) {
    made.fail_on = refused.fail_on;
    made.rules_url = refused.rules_url;
    made.source_root = refused.source_root;
    made.working_dir = refused.working_dir;
    refused = std::move(made);
    return refuse(refused.error);
  }
  spdlog::debug("{} rules, ruleset {}", out.project->engine().program()->rules.size(),
                out.project->engine().ruleset_digest());
  out.options = std::move(options);
  return out;
}

LintSession::LintSession(SessionOptions options, FileSystem* files)
    : files_(Choose(files, &disk_)),
      opened_(OpenProject(files_, std::move(options))),
      options_(opened_.options),
      plan_set_(files_, options_.engine.facts) {}

LintSession::~LintSession() = default;

Report LintSession::TakeReport() {
  Run();
  return std::move(report_);
}

const Report& LintSession::Run() {
  if (ran_) return report_;
  ran_ = true;
  if (!opened_.project) {
    report_ = std::move(opened_.refused);
    return report_;
  }
  report_.fail_on = opened_.refused.fail_on;  // for a refusal below
  if (options_.plans.empty()) {
    Refuse("no plan files given (name them, or set `plans:` in .capops.yaml)");
    return report_;
  }
  if (!FindPlans()) return report_;
  lint::RunInput input;
  input.plan_files = plan_set_.plans();
  input.groups = plan_set_.Reader();
  input.skipped = plan_set_.skipped();
  input.partial = PartialRunFiles();
  input.record_baseline = !options_.write_baseline.empty();
  input.baseline_path = options_.write_baseline;
  input.repair_lints = options_.repair_lints;
  input.repair_unproved = options_.repair_unproved;
  std::unique_ptr<ResultCache> cache;
  if (options_.use_cache && !options_.keep_facts && !options_.profile && !options_.cache.empty()) {
    std::string warning;
    cache = ResultCache::Open(&files_, options_.cache, &warning);
    if (!cache) spdlog::warn("{}", warning);
  }
  input.cache = cache.get();
  report_ = opened_.project->Run(std::move(input));
  if (cache) {
    spdlog::debug("cache `{}`: {} hits, {} misses, {} stored", cache->dir(), cache->hits(),
                  cache->misses(), cache->stored());
  }
  for (const std::string& warning : report_.warnings) spdlog::warn("{}", warning);
  if (report_.status != Status::kUsage && !options_.write_baseline.empty()) {
    std::string error;
    if (!files_.Write(options_.write_baseline, report_.new_baseline, &error)) {
      report_.status = Status::kUsage;
      report_.error = error;
    } else {
      spdlog::debug("wrote the baseline {}", options_.write_baseline);
    }
  }
  return report_;
}

bool LintSession::Refuse(std::string reason) {
  report_.status = Status::kUsage;
  report_.error = std::move(reason);
  return false;
}

// The plan files found, and the outputs checked against them.
bool LintSession::FindPlans() {
  std::string error;
  for (const std::string& arg : options_.plans) {
    if (!plan_set_.Add(arg, &error)) return Refuse(error);
  }
  plan_set_.Group(FilesOnce(files_, options_.inventories, "inventory"));
  report_.plan_files = plan_set_.plans();
  if (!OutputsSpareInputs()) return false;
  if (!options_.allow_empty && opened_.project->NothingEnabled())
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
  const SourceManager& policies = opened_.project->engine().sources();
  for (FileId f = 0; f < policies.size(); ++f) inputs.emplace_back(policies.Path(f));
  for (const std::string* side : {&options_.config, &options_.waivers}) {
    if (!side->empty()) inputs.push_back(*side);
  }
  std::string error;
  if (!options_.output.empty()) {
    std::vector<std::string> all = inputs;
    for (const std::string* side : {&options_.baseline, &options_.write_baseline}) {
      if (!side->empty()) all.push_back(*side);
    }
    if (IsSameFileAsAny(files_, options_.output, all, &error)) return Refuse(error);
  }
  if (!options_.write_baseline.empty() &&
      IsSameFileAsAny(files_, options_.write_baseline, inputs, &error))
    return Refuse(error);
  return true;
}

// When the plans were named (a pre-commit batch, a file given by hand) and
// leave out some of the config's: the fact files this run read. nullopt
// when it linted every plan there is to lint.
std::optional<std::vector<std::string>> LintSession::PartialRunFiles() const {
  if (!opened_.named_plans || opened_.config.plans.empty()) return std::nullopt;
  PlanSet all(files_, options_.engine.facts);
  std::string error;
  for (const std::string& arg : opened_.config.plans) {
    if (!all.Add(arg, &error))
      return std::nullopt;  // the config's own plans are not to be had: judge every waiver
  }
  // By the files themselves, however the config and the command line spell them.
  if (CoversAll(files_, plan_set_.plans(), all.plans())) return std::nullopt;
  std::vector<std::string> files = plan_set_.plans();
  for (const PlanGroup& g : plan_set_.groups())
    files.insert(files.end(), g.inventories.begin(), g.inventories.end());
  return files;
}

}  // namespace capops::workspace
