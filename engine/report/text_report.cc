// Text reports: one block per finding with the source line and a caret,
// then a summary line. Colours only when asked (the CLI decides).
#include <algorithm>

#include "engine/report/report.h"

namespace capops::report {

namespace {

struct Style {
  bool on;
  std::string Paint(const char* code, const std::string& text) const {
    return on ? std::string("\x1b[") + code + "m" + text + "\x1b[0m" : text;
  }
};

const char* SeverityColor(Severity s) {
  return s == Severity::kError ? "1;31" : s == Severity::kWarning ? "1;33" : "1;36";
}

std::string Where(const SourceManager& sources, const SourceLoc& loc) {
  if (!loc.valid()) return std::string(sources.Path(loc.file));
  return std::string(sources.Path(loc.file)) + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

// Byte index of a 1-based character column in a line.
size_t ByteOfColumn(std::string_view line, uint32_t column) {
  size_t i = 0;
  for (uint32_t c = 1; c < column && i < line.size(); ++c) {
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

// How far the value at `start` extends: a quoted scalar to its closing
// quote, a plain one up to a flow delimiter or a comment.
size_t TokenLength(std::string_view line, size_t start) {
  if (start >= line.size()) return 1;
  char quote = line[start];
  if (quote == '"' || quote == '\'') {
    size_t end = line.find(quote, start + 1);
    return end == std::string_view::npos ? line.size() - start : end - start + 1;
  }
  if (quote == '[' || quote == '{') {  // a flow collection: to its matching bracket
    int depth = 0;
    for (size_t end = start; end < line.size(); ++end) {
      depth += line[end] == '[' || line[end] == '{';
      depth -= line[end] == ']' || line[end] == '}';
      if (depth == 0) return end - start + 1;
    }
    return line.size() - start;
  }
  size_t end = start;
  while (end < line.size() && line[end] != ',' && line[end] != '}' && line[end] != ']' &&
         !(line[end] == '#' && end > start && line[end - 1] == ' ')) {
    ++end;
  }
  while (end > start + 1 && line[end - 1] == ' ') --end;
  return std::max<size_t>(1, end - start);
}

// Control characters (a NUL in a binary file) would garble the terminal.
std::string Printable(std::string_view line) {
  std::string out(line);
  for (char& c : out) {
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) c = '?';
  }
  return out;
}

// `length` is how many characters to underline; 0 guesses from the YAML token.
void WriteSnippet(const SourceManager& sources, const SourceLoc& loc, uint32_t length_hint, const Style& style,
                  std::ostream& out) {
  if (!loc.valid()) return;
  std::string_view line = sources.LineText(loc.file, loc.line);
  if (line.empty() && loc.line > sources.file(loc.file).line_count()) return;
  std::string number = std::to_string(loc.line);
  std::string gutter(number.size(), ' ');
  size_t start = ByteOfColumn(line, loc.column);
  size_t length = length_hint != 0 ? length_hint : TokenLength(line, start);
  // The caret line repeats tabs so the caret lines up under the value.
  std::string pad;
  for (size_t i = 0; i < start && i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;
    pad += line[i] == '\t' ? '\t' : ' ';
  }
  std::string marks = "^" + std::string(length > 1 ? length - 1 : 0, '~');
  out << ' ' << style.Paint("1;34", number + " |") << ' ' << Printable(line) << '\n';
  out << ' ' << style.Paint("1;34", gutter + " |") << ' ' << pad << style.Paint("1;32", marks) << '\n';
}

void WriteViolation(const SourceManager& sources, const eval::Violation& v, const TextOptions& options,
                    const Style& style, std::ostream& out) {
  out << style.Paint("1", Where(sources, v.loc) + ":") << ' '
      << style.Paint(SeverityColor(v.severity), std::string(SeverityName(v.severity)) + "[" + v.rule_id + "]")
      << ' ' << v.message << '\n';
  WriteSnippet(sources, v.loc, 0, style, out);
  if (!v.because.empty()) out << "   = because: " << v.because << '\n';
  if (!v.fix.empty()) out << "   = fix: " << v.fix << '\n';
  if (!options.explain) return;
  out << "   = rule: " << v.rule_name << " (" << Where(sources, v.policy_loc) << ")\n";
  if (!v.evidence.empty()) out << "   = evidence:\n";
  for (const eval::Evidence& e : v.evidence) {
    out << "       " << e.name << " = " << e.value;
    if (e.loc.valid()) out << "  (" << Where(sources, e.loc) << ")";
    out << '\n';
  }
  if (!v.trace.empty()) out << "   = trace:\n";
  for (const eval::TraceStep& step : v.trace) {
    out << "       " << step.clause << "  (" << Where(sources, step.loc) << ")\n";
    for (const eval::TraceValue& t : step.values) {
      out << "         " << t.expr << " = " << t.value;
      if (t.fact.valid()) out << "  (" << Where(sources, t.fact) << ")";
      out << '\n';
    }
  }
}

void WriteDiagnostic(const SourceManager& sources, const Diagnostic& d, const Style& style, std::ostream& out) {
  std::string label = SeverityName(d.severity);
  label += d.code.empty() ? ":" : "[" + d.code + "]";
  out << style.Paint("1", Where(sources, d.loc) + ":") << ' ' << style.Paint(SeverityColor(d.severity), label)
      << ' ' << d.message << '\n';
  WriteSnippet(sources, d.loc, d.length, style, out);
  for (const RelatedLoc& r : d.related) out << "   = note: " << r.message << " at " << Where(sources, r.loc) << '\n';
  if (!d.help.empty()) out << "   = help: " << d.help << '\n';
}

std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

Counts CountFindings(const eval::LintReport& report) {
  Counts c;
  auto add = [&](Severity s) {
    (s == Severity::kError ? c.errors : s == Severity::kWarning ? c.warnings : c.infos)++;
  };
  for (const eval::Violation& v : report.violations) add(v.severity);
  for (const Diagnostic& d : report.errors.items()) add(d.severity);
  return c;
}

void WriteDiagnostics(const SourceManager& sources, const Diagnostics& diagnostics, const TextOptions& options,
                      std::ostream& out) {
  Style style{options.color};
  for (const Diagnostic& d : diagnostics.items()) WriteDiagnostic(sources, d, style, out);
}

void WriteText(const SourceManager& sources, const eval::LintReport& report, const TextOptions& options,
               std::ostream& out) {
  Style style{options.color};
  // Errors and violations interleave in file order, errors first at a tie.
  size_t e = 0;
  auto loc_less = [&](const SourceLoc& a, const SourceLoc& b) {
    return std::make_tuple(sources.Path(a.file), a.line, a.column) <=
           std::make_tuple(sources.Path(b.file), b.line, b.column);
  };
  const auto& errors = report.errors.items();
  for (const eval::Violation& v : report.violations) {
    while (e < errors.size() && loc_less(errors[e].loc, v.loc)) WriteDiagnostic(sources, errors[e++], style, out);
    WriteViolation(sources, v, options, style, out);
  }
  while (e < errors.size()) WriteDiagnostic(sources, errors[e++], style, out);

  Counts c = CountFindings(report);
  size_t total = c.errors + c.warnings + c.infos;
  std::string scope = " in " + Plural(report.files, "file") + " (" + Plural(report.plans, "plan") + ", " +
                      Plural(report.rules, "rule") + ")";
  if (total == 0) {
    out << "no problems" << scope << '\n';
  } else {
    out << Plural(total, "problem") << " (" << Plural(c.errors, "error") << ", " << Plural(c.warnings, "warning")
        << ", " << c.infos << " info)" << scope << '\n';
  }
}

}  // namespace capops::report
