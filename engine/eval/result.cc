// SPDX-License-Identifier: Apache-2.0
// The one order of findings in every report. Entry point: SortViolations.
#include "engine/eval/result.h"

#include <algorithm>
#include <string_view>
#include <tuple>

#include "engine/eval/operators.h"

namespace capops::eval {

void SortViolations(const SourceManager& sources, std::vector<Violation>* violations,
                    bool drop_repeats) {
  auto key = [&](const Violation& v) {
    return std::make_tuple(sources.Path(v.loc.file), v.loc.line, v.loc.column,
                           std::string_view(v.rule_id), std::string_view(v.message), v.via.line,
                           v.via.column);
  };
  std::stable_sort(violations->begin(), violations->end(),
                   [&](const Violation& a, const Violation& b) { return key(a) < key(b); });
  if (!drop_repeats) return;
  violations->erase(
      std::unique(violations->begin(), violations->end(),
                  [&](const Violation& a, const Violation& b) { return key(a) == key(b); }),
      violations->end());
}

bool MeasureGrew(const Value& now, const Value& before) {
  if (now.is(ValueKind::kNull) || before.is(ValueKind::kNull)) return false;
  int order = 0;
  std::string error;
  return Compare(now, before, &order, &error) && order > 0;
}

std::string BaselineNote(const Violation& v) {
  if (v.baseline_measure.is(ValueKind::kNull)) return "";
  return "worse than the baseline: " + v.measure.ToString() + " " + v.measure_of + ", baseline " +
         v.baseline_measure.ToString();
}

namespace {
constexpr const char* kNotEvaluated =
    "rules were not evaluated on this plan: its facts do not match the schema";
}  // namespace

Diagnostic& NoteNotEvaluated(Diagnostics* diags, SourceLoc plan) {
  Diagnostic& d = diags->Add(Severity::kInfo, plan, kNotEvaluated);
  d.code = "schema";
  d.help = "fix the schema errors of this plan and its inventory first";
  d.length = 1;
  return d;
}

bool IsNotEvaluatedNote(const Diagnostic& d) {
  return d.severity == Severity::kInfo && d.code == "schema" && d.message == kNotEvaluated;
}

}  // namespace capops::eval
