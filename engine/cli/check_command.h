// SPDX-License-Identifier: Apache-2.0
// `capops-lint [options] PLAN…`: lint plan files against policy packs.
#pragma once

#include <istream>
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
  std::string stdin_filename;         // the name of the plan `-` reads (stdin_plan.h)
  bool stdin_filename_given = false;  // --stdin-filename was given (maybe empty)
  bool fix = false;                   // --fix: apply the fixes, write the plans (fix_command.h)
  bool fix_dry_run = false;           // --fix-dry-run: print the diff of --fix, write nothing
  bool fix_inventory = false;         // --fix-inventory: fixes may edit inventory files
  size_t repair_lints = 4;            // --max-repair-lints: the repair search's lints; 0: none
};

/// Runs the check and returns the exit code (driver.h). A plan `-` is read
/// from `in`, the process's standard input when `process_stdin`.
int RunCheck(const CheckOptions& options, std::istream& in, bool process_stdin, std::ostream& out,
             std::ostream& err);

/// Writes `report` as `options` ask (format, `-o`, the profile to `err`)
/// and returns the exit code for its findings, or kExitUsage when the
/// output cannot be written.
int WriteCheckReport(const lint::Report& report, const CheckOptions& options, std::ostream& out,
                     std::ostream& err);

}  // namespace capops::cli
