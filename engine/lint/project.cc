// SPDX-License-Identifier: Apache-2.0
// lint::Project: a settled lint, made once and run on fact files through
// one triage pipeline. Entry points: Project::Make, Project::Run.
#include "engine/lint/project.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "engine/lint/baseline.h"
#include "engine/lint/config_params.h"
#include "engine/lint/finding_key.h"
#include "engine/lint/pack_paths.h"
#include "engine/lint/waivers.h"
#include "engine/repair/repair.h"

namespace capops::lint {

namespace {

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string DirOf(const std::string& path) {
  return std::filesystem::path(path).parent_path().string();
}

// Whether `loc` is in the first plan document of its file among `plans`.
bool InFirstPlanOfFile(const std::vector<PlanFacts>& plans, const SourceLoc& loc) {
  const PlanFacts* at = nullptr;
  uint32_t first = UINT32_MAX;
  for (const PlanFacts& p : plans) {
    if (p.document.file != loc.file) continue;
    first = std::min(first, p.document.line);
    if (p.document.line <= loc.line && (at == nullptr || p.document.line > at->document.line))
      at = &p;
  }
  return at != nullptr && at->document.line == first;
}

// The facts of the first plan document of `path` with `fix` applied, read
// with the rest of its group; nullopt when the fix does not apply or the
// edited file does not read without errors.
std::optional<eval::Facts> LoadEdited(const Engine& engine, repair::Group group,
                                      const std::string& path, const Fix& fix) {
  auto plan = std::find_if(group.plans.begin(), group.plans.end(),
                           [&](const TextFile& f) { return f.path == path; });
  std::string edited, why;
  if (plan == group.plans.end() || !ApplyReplacements(plan->text, fix.replacements, &edited, &why))
    return std::nullopt;
  plan->text = std::move(edited);
  plan->stamp = std::nullopt;
  std::rotate(group.plans.begin(), plan, plan + 1);  // LoadFacts reads the first plan
  SourceManager sources(&engine.sources());
  eval::Facts facts;
  Diagnostics problems;
  engine.LoadFacts(group.plans, group.inventories, &facts, &problems, &sources);
  for (const Diagnostic& d : problems.items()) {
    if (d.severity == Severity::kError && d.loc.valid() && sources.Path(d.loc.file) == path)
      return std::nullopt;
  }
  return facts;
}

// Report::first_fix_facts: a group read per plan file, a load per fix
// (the findings one fix repairs share its facts).
void ReadFirstFixes(const Engine& engine, const repair::GroupOf& group_of, Report* r) {
  std::map<std::string, std::optional<repair::Group>> groups;  // by plan path
  std::vector<std::pair<const Fix*, std::optional<eval::Facts>>> loaded;
  const std::vector<eval::Violation>& violations = r->findings.violations;
  for (size_t i = 0; i < violations.size(); ++i) {
    const eval::Violation& v = violations[i];
    if (v.fixes.empty() || !InFirstPlanOfFile(r->facts, v.loc)) continue;
    const Fix& fix = v.fixes.front();
    if (fix.replacements.empty() ||
        std::any_of(fix.replacements.begin(), fix.replacements.end(),
                    [&](const Replacement& e) { return e.file != v.loc.file; }))
      continue;
    auto same =
        std::find_if(loaded.begin(), loaded.end(), [&](const auto& l) { return *l.first == fix; });
    if (same == loaded.end()) {
      std::string path(r->sources->Path(v.loc.file));
      auto [group, added] = groups.try_emplace(path);
      if (added) {
        repair::Group read;
        if (group_of(path, &read)) group->second = std::move(read);
      }
      std::optional<eval::Facts> facts;
      if (group->second) facts = LoadEdited(engine, *group->second, path, fix);
      same = loaded.insert(loaded.end(), {&fix, std::move(facts)});
    }
    if (same->second) r->first_fix_facts.emplace(i, *same->second);
  }
}

}  // namespace

Report Refusal(std::string reason) {
  Report r;
  r.status = Status::kUsage;
  r.error = std::move(reason);
  return r;
}

std::shared_ptr<const Project> Project::Make(ProjectSpec spec, Report* refused) {
  *refused = Refusal("");
  refused->config_path = spec.config.path;
  std::shared_ptr<const Engine> engine = spec.compiled;
  if (!engine) {
    if (!spec.engine) {
      refused->error = "no policies to lint with";
      return nullptr;
    }
    refused->engine = spec.engine.get();
    refused->keep = spec.engine;
    if (!spec.engine->Compile(&refused->problems)) {
      // Shown as a run's findings are: the pack's files by their path in it.
      refused->own_sources = std::make_unique<SourceManager>(&spec.engine->sources());
      for (auto& [file, shown] :
           PackPaths(spec.engine->sources(), spec.policy_roots, spec.working_dir))
        refused->own_sources->Show(file, std::move(shown));
      refused->problem_sources = refused->own_sources.get();
      refused->error = "the policies do not compile (" +
                       Plural(refused->problems.size(), "problem)", "problems)");
      return nullptr;
    }
    engine = spec.engine;
  } else if (!spec.config.params.empty() || !spec.config.rule_params.empty()) {
    refused->error = "a shared compiled pack cannot take the config's params";
    return nullptr;
  }
  const check::Program& program = *engine->program();
  if (program.rules.empty()) {
    refused->error = "the policies define no rules, so nothing would be checked";
    return nullptr;
  }
  std::shared_ptr<Project> project(new Project(std::move(spec)));
  project->engine_ = engine;
  project->pack_paths_ =
      PackPaths(engine->sources(), project->spec_.policy_roots, project->spec_.working_dir);
  Diagnostics config_problems;
  project->selection_ = RuleSelection::Make(project->spec_.config, program, &config_problems);
  if (project->spec_.engine)
    ApplyConfigParams(project->spec_.config, project->spec_.engine.get(), &config_problems);
  if (config_problems.HasErrors()) {
    config_problems.Sort();
    refused->problems = std::move(config_problems);
    refused->problem_sources = project->spec_.config_sources.get();
    refused->keep = project;
    return nullptr;
  }
  return project;
}

bool Project::NothingEnabled() const {
  return selection_.disabled().size() >= engine().program()->rules.size();
}

Report Project::Run(RunInput input) const {
  Report r;
  r.fail_on = spec_.fail_on;
  r.rules_url = spec_.rules_url;
  r.source_root = spec_.source_root;
  r.working_dir = spec_.working_dir;
  r.config_path = spec_.config.path;
  r.plan_files = std::move(input.plan_files);
  r.engine = engine_.get();
  r.selection = &selection_;
  r.keep = shared_from_this();
  r.own_sources = std::make_unique<SourceManager>(&engine().sources());
  for (const auto& [file, shown] : pack_paths_) r.own_sources->Show(file, shown);
  r.sources = r.own_sources.get();
  auto refuse = [&r](std::string reason) {
    r.status = Status::kUsage;
    r.error = std::move(reason);
    return std::move(r);
  };
  LintOptions lint;
  lint.trace = spec_.trace;
  lint.skip_rules = selection_.disabled();
  // The repair search reads the facts this lint evaluated rather than
  // linting each plan again (repair::Linted); a plan the result cache
  // answers for is not evaluated, so with the cache it lints its own.
  std::vector<PlanFacts> repair_facts;
  if (spec_.keep_facts) {
    lint.facts = &r.facts;
  } else if (input.repair_lints > 0 && input.cache == nullptr) {
    lint.facts = &repair_facts;
  }
  if (spec_.profile) lint.profile = &r.profile.emplace();
  std::string error;
  bool cached = !spec_.keep_facts && !spec_.profile;
  if (!LintGroups(engine(), lint, r.own_sources.get(), input.groups, input.skipped, &r.findings,
                  &error, cached ? input.cache : nullptr)) {
    return refuse(error);
  }
  // The errors as the repair search's relints will show them: before the
  // config grades them and waivers or the baseline take any away.
  repair::ErrorKeys errors;
  if (input.repair_lints > 0) errors = repair::ErrorKeysOf(r.findings, *r.sources);
  // Cached findings too, as the config now says; policy files as reports show them.
  engine().NameParams(&r.findings, pack_paths_.empty() ? nullptr : r.sources);
  if (!spec_.allow_empty && r.findings.plans == 0 && !r.findings.errors.HasErrors()) {
    return refuse(
        "no `CapacityPlan` document in the files given, so nothing was checked "
        "(inventories go with `--inventory`; pass `--allow-empty` to accept an empty run)");
  }
  selection_.Apply(&r.findings);
  if (!Triage(input, &r)) {
    r.status = Status::kUsage;
    return r;
  }
  if (input.repair_lints > 0) Repair(input, lint, {lint.facts, &errors}, &r);
  r.status = Fails(r.findings, r.fail_on) ? Status::kFindings : Status::kClean;
  return r;
}

// The repairs of the findings left after triage, each proved by a relint of
// the group its plan file was read in; with the facts kept, the facts each
// first repair leaves (Report::first_fix_facts).
void Project::Repair(const RunInput& input, const LintOptions& lint, const repair::Linted& linted,
                     Report* r) const {
  const GroupFiles& groups = input.groups;
  repair::GroupOf group_of = [&groups](const std::string& path, repair::Group* group) {
    for (size_t g = 0; g < groups.count; ++g) {
      repair::Group read;
      std::string error;
      if (!groups.read(g, &read.plans, &read.inventories, &error)) continue;
      for (const TextFile& f : read.plans) {
        if (f.path != path) continue;
        *group = std::move(read);
        return true;
      }
    }
    return false;
  };
  repair::RepairOptions options;
  options.max_lints = input.repair_lints;
  options.prove = !input.repair_unproved;
  repair::Repair(engine(), lint, group_of, *r->sources, &r->findings, options, &linted);
  if (spec_.keep_facts) ReadFirstFixes(engine(), group_of, r);  // for the charts
}

// Parses a waivers or baseline file into the run's sources; false with its
// problems in the report when it cannot be used.
template <typename Parsed>
bool Project::ParseSideFile(const SideFile& file, Report* report, Parsed* parsed) const {
  FileId id = engine().AddSource(report->own_sources.get(), file.path, file.text);
  Diagnostics problems = parsed->Parse(*report->sources, id, engine().options().facts);
  if (!problems.HasErrors()) return true;
  report->problems = std::move(problems);
  report->problem_sources = report->sources;
  return false;
}

// Waivers, then the baseline (recorded first if asked): known findings go.
bool Project::Triage(const RunInput& input, Report* r) const {
  const facts::LoadOptions& facts = engine().options().facts;
  auto keys_at = [&](const std::filesystem::path& base) {
    return FindingKeys(*r->sources, facts, base, spec_.working_dir);
  };
  auto collect = [r](const FindingKeys& keys) {
    r->warnings.insert(r->warnings.end(), keys.warnings().begin(), keys.warnings().end());
  };
  if (spec_.waivers) {
    Waivers waivers;
    if (!ParseSideFile(*spec_.waivers, r, &waivers)) return false;
    FindingKeys keys = keys_at(waivers.base_dir());
    waivers.Apply(&r->findings, &keys, input.today.value_or(TodayUtc()),
                  input.partial ? &*input.partial : nullptr);
    collect(keys);
  }
  std::optional<SideFile> baseline = spec_.baseline;
  if (input.record_baseline) {
    std::ostringstream text;
    FindingKeys keys = keys_at(DirOf(input.baseline_path));
    WriteBaseline(r->findings, &keys, text);
    collect(keys);
    r->new_baseline = text.str();
    baseline = SideFile{input.baseline_path, r->new_baseline};
  }
  if (baseline) {
    Baseline known;
    if (!ParseSideFile(*baseline, r, &known)) return false;
    if (!known.warning().empty()) r->warnings.push_back(known.warning());
    FindingKeys keys = keys_at(known.base_dir());
    known.Filter(&r->findings, &keys);
    collect(keys);
  }
  return true;
}

}  // namespace capops::lint
