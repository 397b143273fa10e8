// SPDX-License-Identifier: Apache-2.0
// The fmt command: format each CPL file, rewrite it or report that it would change.
#include "engine/cli/fmt_command.h"

#include <filesystem>

#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/report/report.h"
#include "engine/syntax/formatter.h"
#include "engine/workspace/output_file.h"
#include "engine/workspace/pack_locator.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli {

namespace fs = std::filesystem;

int RunFmt(const FmtOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<fs::path> files;
  std::string error;
  for (const std::string& p : options.paths) {
    if (!workspace::CollectPolicyFiles(workspace::DiskFileSystem(), p, &files, &error))
      return Fail(err, error);
  }
  SourceManager sources;
  int exit_code = kExitClean;
  for (const fs::path& f : files) {
    std::string text;
    if (!workspace::ReadFile(f, &text, &error)) return Fail(err, error);
    FileId id = sources.Add(f.string(), text);
    syntax::FormatResult r = syntax::Format(sources, id);
    if (!r.internal_error.empty()) return Fail(err, r.internal_error);
    if (!r.ok) {
      report::WriteDiagnostics(sources, r.diagnostics, {false, options.color}, err);
      Fail(err, "`" + f.string() + "` does not parse; not formatted");
      exit_code = kExitUsage;
      continue;
    }
    if (r.text == text) continue;
    if (options.check) {
      out << f.string() << '\n';
      if (exit_code == kExitClean) exit_code = kExitFindings;
      continue;
    }
    // Replaced whole or not at all: a full disk never leaves half a policy.
    if (!workspace::WriteFileAtomically(f.string(), r.text, &error)) return Fail(err, error);
    out << "formatted " << f.string() << '\n';
  }
  return exit_code;
}

}  // namespace capops::cli
