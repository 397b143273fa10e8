// SPDX-License-Identifier: Apache-2.0
// One lint run: load fact files, validate them, evaluate each plan.
// Internal to engine/api; Engine::Lint is the entry point.
#pragma once

#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/api/engine.h"

namespace capops {

/// How rules run over `facts`: `eval` with its step budget (max_steps)
/// counted per MiB of the fact files, started MiBs rounded up
/// (Facts::file_bytes; at least one). The one budget of a lint, a why-not
/// and an eval over the same files.
eval::EvalOptions RunBudget(eval::EvalOptions eval, const eval::Facts& facts);

class LintRun {
 public:
  /// `eval` is how rules are evaluated; rules in `skip_rules` are not.
  LintRun(const check::Program& program, const eval::ParamValues& params, const std::string& digest,
          const EngineOptions& options, eval::EvalOptions eval, std::set<std::string> skip_rules,
          SourceManager* sources);

  /// Appends the facts of each plan evaluated to `*out` (LintOptions::facts).
  void KeepFacts(std::vector<PlanFacts>* out) { keep_facts_ = out; }
  /// Loads every document of the files (in parallel). A CapacityPlan in an
  /// inventory file is refused.
  void Load(std::vector<TextFile> inventories, std::vector<TextFile> plans);
  /// Validates, merges the inventories, evaluates each valid plan; sorts the
  /// report. With `first_plan`, also gives the facts of the first plan as
  /// FirstPlanFacts does.
  eval::LintReport Finish(eval::Facts* first_plan = nullptr);
  /// Validates and merges, then gives the facts of the first plan (an empty
  /// plan when none was loaded) without evaluating any rule. False when the
  /// facts have errors, which are in `*problems`.
  bool FirstPlanFacts(eval::Facts* facts, Diagnostics* problems);

 private:
  void FillFirstPlan(eval::Facts* facts) const;
  void Accept(FileId file, facts::LoadResult loaded, bool is_plan_file);
  void Validate();
  size_t jobs() const;
  void MergeInventories();
  std::pair<const Value*, bool> InventoryFor(FileId plan_file) const;
  const std::vector<uint32_t>& InventoryUnlisted(FileId plan_file) const;
  bool ReadyToEvaluate(size_t index, eval::Facts* facts);
  void EvaluatePlans();
  void SortAndDedupe();
  void NameLabels();
  void PointAtAnchors();
  /// The merge whose copy of the value at `v.loc` the finding is about, or
  /// null (not merged, or the value where it is written).
  const facts::MergeSite* CopyOf(const eval::Violation& v) const;

  const check::Program& program_;
  const eval::ParamValues& params_;
  const EngineOptions& options_;
  const eval::EvalOptions eval_;
  const std::set<std::string> skip_rules_;
  SourceManager* sources_;
  eval::LintReport report_;
  std::vector<PlanFacts>* keep_facts_ = nullptr;
  std::vector<facts::Document> documents_;
  std::vector<size_t> plans_;  // indexes of CapacityPlan documents
  std::vector<char> valid_;    // per document: matches the schema (char: written by threads)
  std::vector<std::vector<uint32_t>> unlisted_;  // per document: records a misspelt list hid
  Value inventory_;                              // merged from the inventory files
  bool inventory_valid_ = true;
  std::set<FileId> plan_files_;
  std::map<FileId, Value>
      own_inventory_;  // plan files with `Inventory` documents: theirs merged in
  std::map<FileId, bool> own_valid_;
  std::set<FileId> without_inventory_;                    // plan files given no `Inventory` at all
  std::vector<uint32_t> inventory_unlisted_;              // of the inventory files' documents
  std::map<FileId, std::vector<uint32_t>> own_unlisted_;  // those and the plan file's own
  uint64_t fact_bytes_ = 0;                               // of every file loaded
  // Values used through an alias, by where they are used.
  std::map<std::tuple<FileId, uint32_t, uint32_t>, facts::AliasUse> alias_uses_;
  // Every merge by `<<`, and the values merged in, by where they are written
  // (the index of each merge of one).
  std::vector<facts::MergeSite> merges_;
  std::multimap<std::tuple<FileId, uint32_t, uint32_t>, size_t> merged_;
};

}  // namespace capops
