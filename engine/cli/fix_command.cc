// SPDX-License-Identifier: Apache-2.0
// `--fix` and `--fix-dry-run` (fix_command.h): lint, apply one fix, lint
// again; then write the files back or print their diff. Entry point: RunFix.
#include "engine/cli/fix_command.h"

#include <map>
#include <memory>
#include <set>

#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/common/sha256.h"
#include "engine/repair/repair.h"
#include "engine/report/unified_diff.h"
#include "engine/workspace/output_file.h"

namespace capops::cli {

namespace {

// A file some fix changed: the text the first lint read, and now.
struct Edited {
  std::string path;  // as the lint named it
  std::string original;
  std::string text;
};

class Fixer {
 public:
  Fixer(const CheckOptions& options, workspace::OverlayFileSystem* files)
      : options_(options), files_(files) {}

  /// Applies the first fix of `report` that applies; false when none does.
  bool ApplyOne(const lint::Report& report) {
    for (const Diagnostic& d : report.findings.errors.items()) {
      if (!d.fixes.empty() && Apply(report, d.fixes.front())) return true;
    }
    for (const eval::Violation& v : report.findings.violations) {
      if (!v.suppression && !v.fixes.empty() && Apply(report, v.fixes.front())) return true;
    }
    return false;
  }

  const std::map<std::string, Edited>& edited() const { return edited_; }
  size_t applied() const { return applied_; }

 private:
  bool IsPlanFile(const lint::Report& report, const std::string& path) const {
    std::string absolute = files_->Absolute(path);
    for (const std::string& plan : report.plan_files) {
      if (files_->Absolute(plan) == absolute) return true;
    }
    return false;
  }

  // Applies `fix` (its edits all in one file) to the text the lint read.
  bool Apply(const lint::Report& report, const Fix& fix) {
    if (fix.replacements.empty()) return false;
    FileId file = fix.replacements.front().file;
    for (const Replacement& r : fix.replacements) {
      if (r.file != file || file == kNoFile) return false;
    }
    std::string path(report.sources->Path(file));
    if (!options_.fix_inventory && !IsPlanFile(report, path)) return false;
    std::optional<std::string> now = report.sources->file(file).ReadText();
    if (!now) return false;
    std::string fixed, why;
    if (!ApplyReplacements(*now, fix.replacements, &fixed, &why) || fixed == *now) return false;
    std::string absolute = files_->Absolute(path);
    // A text the file had before would start a cycle of fixes.
    if (!seen_.insert(State(absolute, fixed)).second) return false;
    seen_.insert(State(absolute, *now));
    auto [it, fresh] = edited_.try_emplace(absolute, Edited{path, *now, ""});
    it->second.text = fixed;
    files_->Set(absolute, std::move(fixed));
    ++applied_;
    return true;
  }

  // A file's path and text, as a digest: what a cycle is told by.
  static std::string State(const std::string& path, std::string_view text) {
    return Sha256().Add(path).Add(text).Hex();
  }

  const CheckOptions& options_;
  workspace::OverlayFileSystem* files_;
  std::map<std::string, Edited> edited_;  // by absolute path
  std::set<std::string> seen_;            // each state a file was in (State)
  size_t applied_ = 0;
};

}  // namespace

int RunFix(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.session.write_baseline.empty())
    return Fail(err, "--write-baseline records findings before --fix removes them: run them apart");
  workspace::DiskFileSystem disk;
  workspace::OverlayFileSystem overlay(&disk);
  Fixer fixer(options, &overlay);
  workspace::SessionOptions session_options = options.session;
  session_options.repair_lints = repair::kFixRepairLints;
  session_options.repair_first_only = true;  // one repair is applied a round
  // Each round lints texts that are only ever in memory: none is for the cache.
  session_options.use_cache = false;
  std::unique_ptr<workspace::LintSession> session;
  for (size_t round = 0;; ++round) {
    session = std::make_unique<workspace::LintSession>(session_options, &overlay);
    const lint::Report& report = session->Run();
    if (report.status == lint::Status::kUsage) return FailWith(report, options.color, err);
    if (round == kMaxFixes || !fixer.ApplyOne(report)) break;
  }
  const lint::Report& remaining = session->Run();
  if (options.fix_dry_run) {
    for (const auto& [absolute, e] : fixer.edited())
      out << report::UnifiedDiff(e.path, e.original, e.text);
    return remaining.status == lint::Status::kFindings ? kExitFindings : kExitClean;
  }
  size_t files = 0;
  for (const auto& [absolute, e] : fixer.edited()) {
    if (e.text == e.original) continue;
    std::string error;
    if (!workspace::RewriteFile(absolute, e.original, e.text, &error)) return Fail(err, error);
    ++files;
  }
  if (fixer.applied() > 0) {
    err << "capops-lint: applied " << fixer.applied() << (fixer.applied() == 1 ? " fix" : " fixes")
        << " in " << files << (files == 1 ? " file" : " files") << '\n';
  }
  return WriteCheckReport(remaining, options, out, err);
}

}  // namespace capops::cli
