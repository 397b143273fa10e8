// SPDX-License-Identifier: Apache-2.0
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
//     - {rule: "CAP-SUP-005", file: "plan.yaml", at: "allocations[a-tune].gpus", facts:
//     "a=a-tune …", statement: "…", content: "…", measure: 4}
//
// An entry also records the finding's measure when its rule states one
// (eval::Violation::measure: how far the timeline step it fired on is past
// its bound, `measure: 4`). The measure is not part of the key, so a number
// that changes does not make a finding new; but a known finding whose
// measure grew is reported again, as worse than the baseline
// (Violation::baseline_measure), while one whose measure shrank or stayed
// stays known. Entries without `measure` (other rules, earlier versions)
// absorb their finding whatever its size.
//
// Entries without `statement` (written by earlier versions) still match, by
// rule, file, fact path and bindings alone, and a warning suggests writing
// the file again. A key listed n times absorbs up to n findings, paired
// largest measure with largest. Paths are relative to the
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
  /// `report->baselined`, but for those whose measure grew past the one
  /// listed: they stay, their baseline_measure set.
  void Filter(eval::LintReport* report, FindingKeys* keys) const;

  size_t size() const;
  /// Entries of the older form, without `statement`.
  size_t legacy_size() const;
  const std::filesystem::path& base_dir() const { return base_dir_; }
  /// After Parse: what the host should say about the file ("" when nothing).
  const std::string& warning() const { return warning_; }

 private:
  // Fingerprint → the measure each of its entries recorded (null: none).
  std::map<std::string, std::vector<Value>> entries_;
  std::map<std::string, size_t> legacy_counts_;  // LegacyFingerprint → how many it absorbs
  std::filesystem::path base_dir_;
  std::string warning_;
};

/// Writes the report's unwaived violations as a baseline (sorted, one per line).
void WriteBaseline(const eval::LintReport& report, FindingKeys* keys, std::ostream& out);

}  // namespace capops::lint
