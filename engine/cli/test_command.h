// SPDX-License-Identifier: Apache-2.0
// `capops-lint test [--coverage] [--min-coverage N] [--format text|json] [PATH…]`:
// runs the `test` declarations of policy packs (`*_test.cpl` files).
//
// Each test lints its fact files (paths relative to the test file) with the
// packs' rules and checks its expectations; a failing test prints a diff:
// `-` an expectation not met, `+` a finding no `expect` claims, ` ` a finding
// that was expected, `!` a fact or rule error (which always fails a test).
// With --coverage, each rule is covered when it fired in some test and stayed
// quiet in another, and each condition — a `where` clause or the `when` of a
// deny/warn — when it was seen true and false (one only ever true is untested).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/report/lint_report.h"

namespace capops::cli {

struct TestOptions {
  std::vector<std::string> policies;  // files or directories; default: the shipped pack
  bool coverage = false;              // report rule and condition coverage
  double min_coverage = -1;           // percent; fail when rule or condition coverage is below
  report::Format format = report::Format::kText;  // text or JSON
  bool color = false;
};

/// Exit 0 when every test passes (and coverage reaches --min-coverage), 1 when
/// a test fails or coverage is too low, 2 when the policies do not compile or
/// hold no tests (driver.h).
int RunTest(const TestOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
