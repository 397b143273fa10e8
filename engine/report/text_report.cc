// SPDX-License-Identifier: Apache-2.0
// Text reports in the style of rustc: a header line, an arrow to the place,
// the source line with the span underlined, secondary labels on the other
// facts the rule read, then `= because:`, `= fix:` (the rule's advice, then each repair computed
// for the finding) and a `= param:` line
// for each param the rule reads, with its value and where it was set; with --explain the
// evidence and a power-assert trace of each clause. Also the one-line
// `--format short` and the summary line.
#include <algorithm>

#include "engine/report/ci_report.h"
#include "engine/report/power_assert.h"
#include "engine/report/report.h"
#include "engine/report/snippet.h"

namespace capops::report {

namespace {

const char* SeverityColor(Severity s) {
  return s == Severity::kError ? "1;31" : s == Severity::kWarning ? "1;33" : "1;36";
}

std::string Header(Severity severity, const std::string& code, const std::string& message,
                   const Style& style) {
  std::string label = SeverityName(severity);
  if (!code.empty()) label += "[" + Visible(code) + "]";
  return style.Paint(SeverityColor(severity), label) + style.Paint("1", ": " + Visible(message));
}

void WriteArrow(const SourceManager& sources, const SourceLoc& loc, size_t gutter,
                const char* arrow, const Style& style, std::ostream& out) {
  out << std::string(gutter, ' ') << style.Paint("1;34", arrow) << ' ' << Where(sources, loc)
      << '\n';
}

void WriteExplain(const SourceManager& sources, const eval::Violation& v, size_t gutter,
                  const Style& style, std::ostream& out) {
  std::string pad(gutter + 1, ' ');
  out << pad << "= rule: " << Visible(v.rule_name) << " (" << Where(sources, v.policy_loc) << ")\n";
  if (!v.evidence.empty()) out << pad << "= evidence:\n";
  for (const eval::Evidence& e : v.evidence) {
    out << pad << "    " << Visible(e.name) << " = " << Visible(e.value);
    if (e.loc.valid()) out << "  (" << Where(sources, e.loc) << ")";
    out << '\n';
  }
  if (!v.trace.empty()) out << pad << "= trace:\n";
  for (const eval::TraceStep& step : v.trace)
    WritePowerAssert(sources, step, pad + "    ", style, out);
}

void WriteViolation(const SourceManager& sources, const eval::Violation& v,
                    const TextOptions& options, const Style& style, std::ostream& out) {
  size_t gutter = GutterWidth({v.loc.line});
  for (const eval::Label& l : v.labels) gutter = std::max(gutter, GutterWidth({l.loc.line}));
  out << Header(v.severity, v.rule_id, v.message, style) << '\n';
  WriteArrow(sources, v.loc, gutter, "-->", style, out);
  WriteGutter(gutter, style, out);
  WriteSnippet(sources, v.loc, 0, '^', "", gutter, style, out);
  for (const eval::Label& l : v.labels) {
    WriteArrow(sources, l.loc, gutter, ":::", style, out);
    WriteSnippet(sources, l.loc, 0, '-', Visible(l.message), gutter, style, out);
  }
  std::string pad(gutter + 1, ' ');
  if (!v.because.empty()) out << pad << "= because: " << Visible(v.because) << '\n';
  if (!v.fix.empty()) out << pad << "= fix: " << Visible(v.fix) << '\n';
  for (const Fix& f : v.fixes) out << pad << "= fix: " << Visible(f.description) << '\n';
  // Advice, not an edit: `help:`, as rustc words what it cannot apply.
  if (v.acquisition) out << pad << "= help: " << Visible(v.acquisition->description) << '\n';
  if (std::string note = eval::BaselineNote(v); !note.empty())
    out << pad << "= note: " << Visible(note) << '\n';
  if (v.params) {
    for (const eval::ParamUse& p : *v.params)
      out << pad << "= param: " << Visible(ParamText(p)) << '\n';
  }
  if (options.explain) WriteExplain(sources, v, gutter, style, out);
  out << '\n';
}

void WriteDiagnostic(const SourceManager& sources, const Diagnostic& d, const Style& style,
                     std::ostream& out) {
  size_t gutter = GutterWidth({d.loc.line});
  out << Header(d.severity, d.code, d.message, style) << '\n';
  WriteArrow(sources, d.loc, gutter, "-->", style, out);
  WriteGutter(gutter, style, out);
  WriteSnippet(sources, d.loc, d.length, '^', "", gutter, style, out);
  std::string pad(gutter + 1, ' ');
  for (const RelatedLoc& r : d.related) {
    out << pad << "= note: " << Visible(r.message) << " at " << Where(sources, r.loc) << '\n';
  }
  if (!d.help.empty()) out << pad << "= help: " << Visible(d.help) << '\n';
  out << '\n';
}

std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

void WriteSummary(const eval::LintReport& report, std::ostream& out) {
  Counts c = CountFindings(report);
  size_t total = c.errors + c.warnings + c.infos;
  std::string scope = " in " + Plural(report.files, "file") + " (" + Plural(report.plans, "plan") +
                      ", " + Plural(report.rules, "rule") + ")";
  size_t waived = std::count_if(report.violations.begin(), report.violations.end(),
                                [](const eval::Violation& v) { return v.suppression.has_value(); });
  if (waived != 0) scope += ", " + std::to_string(waived) + " waived";
  if (report.baselined != 0) scope += ", " + std::to_string(report.baselined) + " baselined";
  if (size_t worse = CountWorse(report); worse != 0)
    scope += ", " + std::to_string(worse) + " worse than the baseline";
  if (total == 0) {
    out << "no problems" << scope << '\n';
    return;
  }
  out << Plural(total, "problem") << " (" << Plural(c.errors, "error") << ", "
      << Plural(c.warnings, "warning") << ", " << c.infos << " info)" << scope << '\n';
}

// Errors and violations interleave in file order, errors first at a tie.
template <typename OnViolation, typename OnError>
void InFileOrder(const SourceManager& sources, const eval::LintReport& report,
                 OnViolation on_violation, OnError on_error) {
  auto before = [&](const SourceLoc& a, const SourceLoc& b) {
    return std::make_tuple(sources.Path(a.file), a.line, a.column) <=
           std::make_tuple(sources.Path(b.file), b.line, b.column);
  };
  const auto& errors = report.errors.items();
  size_t e = 0;
  for (const eval::Violation& v : report.violations) {
    if (v.suppression) continue;  // waived: listed apart
    while (e < errors.size() && before(errors[e].loc, v.loc)) on_error(errors[e++]);
    on_violation(v);
  }
  while (e < errors.size()) on_error(errors[e++]);
}

}  // namespace

size_t CountWorse(const eval::LintReport& report) {
  return std::count_if(
      report.violations.begin(), report.violations.end(),
      [](const eval::Violation& v) { return !v.baseline_measure.is(ValueKind::kNull); });
}

Counts CountFindings(const eval::LintReport& report) {
  Counts c;
  auto add = [&](Severity s) {
    (s == Severity::kError ? c.errors : s == Severity::kWarning ? c.warnings : c.infos)++;
  };
  for (const eval::Violation& v : report.violations) {
    if (!v.suppression) add(v.severity);  // waived: listed, never counted
  }
  for (const Diagnostic& d : report.errors.items()) add(d.severity);
  return c;
}

void WriteDiagnostics(const SourceManager& sources, const Diagnostics& diagnostics,
                      const TextOptions& options, std::ostream& out) {
  Style style{options.color};
  for (const Diagnostic& d : diagnostics.items()) WriteDiagnostic(sources, d, style, out);
}

void WriteText(const SourceManager& sources, const eval::LintReport& report,
               const TextOptions& options, std::ostream& out) {
  Style style{options.color};
  InFileOrder(
      sources, report,
      [&](const eval::Violation& v) { WriteViolation(sources, v, options, style, out); },
      [&](const Diagnostic& d) { WriteDiagnostic(sources, d, style, out); });
  WriteWaivedLines(sources, report, out);
  WriteSummary(report, out);
}

void WriteTrace(const SourceManager& sources, const eval::TraceStep& step,
                const TextOptions& options, std::ostream& out) {
  WritePowerAssert(sources, step, "", Style{options.color}, out);
}

void WriteShort(const SourceManager& sources, const eval::LintReport& report, std::ostream& out) {
  auto line = [&](const SourceLoc& loc, Severity s, const std::string& code,
                  const std::string& message) {
    out << Where(sources, loc) << ": " << SeverityName(s)
        << (code.empty() ? "" : "[" + Visible(code) + "]") << ": " << Visible(message) << '\n';
  };
  InFileOrder(
      sources, report,
      [&](const eval::Violation& v) {
        std::string note = eval::BaselineNote(v);
        line(v.loc, v.severity, v.rule_id,
             note.empty() ? v.message : v.message + " (" + note + ")");
      },
      [&](const Diagnostic& d) { line(d.loc, d.severity, d.code, d.message); });
}

}  // namespace capops::report
