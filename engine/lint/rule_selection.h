// SPDX-License-Identifier: Apache-2.0
// RuleSelection: the config's `rules:` section applied to a compiled rule set.
//
// `enable` (if given: only these rules run) and `disable` take rule ids, id
// globs (`CAP-ALC-*`) and `tag:NAME` (a rule annotated `@NAME` or
// `@tag("NAME")`); `severity` replaces a rule's severity. A selector that
// names no rule is a located error with a did-you-mean: a typo must not
// quietly keep a rule on. Disabled rules are not evaluated
// (LintOptions::skip_rules = disabled()); Apply() re-grades the findings
// and takes out any a disabled rule still has (from a report made without
// skipping).
//
//   Diagnostics problems;
//   RuleSelection s = RuleSelection::Make(config, *engine.program(), &problems);
//   if (problems.HasErrors()) … exit 2
//   LintOptions lint;  lint.skip_rules = s.disabled();
//   … lint …
//   s.Apply(&report);
#pragma once

#include <map>
#include <set>
#include <string>

#include "engine/check/checker.h"
#include "engine/eval/result.h"
#include "engine/lint/config.h"

namespace capops::lint {

class RuleSelection {
 public:
  /// Everything enabled, nothing re-graded.
  RuleSelection() = default;
  static RuleSelection Make(const Config& config, const check::Program& program,
                            Diagnostics* diags);

  bool enabled(const std::string& rule_id) const { return disabled_.count(rule_id) == 0; }
  /// A rule's severity after the config's overrides (`declared` if none).
  Severity SeverityOf(const std::string& rule_id, Severity declared) const;
  size_t enabled_count() const { return total_ - disabled_.size(); }
  const std::set<std::string>& disabled() const { return disabled_; }

  /// Removes disabled rules' violations and rule errors, applies the
  /// severity overrides, and sets `report->rules` to the enabled count.
  void Apply(eval::LintReport* report) const;

 private:
  std::set<std::string> disabled_;
  std::map<std::string, Severity> severity_;
  size_t total_ = 0;
};

/// True when `selector` (an id, an id glob or `tag:NAME`) names `rule`.
bool SelectorMatches(std::string_view selector, const check::RuleInfo& rule);

}  // namespace capops::lint
