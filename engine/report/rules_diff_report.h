// SPDX-License-Identifier: Apache-2.0
// The output of `rules --diff` (lint/rules_diff.h) as text, JSON or Markdown.
#pragma once

#include <ostream>
#include <string>

#include "engine/lint/rules_diff.h"
#include "engine/report/lint_report.h"

namespace capops::report {

/// How many finding lines text and Markdown show by default (`rules --diff
/// --max-findings N` changes it; 0 shows them all).
constexpr size_t kDefaultMaxDiffFindings = 50;

struct RulesDiffOutput {
  Format format = Format::kText;  // text, JSON or Markdown; any other is written as text
  lint::FailOn fail_on = lint::FailOn::kError;  // says which severity changes fail the run now
  /// Text and Markdown list at most this many findings (0: all) and say how
  /// many they left out; JSON lists them all.
  size_t max_findings = kDefaultMaxDiffFindings;
};

/// Writes the diff: the rules that changed; then the findings — a summary,
/// the counts per rule, and the findings that disappeared (`-`), appeared
/// (`+`), changed severity (`~`), got worse (`>`) or better (`<`), fact by
/// fact in file order.
void WriteRulesDiff(const lint::RulesDiff& rules, const lint::FindingsDiff& findings,
                    const RulesDiffOutput& output, std::ostream& out);

}  // namespace capops::report
