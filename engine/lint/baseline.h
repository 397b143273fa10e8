// Baseline: findings recorded as known, so that only new ones are reported.
//
// `--write-baseline FILE` records the run's unwaived violations;
// `--baseline FILE` leaves out every violation the file lists. Entries are
// FindingKeys (rule, file, fact path, bindings, the statement that fired and
// a digest of what its message names: no line numbers), so a finding stays
// known when lines move or unrelated facts change, while another statement
// firing at the same fact, or a message naming more, is a new finding. The
// file is YAML, one entry per line, sorted, so it diffs well in review:
//
//   # capops-lint baseline: known findings; only new ones are reported.
//   findings:
//     - {rule: "CAP-ALC-001", file: "plan.yaml", at: "allocations[a-explore].pool", facts:
//     "a=a-explore", statement: "5d41402abc4b2a76", content: "7d793037a0760186"}
//
// Entries without `statement` (written by earlier versions) still match, by
// rule, file, fact path and bindings alone, and a warning suggests writing
// the file again. A key listed n times absorbs up to n findings. Paths are relative to the
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

#include "engine/eval/result.h"
#include "engine/lint/finding_key.h"

namespace capops::lint {

class Baseline {
 public:
  /// Reads a baseline file already in `sources`; errors mean it must not be used.
  Diagnostics Parse(const SourceManager& sources, FileId file, const facts::LoadOptions& options);

  /// Drops the unwaived violations the baseline lists, counting them in
  /// `report->baselined`.
  void Filter(eval::LintReport* report, FindingKeys* keys) const;

  size_t size() const;
  /// Entries of the older form, without `statement`.
  size_t legacy_size() const;
  const std::filesystem::path& base_dir() const { return base_dir_; }
  /// After Parse: what the host should say about the file ("" when nothing).
  const std::string& warning() const { return warning_; }

 private:
  std::map<std::string, size_t> counts_;         // fingerprint → how many findings it absorbs
  std::map<std::string, size_t> legacy_counts_;  // the same by LegacyFingerprint
  std::filesystem::path base_dir_;
  std::string warning_;
};

/// Writes the report's unwaived violations as a baseline (sorted, one per line).
void WriteBaseline(const eval::LintReport& report, FindingKeys* keys, std::ostream& out);

}  // namespace capops::lint
