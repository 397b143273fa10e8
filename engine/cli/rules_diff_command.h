// SPDX-License-Identifier: Apache-2.0
// `capops-lint rules --diff OLD NEW [PLAN…]`: the rule set diff of
// lint/rules_diff.h, as a command.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/lint/fail_on.h"
#include "engine/report/lint_report.h"
#include "engine/report/rules_diff_report.h"

namespace capops::cli {

/// `rules --diff`: OLD is a policy file or directory, or `git:REV` for NEW
/// as of git revision REV; NEW a policy file or directory.
struct RulesDiffOptions {
  std::string old_rules;
  std::string new_rules;
  std::vector<std::string> plans;                 // files, directories or globs
  std::vector<std::string> inventories;           // default: each plan's inventory.yaml
  report::Format format = report::Format::kText;  // text, JSON or Markdown
  /// Exit 1 when a finding appears, gets worse, or changed severity so that
  /// it now fails the run under `fail_on`.
  bool fail_on_new = false;
  lint::FailOn fail_on = lint::FailOn::kError;
  size_t max_findings = report::kDefaultMaxDiffFindings;  // text and Markdown; 0: all
};

/// Exit 0 when the diff ran (1 with `fail_on_new` and a new or newly failing
/// finding), 2 when a version cannot be read or does not compile, or a plan
/// cannot be read.
int RunRulesDiff(const RulesDiffOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
