// SPDX-License-Identifier: Apache-2.0
// GitHub workflow annotations: one `::error`/`::warning`/`::notice` command
// per finding, escaped as the workflow-command syntax requires (%, CR, LF in
// the message; also `:` and `,` in properties), and a plain summary line.
// User text is made Visible (escape.h) first, so no control byte reaches the
// log and a newline in a file name cannot start a command of its own.
// Also the text report's waived lines, which share the one-line form.
#include "engine/common/escape.h"
#include "engine/report/ci_report.h"
#include "engine/report/report.h"
#include "engine/report/snippet.h"

namespace capops::report {

namespace {

std::string EscapeData(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else {
      out += c;
    }
  }
  return out;
}

// A property value: one line, so newlines are shown as `\n` before escaping.
std::string EscapeProperty(std::string_view text) {
  std::string out;
  for (char c : EscapeData(Visible(text))) {
    if (c == ':') {
      out += "%3A";
    } else if (c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

const char* Command(Severity s) {
  return s == Severity::kError ? "error" : s == Severity::kWarning ? "warning" : "notice";
}

// `length`: how many characters the place spans (0: the YAML token there).
void Annotate(const SourceManager& sources, Severity severity, const SourceLoc& loc,
              uint32_t length, const std::string& title, const std::string& message,
              std::ostream& out) {
  out << "::" << Command(severity) << " file=" << EscapeProperty(sources.ShownPath(loc.file));
  if (loc.valid()) {
    out << ",line=" << loc.line << ",endLine=" << loc.line << ",col=" << loc.column;
    // GitHub's end column is the last one of the span.
    if (uint32_t end = SpanEndColumn(sources, loc, length); end != 0)
      out << ",endColumn=" << end - 1;
  }
  out << ",title=" << EscapeProperty(title) << "::" << EscapeData(message) << '\n';
}

}  // namespace

void WriteGithub(const SourceManager& sources, const eval::LintReport& report, std::ostream& out) {
  size_t shown = 0, waived = 0;
  for (const eval::Violation& v : report.violations) {
    if (v.suppression) {
      ++waived;
      continue;
    }
    std::string message = Visible(v.message, Keep::kTabNewline);
    if (!v.because.empty()) message += "\nbecause: " + Visible(v.because, Keep::kTabNewline);
    if (!v.fix.empty()) message += "\nfix: " + Visible(v.fix, Keep::kTabNewline);
    if (std::string note = eval::BaselineNote(v); !note.empty())
      message += "\nnote: " + Visible(note, Keep::kTabNewline);
    Annotate(sources, v.severity, v.loc, 0, v.rule_id + " " + v.rule_name, message, out);
    ++shown;
  }
  for (const Diagnostic& d : report.errors.items()) {
    std::string message = Visible(d.message, Keep::kTabNewline);
    if (!d.help.empty()) message += "\nhelp: " + Visible(d.help, Keep::kTabNewline);
    Annotate(sources, d.severity, d.loc, d.length,
             d.code.empty() ? "capops-lint" : "capops-lint " + d.code, message, out);
    ++shown;
  }
  out << "capops-lint: " << shown << " finding" << (shown == 1 ? "" : "s") << ", " << waived
      << " waived, " << report.baselined << " baselined, ";
  if (size_t worse = CountWorse(report); worse != 0) out << worse << " worse than the baseline, ";
  out << "in " << report.files << " file" << (report.files == 1 ? "" : "s") << '\n';
}

void WriteWaivedLines(const SourceManager& sources, const eval::LintReport& report,
                      std::ostream& out) {
  for (const eval::Violation& v : report.violations) {
    if (!v.suppression) continue;
    out << Visible(sources.ShownPath(v.loc.file));
    if (v.loc.valid()) out << ':' << v.loc.line << ':' << v.loc.column;
    out << ": waived[" << Visible(v.rule_id) << "] " << Visible(v.message) << " (owner `"
        << Visible(v.suppression->owner) << "`, until " << Visible(v.suppression->expires) << ")\n";
  }
}

}  // namespace capops::report
