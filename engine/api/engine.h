// SPDX-License-Identifier: Apache-2.0
// capops::Engine — the library's front door: compile a rule set, lint facts.
//
// The engine does no I/O: callers hand it file paths and texts (the CLI reads
// the disk; an editor integration can pass unsaved buffers). It owns every
// text it was given, so reports can quote source lines.
//
//   capops::Engine engine;
//   engine.AddPolicy("stdlib/capops.cpl", stdlib_text);
//   engine.AddPolicy("policies/capops-ai/allocation.cpl", pack_text);
//   Diagnostics policy_errors;
//   if (!engine.Compile(&policy_errors)) …            // exit code 2
//   eval::LintReport r = engine.Lint({{"plan.yaml", plan_text}},
//                                    {{"inventory.yaml", inventory_text}});
//
// Lint() reads the CapacityPlan documents of the plan files and the Inventory
// documents of all files (the inventories merge), then evaluates every rule
// once per plan document. Problems in the YAML are errors in the report, not
// exceptions.
//
// Threads: Compile, SetParam, SetRuleParam, AddPolicy, AddSource and options() change the
// engine: call them while nothing else runs. Once compiled, Lint with
// its own SourceManager (and every const member) may be called from any
// number of threads at once; the other members add to the engine's own
// sources and must not overlap any call.
//
// A fact file read from disk may come with the FileStamp of what was read
// (TextFile::stamp). Once its documents are loaded, such a file of at least
// EngineOptions::release_text_bytes (by default, none) gives its text
// back, and the report reads the lines it quotes from the file again; if
// the file changed on disk in between, those quotes are left out
// (source.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/api/param_setting.h"
#include "engine/api/policy_test.h"
#include "engine/check/checker.h"
#include "engine/common/source.h"
#include "engine/eval/evaluator.h"
#include "engine/facts/loader.h"
#include "engine/syntax/parser.h"

namespace capops {

struct EngineOptions {
  syntax::ParseOptions parse;
  facts::LoadOptions facts;
  eval::EvalOptions eval;
  /// Run rules planned (engine/plan: joins, invariant expressions once,
  /// hoisted clauses); false runs them as written. Same findings either way.
  bool optimize = true;
  /// Threads for loading, validating and evaluating (files, plans and
  /// rules run in parallel); 0: the cores available. The report is the
  /// same, byte for byte, for any number.
  size_t jobs = 0;
  /// Fact files with a stamp and at least this many bytes drop their text
  /// once loaded (source.h: SourceFile::ReleaseText); policy files and
  /// texts without a stamp are always kept. By default none is dropped: a
  /// dropped text is read back from disk for quotes, and SourceFile::text()
  /// refuses it, which suits a one-shot lint of huge files (capops-lint
  /// drops from 1 MiB) and not a program that holds the sources.
  size_t release_text_bytes = SIZE_MAX;
};

/// The facts of one plan document that a lint evaluated (valid ones only).
struct PlanFacts {
  SourceLoc document;  // where the plan document starts
  eval::Facts facts;   // the plan and the inventory it was linted against
};

/// What one Lint call asks for beyond the engine's options.
struct LintOptions {
  /// Record each violation's clause trace (`--explain`).
  bool trace = false;
  /// Ids of rules not evaluated (a config disabled them): they find
  /// nothing and cost nothing.
  std::set<std::string> skip_rules;
  /// When set, every `where`/`when` outcome is counted there (policy test
  /// coverage); the rules then run on one thread.
  eval::Coverage* coverage = nullptr;
  /// When set, what each rule costs is added there (`--profile`); the
  /// rules then run one at a time, each alone.
  eval::Profile* profile = nullptr;
  /// When set, the facts of each plan evaluated are appended there (for
  /// reports that draw them); they share the loaded values, copying nothing.
  std::vector<PlanFacts>* facts = nullptr;
};

/// A file given to the engine by path and content, with the stamp of the
/// file on disk the content was read from, if any.
struct TextFile {
  std::string path;
  std::string text;
  std::optional<FileStamp> stamp = std::nullopt;
};

class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();

  /// Adds a policy source; call before Compile().
  void AddPolicy(std::string path, std::string text);
  /// Parses and checks every policy added. False when there are errors, all
  /// of which are appended to `diagnostics` (sorted).
  bool Compile(Diagnostics* diagnostics);

  /// Lints plan files against the inventory files. Requires a successful
  /// Compile(). The fact files are added to `*sources`, which must extend
  /// this engine's sources() (`SourceManager facts(&engine.sources())`):
  /// the report's locations are in it. Any number of these calls may run
  /// at once on one engine, each with its own `sources`.
  eval::LintReport Lint(std::vector<TextFile> plans, std::vector<TextFile> inventories,
                        const LintOptions& lint, SourceManager* sources) const;
  /// The same, adding the fact files to the engine's own sources (for a
  /// program that lints once; not while another call runs).
  eval::LintReport Lint(std::vector<TextFile> plans, std::vector<TextFile> inventories,
                        const LintOptions& lint = {});

  /// The facts of the first plan among `plans` with the merged inventory,
  /// validated, their files added to `sources` (an extension of this
  /// engine's, as for Lint; any thread), with the size of all the files
  /// (Facts::file_bytes: the lint's step budget for them). False (and
  /// `*problems` filled) when they have errors.
  bool LoadFacts(const std::vector<TextFile>& plans, const std::vector<TextFile>& inventories,
                 eval::Facts* facts, Diagnostics* problems, SourceManager* sources) const;
  /// The same into the engine's own sources (for a program that asks once).
  bool LoadFacts(const std::vector<TextFile>& plans, const std::vector<TextFile>& inventories,
                 eval::Facts* facts, Diagnostics* problems) {
    return LoadFacts(plans, inventories, facts, problems, &sources_);
  }

  struct ExpressionResult {
    bool compiled = false;  // false: `diagnostics` says why
    Diagnostics diagnostics;
    std::string type;  // the static type, as a user writes it
    Value value;       // may be an error value
    std::vector<eval::TraceValue> trace;
    eval::TraceStep AsTraceStep() const;  // the whole expression as one traced clause
    SourceLoc loc;                        // where the expression starts
    std::string text;
  };
  /// Type-checks and evaluates one expression against `facts` (`capops-lint
  /// eval`), its text added to `sources` (which holds the facts' files),
  /// within the step budget a lint of those facts has. Checking may add types to the compiled
  /// program: not while another call runs.
  ExpressionResult EvaluateExpression(std::string text, const eval::Facts& facts, bool trace,
                                      SourceManager* sources);
  ExpressionResult EvaluateExpression(std::string text, const eval::Facts& facts, bool trace) {
    return EvaluateExpression(std::move(text), facts, trace, &sources_);
  }

  /// Why rule `rule_id` did or did not fire for the fact `focus` selects
  /// (for every binding when `focus` is empty; the first `max_outcomes`
  /// paths: eval::WhyNot), in facts whose files are in `sources` (any
  /// thread), within the step budget a lint of those facts has. nullopt
  /// when no such rule exists.
  std::optional<eval::WhyNotResult> WhyNot(const std::string& rule_id, const eval::Facts& facts,
                                           const std::function<bool(const Value&)>& focus,
                                           const SourceManager& sources,
                                           size_t max_outcomes = eval::kWhyNotOutcomes) const;
  std::optional<eval::WhyNotResult> WhyNot(const std::string& rule_id, const eval::Facts& facts,
                                           const std::function<bool(const Value&)>& focus,
                                           size_t max_outcomes = eval::kWhyNotOutcomes) const {
    return WhyNot(rule_id, facts, focus, sources_, max_outcomes);
  }

  /// The `test` declarations of the compiled policies, in file order.
  std::vector<PolicyTest> Tests() const;
  /// Lints `plans` and `inventories` (the test's facts, read by the caller)
  /// and judges the test's expectations. With `coverage`, every `where`
  /// outcome is also counted there. Requires a successful Compile(); adds
  /// the facts to `sources` (an extension of this engine's; any thread,
  /// without `coverage`).
  PolicyTestResult RunTest(const PolicyTest& test, const std::vector<TextFile>& plans,
                           const std::vector<TextFile>& inventories, eval::Coverage* coverage,
                           SourceManager* sources) const;
  /// The same into the engine's own sources.
  PolicyTestResult RunTest(const PolicyTest& test, const std::vector<TextFile>& plans,
                           const std::vector<TextFile>& inventories, eval::Coverage* coverage) {
    return RunTest(test, plans, inventories, coverage, &sources_);
  }

  /// Sets a param from outside (a config file) for every rule that reads
  /// it: `name` is `package.name` or, when unambiguous, the bare name;
  /// `value` is checked against the param's type (diagnostics at the
  /// value's location); `source` says where it was set. The ruleset digest
  /// follows. False with located `*problems`.
  bool SetParam(const std::string& name, const Value& value, Diagnostics* problems,
                ParamSource source = {});
  /// Sets a param for rule `rule_id` alone (a per-rule config value): the
  /// rule, and the functions it calls, read `value`; the other rules keep
  /// theirs. `name` (bare or qualified) must be a param the rule reads
  /// (check::RuleInfo::params). The digest follows. False with located
  /// `*problems`: an unknown rule or param, a param the rule does not read,
  /// a value of the wrong type.
  bool SetRuleParam(const std::string& rule_id, const std::string& name, const Value& value,
                    Diagnostics* problems, ParamSource source = {});

  /// Current param values for rules without values of their own, in
  /// Program::params order.
  const std::vector<Value>& params() const { return values_.values(); }
  /// What each rule reads, its own values included.
  const eval::ParamValues& param_values() const { return values_; }
  /// The current value of the param `name` (`package.name` or, when
  /// unambiguous, the bare name), or null when no single param has it.
  const Value* Param(const std::string& name) const;
  /// Each param's value for rules without values of their own, and where it
  /// was set, in Program::params order; empty before Compile().
  const std::vector<ParamSetting>& param_settings() const { return settings_; }
  /// The values set for single rules (ParamSource::Level::kRule), by rule
  /// id, then in Program::params order.
  std::vector<ParamSetting> RuleParamSettings() const;
  /// What rule `rule` (an index into Program::rules) reads: one setting per
  /// param of check::RuleInfo::params, in that order, its own value where
  /// it has one.
  std::vector<ParamSetting> SettingsRead(size_t rule) const;
  /// Names on each violation of `report` the params its rule reads, with
  /// their values and where they were set (eval::Violation::params). Lint
  /// does it; a caller with findings from elsewhere (a result cache) calls it.
  /// With `shown` (an extension of sources()), a pack default's policy file
  /// is named by its SourceManager::ShownPath.
  void NameParams(eval::LintReport* report, const SourceManager* shown = nullptr) const;

  /// The compiled rule set, or null before a successful Compile().
  const check::Program* program() const { return program_.get(); }
  /// How its rules run (plan.h), or null before a successful Compile().
  const plan::ProgramPlan* plan() const { return plan_.get(); }
  /// "sha256:<hex>" over the canonical form of the compiled modules and the
  /// current param values: unchanged by layout, comments, doc comments, file
  /// names and policy tests; changed by any semantic edit. Empty before Compile().
  const std::string& ruleset_digest() const { return digest_; }
  /// The canonical text the digest hashes (without the param values), for
  /// inspecting what a digest covers; empty before Compile().
  std::string CanonicalForm() const;
  const SourceManager& sources() const { return sources_; }
  /// Reports name policy file `id` as `shown` (SourceManager::ShownPath),
  /// such as its path in its pack (lint::PackPath) for an installed pack.
  void ShowPolicyPath(FileId id, std::string shown) { sources_.Show(id, std::move(shown)); }
  /// Adds a file that is not linted itself (a waivers or baseline file, or
  /// a fact file whose findings come from the cache) so that a report can
  /// point into it. One with a stamp and at least release_text_bytes is
  /// held like a linted fact file: its lines are read back from disk.
  FileId AddSource(std::string path, std::string text,
                   std::optional<FileStamp> stamp = std::nullopt);
  /// The same into `sources`, an extension of this engine's (Lint).
  FileId AddSource(SourceManager* sources, std::string path, std::string text,
                   std::optional<FileStamp> stamp = std::nullopt) const;
  /// Engine-wide settings (limits, threads, planning). Change them only
  /// while no call runs; what differs from one lint to the next goes in
  /// LintOptions.
  EngineOptions& options() { return options_; }
  const EngineOptions& options() const { return options_; }

 private:
  /// The indexes of the params `name` names, and each param's qualified name.
  std::vector<size_t> ParamsNamed(const std::string& name,
                                  std::vector<std::string>* qualified) const;
  /// The index of the param `name` (bare or qualified) names, or nullopt
  /// with a located problem at `at` (with a did-you-mean).
  std::optional<size_t> ParamIndex(const std::string& name, const SourceLoc& at,
                                   Diagnostics* problems) const;
  /// Applies a policy test's `param` settings to `*values`; false with the
  /// problems in `*errors`.
  bool TestParams(const PolicyTest& test, SourceManager* sources, eval::ParamValues* values,
                  std::vector<std::string>* errors) const;
  /// `value` checked against param `param`'s type, or false with `*problems`.
  bool CheckParamValue(size_t param, const Value& value, Value* checked,
                       Diagnostics* problems) const;
  /// The settings of the pack's defaults (after Compile).
  void DefaultSettings();
  /// values_, the params each rule's findings name and the digest, after a
  /// setting changed.
  void SettingsChanged();
  /// What the findings of rule `rule` name of its params (null: none), the
  /// policy files by their ShownPath in `shown` when it is given.
  std::shared_ptr<const std::vector<eval::ParamUse>> ParamUses(size_t rule,
                                                               const SourceManager* shown) const;
  void CheckRegexLiterals(Diagnostics* diagnostics) const;
  /// How rules are evaluated in a call: the engine's options with the plan
  /// and the call's choices.
  eval::EvalOptions EvalOptionsFor(const LintOptions& lint) const;

  EngineOptions options_;
  SourceManager sources_;
  std::vector<FileId> policy_files_;
  std::unique_ptr<check::Program> program_;
  std::unique_ptr<plan::ProgramPlan> plan_;
  std::vector<ParamSetting> settings_;  // one per Program::params
  /// Values for single rules, by (rule index, param index).
  std::map<std::pair<size_t, size_t>, ParamSetting> rule_settings_;
  eval::ParamValues values_;  // what each rule reads, made from the settings
  /// By rule id: the params its findings name (NameParams).
  std::map<std::string, std::shared_ptr<const std::vector<eval::ParamUse>>, std::less<>>
      param_uses_;
  std::string digest_;

  void ComputeDigest();
};

}  // namespace capops
