// SPDX-License-Identifier: Apache-2.0
// `rules --diff OLD NEW [PLAN…]`: a rules-diff session (lint/rules_diff.h),
// its report, and the exit code. Entry point: RunRulesDiff.
#include "engine/cli/rules_diff_command.h"

#include <algorithm>

#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/report/report.h"
#include "engine/report/rules_diff_report.h"
#include "engine/workspace/rules_diff_session.h"

namespace capops::cli {

int RunRulesDiff(const RulesDiffOptions& options, std::ostream& out, std::ostream& err) {
  workspace::RulesDiffSession session;
  const workspace::RulesDiffResult& r =
      session.Run({options.old_rules, options.new_rules, options.plans, options.inventories});
  if (!r.ok) {
    if (!r.problems.empty())
      report::WriteDiagnostics(*r.problem_sources, r.problems, {false, false}, err);
    return Fail(err, r.error);
  }
  report::WriteRulesDiff(r.rules, r.findings,
                         {options.format, options.fail_on, options.max_findings}, out);
  if (!options.fail_on_new) return kExitClean;
  bool now_fails = std::any_of(
      r.findings.severity_changed.begin(), r.findings.severity_changed.end(),
      [&](const lint::DiffFinding& f) { return lint::VerdictChange(f, options.fail_on) > 0; });
  bool new_findings = !r.findings.appeared.empty() || !r.findings.worse.empty() || now_fails;
  return new_findings ? kExitFindings : kExitClean;
}

}  // namespace capops::cli
