// SPDX-License-Identifier: Apache-2.0
// RulesDiffSession: `capops-lint rules --diff OLD NEW [PLAN…]` — both
// versions of a rule set read (from directories or git revisions) and
// compiled, the fact sets both lint gathered, and the diff of
// lint/rules_diff.h made over them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/lint/rules_diff.h"
#include "engine/workspace/git_snapshot.h"

namespace capops::workspace {

using lint::FindingsDiff;
using lint::RulesDiff;

struct RulesDiffRequest {
  std::string old_rules;
  std::string new_rules;
  std::vector<std::string> plans;        // files, directories or globs
  std::vector<std::string> inventories;  // default: each plan's inventory.yaml
};

struct RulesDiffResult {
  bool ok = false;  // false: `problems` (in `problem_sources`) and `error` say why
  Diagnostics problems;
  const SourceManager* problem_sources = nullptr;
  std::string error;
  RulesDiff rules;
  FindingsDiff findings;
};

/// Reads and compiles both versions (checking OLD out of git when asked),
/// gathers the fact sets both will lint — their policy tests' fixtures,
/// each distinct set once, and the plans given — and diffs rules and
/// findings. The result refers to the session's engines.
class RulesDiffSession {
 public:
  RulesDiffSession();
  ~RulesDiffSession();
  const RulesDiffResult& Run(const RulesDiffRequest& request);

  struct Version;

 private:
  std::unique_ptr<GitSnapshot> snapshot_;
  std::unique_ptr<Version> old_version_, new_version_;
  RulesDiffResult result_;
};

}  // namespace capops::workspace
