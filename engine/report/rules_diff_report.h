// SPDX-License-Identifier: Apache-2.0
// The output of `rules --diff` (lint/rules_diff.h) as text, JSON or Markdown.
#pragma once

#include <ostream>
#include <string>

#include "engine/lint/rules_diff.h"
#include "engine/report/lint_report.h"

namespace capops::report {

/// Writes the diff as text, JSON or Markdown (for a pull-request comment);
/// any other format is written as text.
void WriteRulesDiff(const lint::RulesDiff& rules, const lint::FindingsDiff& findings, Format format,
                    std::ostream& out);

}  // namespace capops::report
