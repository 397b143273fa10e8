// SPDX-License-Identifier: Apache-2.0
// Reports for CI systems: SARIF 2.1.0, JUnit XML and GitHub workflow annotations.
//
// All three take the LintReport of a run (after waivers and baseline) and
// the rule set's descriptors, and write deterministic output:
//
//   SARIF   one run; `tool.driver` with the version and every rule (id, name,
//           help text, default level); results with a physical location,
//           the evidence as related locations, and waived findings carrying
//           a `suppressions` entry (kind external, status accepted, the
//           waiver's justification). Errors (fact files, rule errors,
//           waivers) are results under rule ids `capops/<code>`.
//   JUnit   a <testsuite> per file, a <testcase> per rule in it: failed when
//           the rule has unwaived findings there, with one line per finding;
//           skipped when the rule is disabled.
//   GitHub  `::error file=…,line=…,col=…,title=…::message` lines (notice for
//           info), escaped as the workflow-command syntax requires; waived
//           findings are left out; a last plain summary line.
//
//   std::vector<report::RuleDescriptor> rules = report::DescribeRules(*engine.program(),
//   engine.sources()); report::WriteSarif(engine.sources(), report, rules, {CAPOPS_VERSION},
//   std::cout);
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/check/checker.h"
#include "engine/common/source.h"
#include "engine/eval/result.h"
#include "engine/lint/fail_on.h"

namespace capops::report {

/// What a report says about a rule, whether or not it fired.
struct RuleDescriptor {
  std::string id;
  std::string name;                  // the CPL rule name
  std::string summary;               // first line of its `///` doc, else its name
  std::string help;                  // the doc, then `because` and `fix` of its first deny
  std::vector<std::string> because;  // of each deny/warn that has one, once each
  std::vector<std::string> fix;
  /// The params the rule reads and their values in this run.
  struct Param {
    std::string name, type, value;
  };
  std::vector<Param> params;
  Severity severity = Severity::kError;  // after the config's overrides
  bool enabled = true;                   // false: disabled in the config
  std::string owner;
  std::string source;
  std::vector<std::string> tags;
  SourceLoc loc;  // the rule in the policy
};

/// Descriptors of the program's rules, sorted by id.
std::vector<RuleDescriptor> DescribeRules(const check::Program& program,
                                          const SourceManager& sources);

struct CiOptions {
  std::string version;                  // the tool's version
  std::vector<std::string> plan_files;  // JUnit: a suite for each, even without findings
  /// SARIF: the directory the `%SRCROOT%` base URI stands for (absolute);
  /// files under it are given relative to it. "" for none.
  std::string source_root;
  /// The absolute directory relative paths are against (for source_root).
  std::string working_dir;
  /// SARIF: each violation's identity (the baseline's, relative to
  /// `source_root`), parallel to the report's violations; empty for none.
  std::vector<std::string> fingerprints;
  /// JUnit: the findings that fail the run are failures; the others are
  /// listed as output of their testcase.
  lint::FailOn fail_on = lint::FailOn::kError;
  /// SARIF: the published rule catalogue (`rules-url`): each rule's
  /// `helpUri` is `URL#RULE-ID`, and the tool's `informationUri` is URL.
  std::string rules_url;
  /// SARIF: `automationDetails.id`, the analysis a run belongs to (one per
  /// config file, so code scanning keeps their alerts apart); "" for none.
  std::string automation_id;
};

void WriteSarif(const SourceManager& sources, const eval::LintReport& report,
                const std::vector<RuleDescriptor>& rules, const CiOptions& options,
                std::ostream& out);

void WriteJunit(const SourceManager& sources, const eval::LintReport& report,
                const std::vector<RuleDescriptor>& rules, const CiOptions& options,
                std::ostream& out);

void WriteGithub(const SourceManager& sources, const eval::LintReport& report, std::ostream& out);

/// One line per waived finding, `path:line:col: waived[RULE] message (owner …, until …)`,
/// for the text report (which only counts them in its summary).
void WriteWaivedLines(const SourceManager& sources, const eval::LintReport& report,
                      std::ostream& out);

}  // namespace capops::report
