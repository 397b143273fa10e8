// SPDX-License-Identifier: Apache-2.0
// What each rule cost in a lint run (`capops-lint --profile`), as a table
// for people or as JSON for tools, most costly rule first.
//
//   report::WriteProfile(*report.profile, report::ProfileFormat::kText, err);
#pragma once

#include <ostream>

#include "engine/eval/result.h"

namespace capops::report {

enum class ProfileFormat { kText, kJson };

/// Rules by wall time, most costly first (ties by id): per rule its time
/// and share of the total, evaluations, steps, items visited, join-index
/// probes and the items they picked, bytes of values built, findings.
void WriteProfile(const eval::Profile& profile, ProfileFormat format, std::ostream& out);

}  // namespace capops::report
