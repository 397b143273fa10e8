// SPDX-License-Identifier: Apache-2.0
// Linting from a program of your own, as capops-lint does: a config with
// its waivers, then a baseline. Usage: embed CONFIG BASELINE-TO-WRITE
#include <iostream>

#include "engine/report/lint_report.h"
#include "engine/workspace/session.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: embed CONFIG BASELINE\n";
    return 2;
  }
  capops::workspace::SessionOptions options;
  options.config = argv[1];  // its plans, policies, rule severities and waivers

  // First lint: every finding, waived ones flagged.
  capops::workspace::LintSession first(options);
  const capops::lint::Report& all = first.Run();
  if (all.status == capops::lint::Status::kUsage) {
    std::cerr << "cannot lint: " << all.error << " (" << all.problems.size() << " problems)\n";
    return 2;
  }
  size_t waived = 0;
  for (const capops::eval::Violation& v : all.findings.violations)
    waived += v.suppression.has_value();
  std::cout << all.findings.violations.size() << " findings, " << waived << " waived, in "
            << all.plan_files.size() << " plan files\n";

  // Second lint: record the findings as a baseline; only unlisted ones stay
  // (a waived finding is not recorded: the waiver covers it).
  options.write_baseline = argv[2];
  capops::workspace::LintSession again(options);
  const capops::lint::Report& news = again.Run();
  std::cout << news.findings.violations.size() << " new, " << news.findings.baselined
            << " baselined\n";
  capops::report::WriteLintReport(news, capops::report::Format::kShort, {}, std::cout);
  return news.status == capops::lint::Status::kFindings ? 1 : 0;
}
