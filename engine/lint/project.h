// SPDX-License-Identifier: Apache-2.0
// lint::Project — the lint of a repository's plans, free of any host.
//
// A Project is what a host settles once: the config, the compiled engine
// with its params set, the rule selection, the waivers and baseline texts,
// fail-on. It is immutable once made and shared by runs and threads. A run
// takes the fact files (read by the host: from the disk for capops-lint,
// from the editor's buffers for capops-lsp, from memory in tests) and
// returns a Report through one triage pipeline:
//
//   lint (with the cache) → select rules → waive → baseline → sort → grade
//
// Nothing here reads the disk, the working directory or the environment, or
// logs: files arrive as text, paths are resolved against the working
// directory the host names, and warnings come back in the Report.
//
//   lint::ProjectSpec spec;  // workspace/session.h fills one from disk
//   spec.engine = std::move(engine);  // policies added, not compiled
//   lint::Report refused;
//   std::shared_ptr<const lint::Project> project = lint::Project::Make(std::move(spec), &refused);
//   if (!project) … refused.status == kUsage
//   lint::RunInput input;  input.groups = …;
//   lint::Report report = project->Run(input);
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/lint/config.h"
#include "engine/lint/fail_on.h"
#include "engine/lint/group_lint.h"
#include "engine/lint/rule_selection.h"
#include "engine/repair/repair.h"

namespace capops::lint {

/// How the run ended, before any rendering.
enum class Status {
  kClean,     // nothing at or above fail-on
  kFindings,  // an unwaived finding at or above fail-on
  kUsage,     // the lint could not be done: `problems` and `error` say why
};

/// What a run found, sorted and triaged. Owns what its pointers point at.
struct Report {
  Status status = Status::kClean;
  /// With kUsage: located problems (a config key, a policy that does not
  /// compile, a waiver entry), rendered against `problem_sources`; and a
  /// one-line reason, either of which may be empty.
  Diagnostics problems;
  const SourceManager* problem_sources = nullptr;
  std::string error;
  /// The findings: violations (waived ones flagged, baselined ones gone)
  /// and errors, in report order (eval::SortViolations).
  eval::LintReport findings;
  FailOn fail_on = FailOn::kError;
  /// Where the rule catalogue is published (`rules-url`); "" when not said.
  std::string rules_url;
  /// The directory SARIF's %SRCROOT% stands for, absolute: the one given
  /// (`--source-root`), else the repository of the working directory, else
  /// the working directory.
  std::string source_root;
  /// The absolute directory relative paths in the report are relative to.
  std::string working_dir;
  /// The config file the run read; "" when none.
  std::string config_path;
  /// The plan files linted, sorted; for reports that list what was checked.
  std::vector<std::string> plan_files;
  /// With ProjectSpec::keep_facts: the facts of each plan evaluated, in
  /// the order linted (plans whose facts break the schema are not there).
  std::vector<PlanFacts> facts;
  /// With ProjectSpec::keep_facts and a repair search (RunInput::repair_lints):
  /// for each finding with fixes, by its index in `findings.violations`,
  /// the facts of its plan document with its first fix applied, read as a
  /// lint reads them (Engine::LoadFacts over the plan's group, the plan
  /// edited in memory), for the HTML report to draw where that fix puts
  /// the allocation. Read their values only: their locations are in files
  /// the report does not hold. A finding has none when its fix edits
  /// another file, when it is not in its file's first plan document (the
  /// one LoadFacts reads), or when the edited plan does not read cleanly.
  std::map<size_t, eval::Facts> first_fix_facts;
  /// With ProjectSpec::profile: what each rule cost (`--profile`).
  std::optional<eval::Profile> profile;
  /// For the host to show (an old-form baseline, a file changed while it
  /// was linted); one line each.
  std::vector<std::string> warnings;
  /// With RunInput::record_baseline: the baseline written from these
  /// findings (after waivers), for the host to save.
  std::string new_baseline;
  /// The sources every finding is located in (the policies and the fact,
  /// waivers and baseline files; a policy file outside the working
  /// directory shown by its path in its pack: SourceManager::ShownPath), the
  /// engine that linted, and the rule selection the config made; null with
  /// kUsage before they exist.
  const SourceManager* sources = nullptr;
  const Engine* engine = nullptr;
  const RuleSelection* selection = nullptr;

  /// What the pointers above point at: the run's sources, and the project
  /// (its engine, selection and config sources).
  std::unique_ptr<SourceManager> own_sources;
  std::shared_ptr<const void> keep;
};

/// A waivers or baseline file as the host read it.
struct SideFile {
  std::string path;
  std::string text;
};

/// What a host settles before a Project is made.
struct ProjectSpec {
  /// The config in force, options merged in; its file's text in
  /// `config_sources` (null when there is none), where its problems are located.
  Config config;
  std::shared_ptr<const SourceManager> config_sources;
  /// The policies added, not yet compiled (Make compiles it and sets the
  /// config's params) — or, instead, `compiled`: an engine already
  /// compiled and shared with other projects, for a config that sets no
  /// params (Make refuses one that does).
  std::shared_ptr<Engine> engine;
  std::shared_ptr<const Engine> compiled;
  FailOn fail_on = FailOn::kError;
  std::string rules_url;
  std::string source_root;  // absolute (see Report::source_root)
  std::string working_dir;  // absolute
  /// Where the policies were read from (absolute directories or files: the
  /// stdlib, the packs): a report names a policy file outside the working
  /// directory by its path in one of them (pack_paths.h).
  std::vector<std::string> policy_roots;
  std::optional<SideFile> waivers;
  std::optional<SideFile> baseline;
  bool trace = false;        // record each violation's clause trace (--explain)
  bool allow_empty = false;  // a run with no plan or no rule enabled is not refused
  /// Keep each plan's facts in the report (the HTML report's charts); the
  /// cache is then not used, since a plan it answers for is not read.
  bool keep_facts = false;
  /// Time each rule into Report::profile (the rules then run one at a time).
  bool profile = false;
};

/// One run's fact files and how the waivers judge them.
struct RunInput {
  std::vector<std::string> plan_files;  // as the report lists them
  GroupFiles groups;
  std::vector<SkippedFile> skipped;
  /// When the run leaves out plans the config names (a pre-commit batch,
  /// an editor's one file): the fact files it read, the only ones waivers
  /// are judged stale on. nullopt: every plan there is to lint.
  std::optional<std::vector<std::string>> partial;
  /// Record the findings as a baseline (Report::new_baseline, to be saved
  /// at `baseline_path`), then report only those it does not hold.
  bool record_baseline = false;
  std::string baseline_path;
  /// Reuse findings of unchanged plans (may be null; never with keep_facts).
  FindingStore* cache = nullptr;
  /// The day waivers expire against (days since 1970-01-01, UTC); nullopt: today.
  std::optional<int64_t> today;
  /// Search repairs for the findings that have a repair search, each proved
  /// by a relint of its plan's group (engine/repair): Violation::fixes. At
  /// most this many lints (repair::RepairOptions::max_lints); 0: no search.
  size_t repair_lints = 0;
  /// Propose the searches' alternatives unproved, relinting none
  /// (RepairOptions::prove false): for `--fix`, which proves them itself.
  bool repair_unproved = false;
};

class Project : public std::enable_shared_from_this<Project> {
 public:
  /// Compiles the engine, selects rules and sets the config's params. Null
  /// with `*refused` set (status kUsage) when that cannot be done.
  static std::shared_ptr<const Project> Make(ProjectSpec spec, Report* refused);

  /// Lints `input` and triages the findings (any thread).
  Report Run(RunInput input) const;

  const Engine& engine() const { return *engine_; }
  const RuleSelection& selection() const { return selection_; }
  const ProjectSpec& spec() const { return spec_; }
  /// True when every rule is disabled (a run is refused unless allow_empty).
  bool NothingEnabled() const;

 private:
  explicit Project(ProjectSpec spec) : spec_(std::move(spec)) {}
  bool Triage(const RunInput& input, Report* report) const;
  void Repair(const RunInput& input, const LintOptions& lint, const repair::Linted& linted,
              Report* report) const;
  template <typename Parsed>
  bool ParseSideFile(const SideFile& file, Report* report, Parsed* parsed) const;

  ProjectSpec spec_;
  std::shared_ptr<const Engine> engine_;
  RuleSelection selection_;
  std::vector<std::pair<FileId, std::string>> pack_paths_;  // how reports show policy files
};

/// A Report refused with `reason` (status kUsage).
Report Refusal(std::string reason);

}  // namespace capops::lint
