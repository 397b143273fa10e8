// SPDX-License-Identifier: Apache-2.0
// A lint report (lint/project.h) in each of the formats of
// `capops-lint --format`: the one place that decides what a run's output is.
//
//   const lint::Report& r = session.Run();
//   report::WriteLintReport(r, report::Format::kSarif, {"1.0.0"}, std::cout);
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "engine/lint/project.h"
#include "engine/report/ci_report.h"

namespace capops::report {

/// Every output format of every command; each command admits some.
enum class Format { kText, kShort, kJson, kSarif, kJunit, kGithub, kMarkdown, kHtml };

/// "text", "short", "json", "sarif", "junit", "github", "markdown" or "html"; false
/// for anything else.
bool ParseFormat(std::string_view name, Format* out);

struct LintReportOptions {
  std::string version;   // the tool's version, for JSON, SARIF, JUnit and HTML
  bool explain = false;  // text: evidence and clause traces
  bool color = false;    // text: ANSI colours
};

/// The rules of the report's engine as CI reports list them: disabled and
/// re-graded per the session's rule selection.
std::vector<RuleDescriptor> DescribeRules(const lint::Report& report);

/// Writes the findings of a report whose status is not kUsage, in one of
/// the lint formats (kMarkdown is not one: it is written as text).
void WriteLintReport(const lint::Report& report, Format format, const LintReportOptions& options,
                     std::ostream& out);

}  // namespace capops::report
