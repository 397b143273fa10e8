// SPDX-License-Identifier: Apache-2.0
// workspace::LintSession — everything `capops-lint [options] PLAN…` does, as
// one library call, on a FileSystem: settle the configuration
// (`.capops.yaml`, config_file.h) under the options, read the policies and
// make the lint::Project (compile, select rules, set params), find the plan
// files (files, directories, globs: plan_set.h) and their inventories, run
// the project on them (reusing the result cache, result_cache_dir.h) and
// save what the run asks to be saved (the baseline). The findings come back
// sorted and triaged in one lint::Report; rendering it is engine/report's.
//
//   workspace::SessionOptions options;
//   options.plans = {"plans/"};
//   options.waivers = ".capops-waivers.yaml";
//   workspace::DiskFileSystem disk;
//   workspace::LintSession session(options, &disk);
//   const lint::Report& report = session.Run();
//   if (report.status == lint::Status::kUsage) … report.problems, report.error
//   for (const eval::Violation& v : report.findings.violations) …
//
// A session reads and writes through its FileSystem only, resolves
// relative paths against its working directory, and logs warnings (a file
// given twice, an unusable cache, the report's warnings) through spdlog's
// default logger. It writes only what its options ask for: the baseline
// (`write_baseline`) and cache entries. It is run once; the Report owns
// what it refers to. Sessions share nothing: several may run at once on
// different threads.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/lint/config.h"
#include "engine/lint/fail_on.h"
#include "engine/lint/project.h"
#include "engine/workspace/file_system.h"
#include "engine/workspace/plan_set.h"

namespace capops::workspace {

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
  std::optional<lint::FailOn> fail_on;  // default: the config's, else error
  std::string rules_url;                // the published rule catalogue; default: the config's
  std::string source_root;   // SARIF's %SRCROOT%; default: the repository of the working directory
  bool trace = false;        // record each violation's clause trace (--explain)
  bool allow_empty = false;  // a run with no plan or no rule enabled is not refused
  /// Keep each plan's facts in the report (Report::facts, for the HTML
  /// report's charts). The result cache is then not used: a plan it
  /// answers for is not read, so its facts would be missing.
  bool keep_facts = false;
  /// Time each rule (Report::profile, `--profile`): the rules run one at a
  /// time, each alone, and the result cache is not used, since a plan it
  /// answers for is not evaluated.
  bool profile = false;
  /// Search repairs for the findings of rules that have a repair search,
  /// each proved by a relint (engine/repair), running at most this many
  /// lints (lint::RunInput::repair_lints); 0: no search.
  size_t repair_lints = 0;
  bool repair_unproved = false;  // lint::RunInput::repair_unproved
  /// Use the result cache (`cache`, else the config's): off for runs over
  /// texts that are never on disk, such as the rounds of `--fix`.
  bool use_cache = true;
  /// A file the caller will write the report to: refused when it is one of
  /// the run's inputs, so a report cannot overwrite what it reports on.
  std::string output;
  EngineOptions engine;  // limits on inputs and evaluation
  /// A compiled pack to share, used when neither the options nor the config
  /// name policies and the config sets no params (the editor's pack).
  std::shared_ptr<const Engine> compiled;
};

/// A config settled under the options, and the project made from it.
struct OpenedProject {
  SessionOptions options;  // the options, with what they leave out taken from the config
  lint::Config config;
  bool named_plans = false;                      // plans named in the options, not the config's
  std::shared_ptr<const lint::Project> project;  // null: `refused` says why
  lint::Report refused;
};

/// The one way a host opens a project, the CLI's session and the editor's
/// alike: the config in force (named, found upwards from
/// `config_search`, or none) merged under the options (an option given
/// wins), the policies read and compiled with the config's params, the
/// rules selected, the waivers and baseline read.
OpenedProject OpenProject(FileSystem& files, SessionOptions options);

using lint::Report;
using lint::Status;

class LintSession {
 public:
  /// `files` (the disk when null) must outlive the session.
  explicit LintSession(SessionOptions options, FileSystem* files = nullptr);
  ~LintSession();
  LintSession(const LintSession&) = delete;
  LintSession& operator=(const LintSession&) = delete;

  /// Lints once; a second call returns the same report.
  const Report& Run();
  /// Run()'s report, moved out for a caller to edit (it owns what it
  /// refers to); the session is then spent.
  Report TakeReport();

 private:
  bool FindPlans();
  bool OutputsSpareInputs();
  std::optional<std::vector<std::string>> PartialRunFiles() const;
  bool Refuse(std::string reason);

  std::unique_ptr<DiskFileSystem> disk_;  // when no file system is given
  FileSystem& files_;
  OpenedProject opened_;
  const SessionOptions& options_;  // opened_'s
  PlanSet plan_set_;
  Report report_;
  bool ran_ = false;
};

}  // namespace capops::workspace
