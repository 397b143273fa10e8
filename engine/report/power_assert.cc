// SPDX-License-Identifier: Apache-2.0
// Power-assert rendering of a traced clause (see power_assert.h).
#include "engine/report/power_assert.h"

#include <algorithm>
#include <map>

namespace capops::report {

namespace {

std::string ValueText(const SourceManager& sources, const eval::TraceValue& t) {
  return Visible(t.value) + (t.fact.valid() ? "  (" + Where(sources, t.fact) + ")" : "");
}

void WriteList(const SourceManager& sources, const eval::TraceStep& step, const std::string& indent,
               std::ostream& out) {
  for (const eval::TraceValue& t : step.values)
    out << indent << "  " << Visible(t.expr, Keep::kTabNewline) << " = " << ValueText(sources, t)
        << '\n';
}

}  // namespace

void WritePowerAssert(const SourceManager& sources, const eval::TraceStep& step,
                      const std::string& indent, const Style& style, std::ostream& out) {
  out << indent << style.Paint("1", Visible(step.clause, Keep::kTabNewline)) << "  "
      << style.Paint("2", "(" + Where(sources, step.loc) + ")") << '\n';
  if (step.clause.find('\n') != std::string::npos) return WriteList(sources, step, indent, out);
  // One value per column; a later (outer) expression at the same column wins.
  std::map<size_t, std::string> at;
  for (const eval::TraceValue& t : step.values) {
    if (t.anchor.line != step.loc.line || t.anchor.column < step.loc.column) continue;
    size_t column = t.anchor.column - step.loc.column;
    if (column < step.clause.size()) at[column] = ValueText(sources, t);
  }
  if (at.empty()) return;
  auto bars_until = [&](size_t limit) {
    std::string row;
    for (const auto& [column, _] : at) {
      if (column >= limit) break;
      row.resize(column, ' ');
      row += '|';
    }
    return row;
  };
  out << indent << style.Paint("1;34", bars_until(SIZE_MAX)) << '\n';
  for (auto it = at.rbegin(); it != at.rend(); ++it) {
    std::string row = bars_until(it->first);
    row.resize(it->first, ' ');
    out << indent << style.Paint("1;34", row) << it->second << '\n';
  }
}

}  // namespace capops::report
