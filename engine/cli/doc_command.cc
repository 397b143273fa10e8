// SPDX-License-Identifier: Apache-2.0
// The doc command: the rule catalogue and the fact schema, as Markdown and HTML.
#include "engine/cli/doc_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/doc_fixtures.h"
#include "engine/cli/doc_page.h"
#include "engine/cli/doc_schema.h"
#include "engine/cli/driver.h"
#include "engine/common/escape.h"
#include "engine/lint/rule_catalog.h"
#include "engine/workspace/output_file.h"
#include "engine/workspace/pack_locator.h"
#include "engine/workspace/policy_loader.h"
#include "engine/workspace/policy_tests.h"

namespace capops::cli {

namespace {

namespace fs = std::filesystem;

// The rules of one area: the pack file they are declared in
// (`allocation.cpl` → "allocation"), in the order of their first rule id.
struct Area {
  std::string name;
  std::string file;  // as the catalogue shows it
  std::vector<const lint::RuleEntry*> rules;
};

std::vector<Area> Areas(const Engine& engine, const std::vector<lint::RuleEntry>& rules,
                        const doc::CatalogPaths& paths) {
  std::vector<Area> areas;
  for (const lint::RuleEntry& e : rules) {
    FileId file = engine.program()->modules[e.info->module]->file;
    std::string path(engine.sources().Path(file));
    std::string name = fs::path(path).stem().string();
    auto it =
        std::find_if(areas.begin(), areas.end(), [&](const Area& a) { return a.name == name; });
    if (it == areas.end()) it = areas.insert(areas.end(), Area{name, paths.Show(path), {}});
    it->rules.push_back(&e);
  }
  return areas;
}

// What the catalogue says of the pack's tests.
struct Tests {
  size_t run = 0, failed = 0;
  std::vector<std::string> failures;  // names of failing tests
  std::optional<workspace::CoverageSummary> coverage;
  std::map<std::string, const workspace::RuleCoverage*> by_rule;
};

Tests RunTests(Engine* engine) {
  workspace::PolicyTestRun run = workspace::RunPolicyTests(engine, /*coverage=*/true);
  Tests t{run.results.size(), run.failed, {}, std::move(run.coverage), {}};
  for (const PolicyTestResult& r : run.results) {
    if (!r.passed) t.failures.push_back(r.name);
  }
  if (t.coverage) {
    for (const workspace::RuleCoverage& rc : t.coverage->rules) t.by_rule[rc.rule->id] = &rc;
  }
  return t;
}

std::string Percent(double p) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0f%%", p);
  return buf;
}

std::string TestsLine(const Tests& t) {
  std::string line =
      std::to_string(t.run) + " policy tests, " + std::to_string(t.failed) + " failing";
  if (t.coverage) {
    line += "; coverage: rules " + std::to_string(t.coverage->rules_covered) + "/" +
            std::to_string(t.coverage->rules.size()) + " (" + Percent(t.coverage->rule_percent()) +
            "), conditions " + std::to_string(t.coverage->clauses_covered) + "/" +
            std::to_string(t.coverage->clauses) + " (" + Percent(t.coverage->clause_percent()) +
            ")";
  }
  return line;
}

// One condition of a rule as the tests saw it: "covered", or what is missing.
const char* Seen(const workspace::Condition& c) {
  return c.covered()             ? "covered"
         : c.seen.seen_true > 0  ? "never false"
         : c.seen.seen_false > 0 ? "never true"
                                 : "never evaluated";
}

struct Shown {
  const Engine& engine;
  const doc::CatalogPaths& paths;
  const Tests& tests;
  const doc::Fixtures& fixtures;

  std::string ConditionAt(const workspace::Condition& c) const {
    SourceLoc loc = engine.sources().Resolve(c.span);
    return paths.Show(std::string(engine.sources().Path(loc.file)), loc.line);
  }
  const workspace::RuleCoverage* Coverage(const std::string& id) const {
    auto it = tests.by_rule.find(id);
    return it == tests.by_rule.end() ? nullptr : it->second;
  }
  std::string DefinedAt(const lint::RuleEntry& e) const {
    SourceLoc at = engine.sources().Resolve(e.info->rule->span);
    return paths.Show(std::string(engine.sources().Path(at.file)), at.line);
  }
};

void WriteMarkdown(const Shown& s, const std::vector<Area>& areas, size_t rule_count,
                   std::ostream& out) {
  using doc::Md;
  out << "# Rule catalogue\n\n"
      << rule_count << " rules in " << areas.size() << " areas; ruleset digest `"
      << s.engine.ruleset_digest() << "`; " << Md(TestsLine(s.tests))
      << ". The facts they read: [fact schema](schema.md); the test fixtures several rules share: "
         "[shared fixtures](fixtures.md).\n";
  for (const std::string& name : s.tests.failures) out << "\n- failing test: " << Md(name);
  out << "\n";
  for (const Area& a : areas) {
    out << "\n- [" << Md(a.name) << "](#area-" << doc::Html(a.name) << ")\n";
    for (const lint::RuleEntry* e : a.rules)
      out << "  - [" << Md(e->info->id) << " " << Md(e->info->rule->name) << "](#"
          << doc::Fragment(e->info->id) << ")\n";
  }
  for (const Area& a : areas) {
    out << "\n<a id=\"area-" << doc::Html(a.name) << "\"></a>\n## " << Md(a.name) << "\n\n"
        << a.rules.size() << " rules in " << MarkdownCodeSpan(a.file) << ".\n";
    for (const lint::RuleEntry* entry : a.rules) {
      const lint::RuleEntry& e = *entry;
      const check::RuleInfo& r = *e.info;
      out << "\n<a id=\"" << doc::Html(r.id) << "\"></a>\n### " << Md(r.id) << " "
          << MarkdownCodeSpan(r.rule->name) << "\n\n";
      // One line each, whatever the text holds: a list item as a table's cell.
      out << "- severity: " << SeverityName(r.severity)
          << "\n- owner: " << MarkdownCell(r.owner, Cell::kText)
          << "\n- source: " << MarkdownCell(r.source, Cell::kText)
          << "\n- defined at: " << MarkdownCodeSpan(s.DefinedAt(e))
          << "\n- cost: " << MarkdownCodeSpan(r.cost) << "\n";
      if (!r.tags.empty()) out << "- tags: " << Md(lint::Joined(r.tags, ", ")) << '\n';
      if (!e.fields.empty()) {
        out << "- reads:";
        for (size_t i = 0; i < e.fields.size(); ++i)
          out << (i == 0 ? " " : ", ") << "[`" << Visible(e.fields[i]) << "`](schema.md#"
              << doc::Html(e.fields[i].substr(0, e.fields[i].find('.'))) << ")";
        out << '\n';
      }
      if (!r.rule->doc.empty()) out << '\n' << Md(r.rule->doc) << '\n';
      for (const std::string& b : e.because) out << "\n**Why:** " << Md(b) << '\n';
      for (const std::string& f : e.fix) out << "\n**Fix:** " << Md(f) << '\n';
      if (!e.params.empty()) out << "\n| param | type | value | default |\n|---|---|---|---|\n";
      for (const lint::ParamEntry& p : e.params) {
        out << "| " << MarkdownCell(p.name, Cell::kCode) << " | "
            << MarkdownCell(p.type, Cell::kCode) << " | " << MarkdownCell(p.value, Cell::kCode)
            << " | " << MarkdownCell(p.default_text, Cell::kCode) << " |\n";
      }
      if (const workspace::RuleCoverage* rc = s.Coverage(r.id)) {
        out << "\n**Tests:** " << (rc->fired ? "fired" : "**never fired**") << ", "
            << (rc->quiet ? "quiet" : "**never quiet**") << ".\n";
        if (!rc->conditions.empty()) out << "\n| condition | at | tests |\n|---|---|---|\n";
        for (const workspace::Condition& c : rc->conditions) {
          out << "| " << MarkdownCell(workspace::ConditionText(s.engine.sources(), c), Cell::kCode)
              << " | " << MarkdownCell(s.ConditionAt(c), Cell::kCode) << " | " << Seen(c) << " |\n";
        }
      }
      out << "\n#### Source\n\n";
      doc::MarkdownCode("", e.source, out);
      s.fixtures.WriteRuleMarkdown(r.id, out);
    }
  }
}

// What the search box matches a rule on.
std::string SearchText(const lint::RuleEntry& e) {
  const check::RuleInfo& r = *e.info;
  std::string text = r.id + " " + r.rule->name + " " + r.rule->doc + " " + r.owner + " " +
                     SeverityName(r.severity) + " " + lint::Joined(r.tags, " ") + " " +
                     lint::Joined(e.because, " ") + " " + lint::Joined(e.fix, " ") + " " +
                     lint::Joined(e.fields, " ");
  for (const lint::ParamEntry& p : e.params) text += " " + p.name;
  return doc::Lower(text);
}

void WriteHtmlRule(const Shown& s, const lint::RuleEntry& e, std::ostream& out) {
  using doc::Html;
  const check::RuleInfo& r = *e.info;
  const char* sev = SeverityName(r.severity);
  out << "<section class=\"rule\" id=\"" << Html(r.id) << "\" data-text=\"" << Html(SearchText(e))
      << "\">\n<h3><a href=\"#" << Html(r.id) << "\">" << Html(r.id) << "</a> <code>"
      << Html(r.rule->name) << "</code> <span class=\"sev-" << sev << "\">" << sev
      << "</span></h3>\n<dl class=\"meta\"><dt>owner</dt><dd>" << Html(r.owner)
      << "</dd><dt>source</dt><dd>" << Html(r.source) << "</dd><dt>defined at</dt><dd><code>"
      << Html(s.DefinedAt(e)) << "</code></dd><dt>cost</dt><dd><code>" << Html(r.cost)
      << "</code></dd>";
  if (!r.tags.empty()) out << "<dt>tags</dt><dd>" << Html(lint::Joined(r.tags, ", ")) << "</dd>";
  if (!e.fields.empty()) {
    out << "<dt>reads</dt><dd>";
    for (size_t i = 0; i < e.fields.size(); ++i)
      out << (i == 0 ? "" : ", ") << "<a href=\"schema.html#" << Html(e.fields[i]) << "\"><code>"
          << Html(e.fields[i]) << "</code></a>";
    out << "</dd>";
  }
  out << "</dl>\n";
  if (!r.rule->doc.empty()) out << "<p>" << Html(r.rule->doc) << "</p>\n";
  for (const std::string& b : e.because) out << "<p><strong>Why:</strong> " << Html(b) << "</p>\n";
  for (const std::string& f : e.fix) out << "<p><strong>Fix:</strong> " << Html(f) << "</p>\n";
  if (!e.params.empty())
    out << "<table>\n<tr><th>param</th><th>type</th><th>value</th><th>default</th></tr>\n";
  for (const lint::ParamEntry& p : e.params) {
    out << "<tr><td><code>" << Html(p.name) << "</code></td><td><code>" << Html(p.type)
        << "</code></td><td><code>" << Html(p.value) << "</code></td><td><code>"
        << Html(p.default_text) << "</code></td></tr>\n";
  }
  if (!e.params.empty()) out << "</table>\n";
  if (const workspace::RuleCoverage* rc = s.Coverage(r.id)) {
    out << "<p class=\"tests\">Tests: <span class=\""
        << (rc->fired ? "ok\">fired" : "gap\">never fired") << "</span>, <span class=\""
        << (rc->quiet ? "ok\">quiet" : "gap\">never quiet") << "</span></p>\n";
    if (!rc->conditions.empty())
      out << "<table class=\"conditions\">\n<tr><th>condition</th><th>at</th><th>tests</th></tr>\n";
    for (const workspace::Condition& c : rc->conditions) {
      out << "<tr><td><code>" << Html(workspace::ConditionText(s.engine.sources(), c))
          << "</code></td><td><code>" << Html(s.ConditionAt(c)) << "</code></td><td class=\""
          << (c.covered() ? "ok" : "gap") << "\">" << Seen(c) << "</td></tr>\n";
    }
    if (!rc->conditions.empty()) out << "</table>\n";
  }
  out << "<details open><summary>CPL source</summary>\n<pre><code>" << Html(e.source)
      << "</code></pre>\n</details>\n";
  s.fixtures.WriteRuleHtml(r.id, out);
  out << "</section>\n";
}

void WriteHtml(const Shown& s, const std::vector<Area>& areas, size_t rule_count,
               std::ostream& out) {
  using doc::Html;
  doc::PageStart("Rule catalogue", out);
  out << "<h1>Rule catalogue</h1>\n<p>" << rule_count << " rules in " << areas.size()
      << " areas; ruleset digest <code>" << Html(s.engine.ruleset_digest()) << "</code>; "
      << Html(TestsLine(s.tests))
      << ". The facts they read: <a href=\"schema.html\">fact schema</a>; the test fixtures "
         "several rules share: <a href=\"fixtures.html\">shared fixtures</a>.</p>\n";
  if (!s.tests.failures.empty()) {
    out << "<ul class=\"gap\">\n";
    for (const std::string& name : s.tests.failures)
      out << "<li>failing test: " << Html(name) << "</li>\n";
    out << "</ul>\n";
  }
  out << "<div class=\"search\"><input type=\"search\" id=\"q\" placeholder=\"Search rules: id, "
         "name, "
         "text, field read (e.g. floor, Pool.hosts)\" aria-label=\"Search rules\"> <span "
         "id=\"matches\"></span></div>\n<nav><ul>\n";
  for (const Area& a : areas) {
    out << "<li><a href=\"#area-" << Html(a.name) << "\">" << Html(a.name) << "</a> ("
        << a.rules.size() << ")<ul>\n";
    for (const lint::RuleEntry* e : a.rules)
      out << "<li data-rule=\"" << Html(e->info->id) << "\"><a href=\"#" << Html(e->info->id)
          << "\">" << Html(e->info->id) << " " << Html(e->info->rule->name) << "</a></li>\n";
    out << "</ul></li>\n";
  }
  out << "</ul></nav>\n";
  for (const Area& a : areas) {
    out << "<section class=\"area\" id=\"area-" << Html(a.name) << "\">\n<h2>" << Html(a.name)
        << "</h2>\n<p>" << a.rules.size() << " rules in <code>" << Html(a.file) << "</code></p>\n";
    for (const lint::RuleEntry* e : a.rules) WriteHtmlRule(s, *e, out);
    out << "</section>\n";
  }
  doc::PageEnd(out);
}

}  // namespace

int RunDoc(const DocOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine;
  std::string error;
  if (!LoadPack(options.policies, false, &engine, err)) return kExitUsage;
  std::error_code ec;
  fs::create_directories(options.out_dir, ec);
  if (ec) return Fail(err, "cannot create `" + options.out_dir + "`: " + ec.message());
  Tests tests = RunTests(&engine);
  std::vector<lint::RuleEntry> rules = lint::BuildCatalog(engine);
  std::optional<std::vector<fs::path>> roots = workspace::PolicyRoots(options.policies, &error);
  if (!roots) return Fail(err, error);
  doc::CatalogPaths paths(*roots);
  std::vector<Area> areas = Areas(engine, rules, paths);
  doc::Fixtures fixtures(engine, paths);
  Shown shown{engine, paths, tests, fixtures};
  std::ostringstream md, html, schema_md, schema_html, fixtures_md, fixtures_html;
  WriteMarkdown(shown, areas, rules.size(), md);
  WriteHtml(shown, areas, rules.size(), html);
  doc::WriteSchema(engine, paths, lint::FieldReaders(rules), schema_html, schema_md);
  fixtures.WritePages(fixtures_html, fixtures_md);
  fs::path dir(options.out_dir);
  for (const auto& [name, text] :
       {std::pair{"rules.md", &md}, std::pair{"index.html", &html},
        std::pair{"schema.md", &schema_md}, std::pair{"schema.html", &schema_html},
        std::pair{"fixtures.md", &fixtures_md}, std::pair{"fixtures.html", &fixtures_html}}) {
    if (!workspace::WriteFileAtomically((dir / name).string(), text->str(), &error))
      return Fail(err, error);
  }
  out << "wrote " << (dir / "index.html").string()
      << ", schema.html, fixtures.html, rules.md, schema.md and fixtures.md (" << rules.size()
      << " rules; " << TestsLine(tests) << "; " << fixtures.shared() << " shared fixtures)\n";
  return kExitClean;
}

}  // namespace capops::cli
