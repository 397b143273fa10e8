// SPDX-License-Identifier: Apache-2.0
// Waivers: accepted findings, each with an owner, a reason and an expiry.
//
// A waivers file (`waivers:` in the config, or `--waivers FILE`):
//
//   waivers:
//     - rule: CAP-ALC-001
//       file: examples/visual-inspection/plan.yaml   # glob, relative to this file
//       target: a-explore        # optional: a fact id among the finding's
//                                # bindings, or a fact path (`allocations[a-explore]`)
//       owner: reliability-lead
//       reason: spare pool lent to exploration until the Q2 hardware arrives
//       expires: 2027-01-31      # the last day it applies
//
// A waived violation stays in the report, marked with a Suppression (owner,
// reason, expiry, the waiver's place) and is never counted toward failure.
// A waiver past its expiry no longer applies and is reported (a warning at
// its `expires`); one that matched no finding is reported as stale (a
// warning at its entry). An entry without `rule`, `file`, `owner`, `reason` or
// `expires`, or with an unknown key, is rejected with a located error: the
// command exits 2.
//
//   Waivers w;
//   Diagnostics problems = w.Parse(sources, file, facts_options);
//   if (problems.HasErrors()) … exit 2
//   w.Apply(&report, &keys, today);
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/eval/result.h"
#include "engine/lint/finding_key.h"
#include "engine/lint/map_reader.h"

namespace capops::lint {

struct Waiver {
  LocatedString rule;
  LocatedString file;    // a glob, relative to the waivers file's directory
  LocatedString target;  // optional
  LocatedString owner;
  LocatedString reason;
  int64_t expires = 0;  // days since 1970-01-01
  SourceLoc expires_loc;
  SourceLoc loc;  // the entry
};

class Waivers {
 public:
  /// Reads a waivers file already in `sources`. Returns its problems (errors
  /// mean the file must not be used); the valid entries are kept either way.
  Diagnostics Parse(const SourceManager& sources, FileId file, const facts::LoadOptions& options);

  /// Marks the violations a live waiver covers and appends warnings for
  /// expired and stale waivers to `report->errors` (then sorts them).
  /// `keys` must have the same base directory as the waivers file; `today`
  /// is in days since 1970-01-01 (UTC). `partial_files`, when given, are
  /// the fact files of a run that linted only some of the plans the waivers
  /// are for (pre-commit passes the changed files): a waiver whose `file`
  /// matches none of them was not put to the test, so it is not called
  /// stale.
  void Apply(eval::LintReport* report, FindingKeys* keys, int64_t today,
             const std::vector<std::string>* partial_files = nullptr) const;

  const std::vector<Waiver>& entries() const { return entries_; }
  /// The directory finding paths are taken relative to.
  const std::filesystem::path& base_dir() const { return base_dir_; }

 private:
  std::vector<Waiver> entries_;
  std::filesystem::path base_dir_;
};

/// True when `waiver` selects the finding with key `key` (its file, target).
bool WaiverMatches(const Waiver& waiver, const FindingKey& key);

/// Today's date in UTC, in days since 1970-01-01.
int64_t TodayUtc();

}  // namespace capops::lint
