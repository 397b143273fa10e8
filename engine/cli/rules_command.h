// SPDX-License-Identifier: Apache-2.0
// `capops-lint rules [--digest] [--canonical] [--format text|json|markdown] [PATH…]`:
// the rule catalogue of policy packs — id, name, severity, owner, tags,
// source, where it is defined and the params it reads with their values —
// or, with --digest, only the ruleset digest (the one every JSON and SARIF
// report carries), or with --canonical the text that digest hashes.
//
// `rules --diff OLD NEW [PLAN…] [--inventory FILE]… [--fail-on-new]`
// compares two versions of a rule set (rules_diff.h): rules added, removed
// and changed, and the findings that appear and disappear over both
// versions' test fixtures and the plans given. OLD and NEW are policy files
// or directories; OLD may instead be `git:REV`, NEW as of git revision REV.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/report/lint_report.h"
#include "engine/report/rules_diff_report.h"

namespace capops::cli {

struct RulesOptions {
  std::vector<std::string> policies;  // files or directories; default: the shipped pack
  bool digest = false;
  bool canonical = false;
  report::Format format = report::Format::kText;          // text, JSON or Markdown
  std::vector<std::string> diff;                          // OLD and NEW: then `policies` are plans
  std::vector<std::string> inventories;                   // for the plans of a diff
  bool fail_on_new = false;                               // a diff exits 1 when a finding appears
  std::string fail_on = "error";                          // for a diff: which severities fail a run
  size_t max_findings = report::kDefaultMaxDiffFindings;  // findings a diff lists; 0: all
};

/// Exit 0, or 2 when the policies do not compile (driver.h); a diff exits
/// 1 with `fail_on_new` when a finding appears.
int RunRules(const RulesOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
