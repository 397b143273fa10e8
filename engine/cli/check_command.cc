// SPDX-License-Identifier: Apache-2.0
// The check command: a lint session (workspace/session.h), its report written
// in the format asked for, and its status as the exit code.
#include "engine/cli/check_command.h"

#include <sstream>

#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/cli/fix_command.h"
#include "engine/cli/stdin_plan.h"
#include "engine/repair/repair.h"
#include "engine/report/profile_report.h"
#include "engine/report/report.h"
#include "engine/workspace/output_file.h"

namespace capops::cli {

int RunCheck(const CheckOptions& options, std::istream& in, bool process_stdin, std::ostream& out,
             std::ostream& err) {
  if (options.fix || options.fix_dry_run) {
    for (const std::string& plan : options.session.plans) {
      if (plan == "-")
        return Fail(err, std::string(options.fix ? "--fix" : "--fix-dry-run") +
                             " cannot write back a plan read from standard input (`-`): name "
                             "the plan file instead");
    }
    return RunFix(options, out, err);
  }
  workspace::SessionOptions session_options = options.session;
  // The capacity repairs are searched for only where the report shows them
  // (`= fix:` and `= help:` lines, JSON and SARIF, the HTML report's
  // cards and ghost bars): each is proved by a relint.
  bool shows_repairs =
      options.format == report::Format::kText || options.format == report::Format::kJson ||
      options.format == report::Format::kSarif || options.format == report::Format::kHtml;
  session_options.repair_lints = shows_repairs ? options.repair_lints : 0;
  StdinPlan stdin_plan;
  std::string error;
  if (!TakeStdinPlan(&session_options.plans, options.stdin_filename, options.stdin_filename_given,
                     in, process_stdin, session_options.engine.facts.max_file_bytes, &stdin_plan,
                     &error))
    return Fail(err, error);
  // The plan from standard input is a buffer over the disk, at its name.
  workspace::DiskFileSystem disk;
  workspace::OverlayFileSystem overlay(&disk);
  workspace::FileSystem* files = &disk;
  if (stdin_plan.used) {
    overlay.Set(stdin_plan.name, std::move(stdin_plan.text));
    files = &overlay;
  }
  workspace::LintSession session(std::move(session_options), files);
  const lint::Report& report = session.Run();
  if (report.status == lint::Status::kUsage) return FailWith(report, options.color, err);
  return WriteCheckReport(report, options, out, err);
}

int WriteCheckReport(const lint::Report& report, const CheckOptions& options, std::ostream& out,
                     std::ostream& err) {
  std::string error;
  report::LintReportOptions render{CAPOPS_VERSION, options.session.trace, options.color};
  const std::string& output = options.session.output;
  if (output.empty()) {
    report::WriteLintReport(report, options.format, render, out);
  } else {
    std::ostringstream text;
    report::WriteLintReport(report, options.format, render, text);
    if (!workspace::WriteFileAtomically(output, text.str(), &error)) return Fail(err, error);
  }
  if (report.profile) {
    out.flush();  // the report first, wherever the two streams go
    report::WriteProfile(
        *report.profile,
        options.profile == "json" ? report::ProfileFormat::kJson : report::ProfileFormat::kText,
        err);
  }
  return report.status == lint::Status::kFindings ? kExitFindings : kExitClean;
}

}  // namespace capops::cli
