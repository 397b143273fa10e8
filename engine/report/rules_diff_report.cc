// SPDX-License-Identifier: Apache-2.0
// The output of `rules --diff` (lint/rules_diff.h) as text, JSON or Markdown.
// Entry point: WriteRulesDiff.
#include "engine/report/rules_diff_report.h"

#include <nlohmann/json.hpp>

#include "engine/common/escape.h"
#include "engine/common/json_text.h"

namespace capops::report {

using lint::ClauseChange;
using lint::DiffFinding;
using lint::FieldChange;
using lint::FindingsDiff;
using lint::RuleChange;
using lint::RulesDiff;
using lint::RuleSummary;

namespace {

using nlohmann::json;

const char* ChangeName(ClauseChange::Kind kind) {
  switch (kind) {
    case ClauseChange::Kind::kChanged:
      return "changed";
    case ClauseChange::Kind::kAdded:
      return "added";
    case ClauseChange::Kind::kRemoved:
      return "removed";
  }
  return "";
}

std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string RulesSummary(const RulesDiff& d) {
  return std::to_string(d.added.size()) + " added, " + std::to_string(d.removed.size()) +
         " removed, " + std::to_string(d.changed.size()) + " changed, " +
         std::to_string(d.unchanged) + " unchanged";
}

// "3 severity changed (2 now fail --fail-on error, 1 no longer does)"
std::string SeveritySummary(const FindingsDiff& f, lint::FailOn fail_on) {
  std::string out = std::to_string(f.severity_changed.size()) + " severity changed";
  size_t fail = 0, pass = 0;
  for (const DiffFinding& x : f.severity_changed) {
    int change = lint::VerdictChange(x, fail_on);
    fail += change > 0 ? 1 : 0;
    pass += change < 0 ? 1 : 0;
  }
  if (fail + pass == 0) return out;
  return out + " (" + std::to_string(fail) + " now fail --fail-on " + lint::FailOnName(fail_on) +
         ", " + std::to_string(pass) + " no longer do)";
}

std::string FindingsSummary(const FindingsDiff& f, lint::FailOn fail_on) {
  return "findings over " + Plural(f.fixtures, "test fact set") + " and " +
         Plural(f.plans, "plan file") + ": " + std::to_string(f.disappeared.size()) +
         " disappeared, " + std::to_string(f.appeared.size()) + " appeared, " +
         SeveritySummary(f, fail_on) + ", " + std::to_string(f.worse.size()) + " worse, " +
         std::to_string(f.better.size()) + " better, " + std::to_string(f.unchanged.size()) +
         " unchanged";
}

std::string MeasureText(const Value& m) {
  return m.is(ValueKind::kNull) ? "none" : m.ToString();
}

// What changed of a finding both versions report, for its line:
// "warning -> error, now fails --fail-on error", "worse: 12 over `capacity`, was 4".
std::string ChangeNote(char sign, const DiffFinding& f, lint::FailOn fail_on) {
  std::string measure = MeasureText(f.measure) + (f.measure_of.empty() ? "" : " " + f.measure_of) +
                        ", was " + MeasureText(f.old_measure);
  if (sign == '>') return "worse: " + measure;
  if (sign == '<') return "better: " + measure;
  std::string note = f.old_severity + " -> " + f.severity;
  int change = lint::VerdictChange(f, fail_on);
  if (change != 0)
    note += std::string(change > 0 ? ", now fails" : ", no longer fails") + " --fail-on " +
            lint::FailOnName(fail_on);
  if (!(f.measure == f.old_measure)) note += "; measure " + measure;
  return note;
}

// `- RULE file:line:col fact-path  message`, and `[what changed]` for a
// finding both versions report.
std::string FindingLine(char sign, const DiffFinding& f, lint::FailOn fail_on) {
  std::string out = std::string(1, sign) + " " + f.rule + " " + f.file + ":" +
                    std::to_string(f.line) + ":" + std::to_string(f.column);
  if (!f.at.empty()) out += " " + f.at;
  out += "  " + f.message;
  if (sign != '-' && sign != '+') out += "  [" + ChangeNote(sign, f, fail_on) + "]";
  // Facts and file names are untrusted: one line, no control byte.
  return Visible(out);
}

// Every list, merged in file order; each line with its sign.
std::vector<std::pair<char, const DiffFinding*>> Merged(const FindingsDiff& f) {
  std::vector<std::pair<char, const DiffFinding*>> lines;
  for (const auto& [sign, list] :
       {std::pair{'-', &f.disappeared}, std::pair{'+', &f.appeared},
        std::pair{'~', &f.severity_changed}, std::pair{'>', &f.worse}, std::pair{'<', &f.better}}) {
    for (const DiffFinding& x : *list) lines.emplace_back(sign, &x);
  }
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) {
    return std::tie(a.second->file, a.second->line, a.second->column) <
           std::tie(b.second->file, b.second->line, b.second->column);
  });
  return lines;
}

// The merged lines to show, and what the cap left out: "… and 12 more
// findings not shown (50 of 62; --max-findings 0 shows all)"; "" when none.
std::string Capped(std::vector<std::pair<char, const DiffFinding*>>* lines, size_t max) {
  size_t total = lines->size();
  if (max == 0 || total <= max) return "";
  lines->resize(max);
  return "… and " + std::to_string(total - max) + " more findings not shown (" +
         std::to_string(max) + " of " + std::to_string(total) + "; --max-findings 0 shows all)";
}

// The rules whose findings changed, and what is left: "51 other rules: 1650 findings unchanged".
struct ByRule {
  std::vector<lint::RuleFindingCounts> changed;
  size_t other_rules = 0, other_findings = 0;
};

ByRule RulesOfFindings(const FindingsDiff& f) {
  ByRule out;
  for (lint::RuleFindingCounts& c : lint::CountByRule(f)) {
    if (c.changed()) {
      out.changed.push_back(std::move(c));
    } else {
      ++out.other_rules;
      out.other_findings += c.unchanged;
    }
  }
  return out;
}

std::string OtherRules(const ByRule& b) {
  return Plural(b.other_rules, b.changed.empty() ? "rule" : "other rule") + ": " +
         Plural(b.other_findings, "finding") + " unchanged";
}

// ---- text

void FieldText(const FieldChange& c, std::ostream& out) {
  if (c.field == "doc") {
    out << "    doc comment changed\n";
  } else if (c.old_value.empty()) {
    out << "    " << c.field << " added: " << c.new_value << '\n';
  } else if (c.new_value.empty()) {
    out << "    " << c.field << " removed: " << c.old_value << '\n';
  } else if (c.old_value.size() + c.new_value.size() <= 60) {
    out << "    " << c.field << ": " << c.old_value << " -> " << c.new_value << '\n';
  } else {
    out << "    " << c.field << " changed\n      old: " << c.old_value
        << "\n      new: " << c.new_value << '\n';
  }
}

void ClauseText(const ClauseChange& c, std::ostream& out) {
  size_t index = c.kind == ClauseChange::Kind::kRemoved ? c.old_index : c.new_index;
  out << "    clause " << index << " `" << c.keyword << "` " << ChangeName(c.kind);
  switch (c.kind) {
    case ClauseChange::Kind::kChanged:
      out << "\n      old: " << c.old_text << "\n      new: " << c.new_text << '\n';
      return;
    case ClauseChange::Kind::kAdded:
      out << ": " << c.new_text << '\n';
      return;
    case ClauseChange::Kind::kRemoved:
      out << ": " << c.old_text << '\n';
      return;
  }
}

void RuleLine(char sign, const RuleSummary& r, std::ostream& out) {
  out << sign << ' ' << r.id << "  " << r.name << "  (" << r.severity << ")  " << r.defined_at
      << '\n';
}

const char* kCountHeads[] = {"appeared", "disappeared", "severity", "worse", "better", "unchanged"};

std::vector<size_t> Counts(const lint::RuleFindingCounts& c) {
  return {c.appeared, c.disappeared, c.severity_changed, c.worse, c.better, c.unchanged};
}

// The counts per rule, as a table aligned in columns.
void ByRuleText(const ByRule& b, std::ostream& out) {
  if (b.changed.empty()) {
    out << "by rule: none changed (" << OtherRules(b) << ")\n";
    return;
  }
  size_t width = 4;  // "rule"
  for (const auto& c : b.changed) width = std::max(width, c.rule.size());
  auto cell = [](const std::string& text, size_t w) {
    return std::string(w > text.size() ? w - text.size() : 0, ' ') + text;
  };
  out << "by rule:\n  rule" << std::string(width - 4, ' ');
  for (const char* head : kCountHeads) out << "  " << head;
  out << '\n';
  for (const auto& c : b.changed) {
    out << "  " << Visible(c.rule) << std::string(width - c.rule.size(), ' ');
    std::vector<size_t> n = Counts(c);
    for (size_t i = 0; i < n.size(); ++i)
      out << "  " << cell(std::to_string(n[i]), std::string(kCountHeads[i]).size());
    out << '\n';
  }
  if (b.other_rules > 0) out << "  (" << OtherRules(b) << ")\n";
}

void WriteText(const RulesDiff& d, const FindingsDiff& f, const RulesDiffOutput& o,
               std::ostream& out) {
  out << "old: " << d.old_label << "  " << d.old_digest << '\n';
  out << "new: " << d.new_label << "  " << d.new_digest << '\n';
  out << "\nrules: " << RulesSummary(d) << '\n';
  for (const RuleSummary& r : d.added) RuleLine('+', r, out);
  for (const RuleSummary& r : d.removed) RuleLine('-', r, out);
  for (const RuleChange& c : d.changed) {
    RuleLine('~', c.rule, out);
    for (const FieldChange& x : c.fields) FieldText(x, out);
    for (const FieldChange& x : c.params) FieldText(x, out);
    for (const ClauseChange& x : c.clauses) ClauseText(x, out);
  }
  out << '\n' << FindingsSummary(f, o.fail_on) << '\n';
  ByRule by_rule = RulesOfFindings(f);
  if (by_rule.changed.empty() && by_rule.other_rules == 0) return;
  ByRuleText(by_rule, out);
  std::vector<std::pair<char, const DiffFinding*>> lines = Merged(f);
  if (lines.empty()) return;
  std::string left_out = Capped(&lines, o.max_findings);
  out << "\nfindings (- disappeared, + appeared, ~ severity changed, > worse, < better):\n";
  std::string file;
  for (const auto& [sign, x] : lines) {
    if (x->file != file) out << Visible(file = x->file) << '\n';
    out << "  " << FindingLine(sign, *x, o.fail_on) << '\n';
  }
  if (!left_out.empty()) out << left_out << '\n';
}

// ---- JSON

json RuleJson(const RuleSummary& r) {
  return {{"id", r.id}, {"name", r.name}, {"severity", r.severity}, {"defined_at", r.defined_at}};
}

json FieldsJson(const std::vector<FieldChange>& changes) {
  json list = json::array();
  for (const FieldChange& c : changes)
    list.push_back({{"field", c.field}, {"old", c.old_value}, {"new", c.new_value}});
  return list;
}

json ChangeJson(const RuleChange& c) {
  json clauses = json::array();
  for (const ClauseChange& x : c.clauses) {
    clauses.push_back({{"change", ChangeName(x.kind)},
                       {"keyword", x.keyword},
                       {"old_index", x.old_index},
                       {"new_index", x.new_index},
                       {"old", x.old_text},
                       {"new", x.new_text}});
  }
  json j = RuleJson(c.rule);
  j["fields"] = FieldsJson(c.fields);
  j["params"] = FieldsJson(c.params);
  j["clauses"] = clauses;
  return j;
}

json MeasureJson(const Value& m) {
  return m.is(ValueKind::kNull) ? json(nullptr) : json(m.ToString());
}

// Each finding; those both versions report with how the old one had them
// and, for a severity change, what it does to the run under --fail-on.
json FindingsJson(const std::vector<DiffFinding>& findings, lint::FailOn fail_on,
                  bool changed = false) {
  json list = json::array();
  for (const DiffFinding& f : findings) {
    json j = {{"rule", f.rule},
              {"severity", f.severity},
              {"message", f.message},
              {"location", {{"file", f.file}, {"line", f.line}, {"column", f.column}}},
              {"at", f.at},
              {"key", f.key},
              {"measure", MeasureJson(f.measure)},
              {"measure_of", f.measure_of}};
    if (changed) {
      j["old_severity"] = f.old_severity;
      j["old_measure"] = MeasureJson(f.old_measure);
      int verdict = lint::VerdictChange(f, fail_on);
      j["verdict"] = verdict > 0 ? "now fails" : verdict < 0 ? "no longer fails" : "same";
    }
    list.push_back(std::move(j));
  }
  return list;
}

json ByRuleJson(const FindingsDiff& f) {
  json list = json::array();
  for (const lint::RuleFindingCounts& c : lint::CountByRule(f)) {
    json j = {{"rule", c.rule}};
    std::vector<size_t> n = Counts(c);
    const char* keys[] = {"appeared", "disappeared", "severity_changed",
                          "worse",    "better",      "unchanged"};
    for (size_t i = 0; i < n.size(); ++i) j[keys[i]] = n[i];
    list.push_back(std::move(j));
  }
  return list;
}

void WriteJson(const RulesDiff& d, const FindingsDiff& f, lint::FailOn fail_on, std::ostream& out) {
  json added = json::array(), removed = json::array(), changed = json::array();
  for (const RuleSummary& r : d.added) added.push_back(RuleJson(r));
  for (const RuleSummary& r : d.removed) removed.push_back(RuleJson(r));
  for (const RuleChange& c : d.changed) changed.push_back(ChangeJson(c));
  json doc = {{"old", d.old_label},
              {"new", d.new_label},
              {"old_digest", d.old_digest},
              {"new_digest", d.new_digest},
              {"added", added},
              {"removed", removed},
              {"changed", changed},
              {"unchanged", d.unchanged},
              {"fail_on", lint::FailOnName(fail_on)},
              {"findings",
               {{"disappeared", FindingsJson(f.disappeared, fail_on)},
                {"appeared", FindingsJson(f.appeared, fail_on)},
                {"severity_changed", FindingsJson(f.severity_changed, fail_on, true)},
                {"worse", FindingsJson(f.worse, fail_on, true)},
                {"better", FindingsJson(f.better, fail_on, true)},
                {"unchanged", f.unchanged.size()},
                {"by_rule", ByRuleJson(f)},
                {"test_fact_sets", f.fixtures},
                {"plan_files", f.plans}}}};
  out << JsonText(doc, 2) << '\n';
}

// ---- Markdown (a pull-request comment)

void FieldMarkdown(const FieldChange& c, std::ostream& out) {
  out << "  - " << c.field;
  if (c.field == "doc") {
    out << " comment changed\n";
  } else if (c.old_value.empty()) {
    out << " added: " << MarkdownCodeSpan(c.new_value) << '\n';
  } else if (c.new_value.empty()) {
    out << " removed: " << MarkdownCodeSpan(c.old_value) << '\n';
  } else {
    out << ": " << MarkdownCodeSpan(c.old_value) << " → " << MarkdownCodeSpan(c.new_value) << '\n';
  }
}

void ClauseMarkdown(const ClauseChange& c, std::ostream& out) {
  size_t index = c.kind == ClauseChange::Kind::kRemoved ? c.old_index : c.new_index;
  out << "  - clause " << index << " `" << c.keyword << "` " << ChangeName(c.kind) << ": ";
  if (c.kind == ClauseChange::Kind::kChanged) {
    out << MarkdownCodeSpan(c.old_text) << " → " << MarkdownCodeSpan(c.new_text) << '\n';
  } else {
    out << MarkdownCodeSpan(c.kind == ClauseChange::Kind::kAdded ? c.new_text : c.old_text) << '\n';
  }
}

void WriteMarkdown(const RulesDiff& d, const FindingsDiff& f, const RulesDiffOutput& o,
                   std::ostream& out) {
  out << "### Rule set diff\n\n| | version | ruleset digest |\n|---|---|---|\n";
  out << "| old | " << MarkdownCell(d.old_label, Cell::kCode) << " | "
      << MarkdownCell(d.old_digest, Cell::kCode) << " |\n";
  out << "| new | " << MarkdownCell(d.new_label, Cell::kCode) << " | "
      << MarkdownCell(d.new_digest, Cell::kCode) << " |\n";
  out << "\n**Rules:** " << RulesSummary(d) << "\n\n";
  for (const RuleSummary& r : d.added)
    out << "- added " << MarkdownCodeSpan(r.id) << " " << MarkdownCodeSpan(r.name) << " ("
        << r.severity << ")\n";
  for (const RuleSummary& r : d.removed)
    out << "- removed " << MarkdownCodeSpan(r.id) << " " << MarkdownCodeSpan(r.name) << " ("
        << r.severity << ")\n";
  for (const RuleChange& c : d.changed) {
    out << "- changed " << MarkdownCodeSpan(c.rule.id) << " " << MarkdownCodeSpan(c.rule.name)
        << "\n";
    for (const FieldChange& x : c.fields) FieldMarkdown(x, out);
    for (const FieldChange& x : c.params) FieldMarkdown(x, out);
    for (const ClauseChange& x : c.clauses) ClauseMarkdown(x, out);
  }
  std::string summary = FindingsSummary(f, o.fail_on);
  summary[0] = 'F';  // "findings over …" starts a sentence here
  out << "\n**" << summary << "**\n";
  ByRule by_rule = RulesOfFindings(f);
  if (!by_rule.changed.empty()) {
    out << "\n| rule | appeared | disappeared | severity changed | worse | better | unchanged |\n"
           "|---|---:|---:|---:|---:|---:|---:|\n";
    for (const auto& c : by_rule.changed) {
      out << "| " << MarkdownCell(c.rule, Cell::kCode);
      for (size_t n : Counts(c)) out << " | " << n;
      out << " |\n";
    }
  }
  if (by_rule.other_rules > 0) out << "\n" << OtherRules(by_rule) << ".\n";
  std::vector<std::pair<char, const DiffFinding*>> lines = Merged(f);
  if (lines.empty()) return;
  std::string left_out = Capped(&lines, o.max_findings);
  out << "\n```diff\n";
  for (const auto& [sign, x] : lines) out << FindingLine(sign, *x, o.fail_on) << '\n';
  out << "```\n";
  if (!left_out.empty()) out << "\n" << MarkdownText(left_out) << "\n";
}

}  // namespace

void WriteRulesDiff(const RulesDiff& rules, const FindingsDiff& findings,
                    const RulesDiffOutput& output, std::ostream& out) {
  if (output.format == Format::kJson) return WriteJson(rules, findings, output.fail_on, out);
  if (output.format == Format::kMarkdown) return WriteMarkdown(rules, findings, output, out);
  WriteText(rules, findings, output, out);
}

}  // namespace capops::report
