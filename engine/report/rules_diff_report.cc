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

std::string FindingsSummary(const FindingsDiff& f) {
  return "findings over " + Plural(f.fixtures, "test fact set") + " and " +
         Plural(f.plans, "plan file") + ": " + std::to_string(f.disappeared.size()) +
         " disappeared, " + std::to_string(f.appeared.size()) + " appeared, " +
         std::to_string(f.unchanged.size()) + " unchanged";
}

// `- RULE file:line:col fact-path  message`
std::string FindingLine(char sign, const DiffFinding& f) {
  std::string out = std::string(1, sign) + " " + f.rule + " " + f.file + ":" +
                    std::to_string(f.line) + ":" + std::to_string(f.column);
  if (!f.at.empty()) out += " " + f.at;
  // Facts and file names are untrusted: one line, no control byte.
  return Visible(out + "  " + f.message);
}

// Both lists, merged in file order; each line with its sign.
std::vector<std::pair<char, const DiffFinding*>> Merged(const FindingsDiff& f) {
  std::vector<std::pair<char, const DiffFinding*>> lines;
  for (const DiffFinding& x : f.disappeared) lines.emplace_back('-', &x);
  for (const DiffFinding& x : f.appeared) lines.emplace_back('+', &x);
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) {
    return std::tie(a.second->file, a.second->line, a.second->column) <
           std::tie(b.second->file, b.second->line, b.second->column);
  });
  return lines;
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

void WriteText(const RulesDiff& d, const FindingsDiff& f, std::ostream& out) {
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
  out << '\n' << FindingsSummary(f) << '\n';
  std::string file;
  for (const auto& [sign, x] : Merged(f)) {
    if (x->file != file) out << Visible(file = x->file) << '\n';
    out << "  " << FindingLine(sign, *x) << '\n';
  }
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

json FindingsJson(const std::vector<DiffFinding>& findings) {
  json list = json::array();
  for (const DiffFinding& f : findings) {
    list.push_back({{"rule", f.rule},
                    {"severity", f.severity},
                    {"message", f.message},
                    {"location", {{"file", f.file}, {"line", f.line}, {"column", f.column}}},
                    {"at", f.at},
                    {"key", f.key}});
  }
  return list;
}

void WriteJson(const RulesDiff& d, const FindingsDiff& f, std::ostream& out) {
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
              {"findings",
               {{"disappeared", FindingsJson(f.disappeared)},
                {"appeared", FindingsJson(f.appeared)},
                {"unchanged", f.unchanged.size()},
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

void WriteMarkdown(const RulesDiff& d, const FindingsDiff& f, std::ostream& out) {
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
  std::string summary = FindingsSummary(f);
  summary[0] = 'F';  // "findings over …" starts a sentence here
  out << "\n**" << summary << "**\n";
  if (f.appeared.empty() && f.disappeared.empty()) return;
  out << "\n```diff\n";
  for (const auto& [sign, x] : Merged(f)) out << FindingLine(sign, *x) << '\n';
  out << "```\n";
}

}  // namespace

void WriteRulesDiff(const RulesDiff& rules, const FindingsDiff& findings, Format format,
                    std::ostream& out) {
  if (format == Format::kJson) return WriteJson(rules, findings, out);
  if (format == Format::kMarkdown) return WriteMarkdown(rules, findings, out);
  WriteText(rules, findings, out);
}

}  // namespace capops::report
