// `capops-lint [options] PLAN…`: lint plan files against policy packs.
#pragma once

#include <ostream>

#include "engine/lint/session.h"
#include "engine/report/lint_report.h"

namespace capops::cli {

struct CheckOptions {
  lint::SessionOptions session;  // what to lint and how (session.output: -o)
  report::Format format = report::Format::kText;
  bool color = false;
};

/// Runs the check and returns the exit code (driver.h).
int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
