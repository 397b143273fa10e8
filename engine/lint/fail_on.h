// SPDX-License-Identifier: Apache-2.0
// --fail-on: which findings make capops-lint exit 1.
//
// A finding fails the run when its severity is at or above the threshold and
// no waiver covers it; `never` makes findings never fail the run (exit 0),
// while errors that stop the tool still exit 2.
#pragma once

#include <string_view>

#include "engine/common/diagnostic.h"
#include "engine/eval/result.h"

namespace capops::lint {

enum class FailOn { kInfo, kWarning, kError, kNever };

/// "error", "warning", "info" or "never"; false for anything else.
bool ParseFailOn(std::string_view name, FailOn* out);
const char* FailOnName(FailOn fail_on);

/// True when an unwaived violation or an error of the report reaches the threshold.
bool Fails(const eval::LintReport& report, FailOn fail_on);
/// Whether a finding of severity `s` fails a run with this `fail_on`.
bool Reaches(Severity s, FailOn fail_on);

}  // namespace capops::lint
