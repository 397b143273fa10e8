// lint::LintSession — everything `capops-lint [options] PLAN…` does, as one
// library call: settle the configuration (`.capops.yaml`, config.h) under the
// options, read and compile the policies, select rules and set params, find
// the plan files (files, directories, globs: plan_set.h) and their
// inventories, lint them (reusing the result cache, result_cache.h), apply
// waivers and the baseline, and grade the run against fail-on. The findings
// come back sorted, in one lint::Report; rendering it is engine/report's.
//
//   lint::SessionOptions options;
//   options.plans = {"plans/"};
//   options.waivers = ".capops-waivers.yaml";
//   lint::LintSession session(options);
//   const lint::Report& report = session.Run();
//   if (report.status == lint::Status::kUsage) … report.problems, report.error
//   for (const eval::Violation& v : report.findings.violations) …
//
// A session reads the disk (policies, plans, side files), resolves relative
// paths against the working directory, and logs warnings (a file given
// twice, an unusable cache) through spdlog's default logger. It writes only
// what its options ask for: the baseline (`write_baseline`) and cache
// entries. It is run once; the Report refers to the session's sources and
// engine and lives as long as the session. Sessions share nothing: several
// may run at once on different threads.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/lint/config.h"
#include "engine/lint/fail_on.h"
#include "engine/lint/plan_set.h"
#include "engine/lint/rule_selection.h"

namespace capops::lint {

struct SessionOptions {
  std::vector<std::string>
      policies;  // files or directories; default: the config's, else the shipped pack
  std::vector<std::string>
      inventories;                 // default: the config's, else inventory.yaml beside each plan
  std::vector<std::string> plans;  // files, directories or globs; default: the config's
  std::string config;  // a config file; empty: look for .capops.yaml upwards from `config_search`
  std::string config_search = ".";  // where the look for .capops.yaml starts
  bool no_config = false;           // use no config file
  std::string waivers;              // default: the config's
  std::string baseline;             // default: the config's
  std::string write_baseline;       // record the findings there, then report only new ones
  std::string cache;  // reuse findings of unchanged plans, kept here; default: the config's
  std::optional<FailOn> fail_on;  // default: the config's, else error
  std::string rules_url;          // the published rule catalogue; default: the config's
  std::string source_root;   // SARIF's %SRCROOT%; default: the repository of the working directory
  bool trace = false;        // record each violation's clause trace (--explain)
  bool allow_empty = false;  // a run with no plan or no rule enabled is not refused
  /// Keep each plan's facts in the report (Report::facts, for the HTML
  /// report's charts). The result cache is then not used: a plan it
  /// answers for is not read, so its facts would be missing.
  bool keep_facts = false;
  /// A file the caller will write the report to: refused when it is one of
  /// the run's inputs, so a report cannot overwrite what it reports on.
  std::string output;
  EngineOptions engine;  // limits on inputs and evaluation
};

/// How the run ended, before any rendering.
enum class Status {
  kClean,     // nothing at or above fail-on
  kFindings,  // an unwaived finding at or above fail-on
  kUsage,     // the lint could not be done: `problems` and `error` say why
};

/// What a session found, sorted and triaged.
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
  /// The directory SARIF's %SRCROOT% stands for, absolute, when given
  /// (`--source-root`); "" to use the repository of the working directory.
  std::string source_root;
  /// The config file the run read; "" when none.
  std::string config_path;
  /// The plan files linted, sorted; for reports that list what was checked.
  std::vector<std::string> plan_files;
  /// With SessionOptions::keep_facts: the facts of each plan evaluated, in
  /// the order linted (plans whose facts break the schema are not there).
  std::vector<PlanFacts> facts;
  /// The sources every finding is located in (the policies and the fact,
  /// waivers and baseline files), the engine that linted, and the rule
  /// selection the config made; null with kUsage before they exist.
  const SourceManager* sources = nullptr;
  const Engine* engine = nullptr;
  const RuleSelection* selection = nullptr;
};

class LintSession {
 public:
  explicit LintSession(SessionOptions options);
  ~LintSession();
  LintSession(const LintSession&) = delete;
  LintSession& operator=(const LintSession&) = delete;

  /// Lints once; a second call returns the same report.
  const Report& Run();

 private:
  bool SettleConfig();
  bool Prepare();
  bool LintPlans();
  bool Triage();
  bool OutputsSpareInputs();
  std::vector<std::string> PartialRunFiles() const;
  template <typename Parsed>
  bool ReadSideFile(const std::string& path, Parsed* parsed);
  bool WriteBaselineFile(const std::string& path);
  bool Refuse(std::string reason);

  SessionOptions options_;
  SourceManager config_sources_;
  Config config_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<SourceManager> sources_;  // extends the engine's with this run's files
  RuleSelection selection_;
  PlanSet plan_set_;
  bool named_plans_ = false;  // plans named to the session, not the config's
  Report report_;
  bool ran_ = false;
};

}  // namespace capops::lint
