// Baseline: findings recorded as known, so that only new ones are reported.
//
// `--write-baseline FILE` records the run's unwaived violations;
// `--baseline FILE` leaves out every violation the file lists. Entries are
// FindingKeys (rule, file, fact path, bindings: no line numbers), so a
// finding stays known when lines move or unrelated facts change. The file is
// YAML, one entry per line, sorted, so it diffs well in review:
//
//   # capops-lint baseline: known findings; only new ones are reported.
//   findings:
//     - {rule: "CAP-ALC-001", file: "plan.yaml", at: "allocations[a-explore].pool", facts:
//     "a=a-explore"}
//
// A key listed n times absorbs up to n findings. Paths are relative to the
// baseline file's directory. Rule errors and fact-file errors are never
// baselined: a rule that cannot be evaluated must not pass silently.
//
//   Baseline b;
//   Diagnostics problems = b.Parse(sources, file, facts_options);
//   b.Filter(&report, &keys);          // keys based at b.base_dir()
//   WriteBaseline(report, &keys, out);
#pragma once

#include <filesystem>
#include <map>
#include <ostream>
#include <string>

#include "engine/cli/finding_key.h"
#include "engine/eval/result.h"

namespace capops::cli {

class Baseline {
 public:
  /// Reads a baseline file already in `sources`; errors mean it must not be used.
  Diagnostics Parse(const SourceManager& sources, FileId file, const facts::LoadOptions& options);

  /// Drops the unwaived violations the baseline lists, counting them in
  /// `report->baselined`.
  void Filter(eval::LintReport* report, FindingKeys* keys) const;

  size_t size() const;
  const std::filesystem::path& base_dir() const { return base_dir_; }

 private:
  std::map<std::string, size_t> counts_;  // fingerprint → how many findings it absorbs
  std::filesystem::path base_dir_;
};

/// Writes the report's unwaived violations as a baseline (sorted, one per line).
void WriteBaseline(const eval::LintReport& report, FindingKeys* keys, std::ostream& out);

}  // namespace capops::cli
