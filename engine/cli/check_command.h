// `capops-lint [options] PLAN…`: lint plan files against policy packs.
#pragma once

#include <ostream>

#include "engine/report/lint_report.h"
#include "engine/workspace/session.h"

namespace capops::cli {

struct CheckOptions {
  workspace::SessionOptions session;  // what to lint and how (session.output: -o)
  report::Format format = report::Format::kText;
  bool color = false;
  /// `--profile[=text|json]`: after the report, what each rule cost, to
  /// stderr; "" for none.
  std::string profile;
};

/// Runs the check and returns the exit code (driver.h).
int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
