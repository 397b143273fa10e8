// The doc command: render the rule catalogue as Markdown and one HTML page.
#include "engine/cli/doc_command.h"

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/lint/output_file.h"
#include "engine/lint/pack_locator.h"
#include "engine/lint/policy_loader.h"
#include "engine/lint/rule_catalog.h"
#include "engine/common/escape.h"

namespace capops::cli {

namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxExampleBytes = 6000;  // a longer fixture is cut in the docs

struct Example {
  std::string test;  // the test's name
  std::string path;  // the fact file, or the test file for inline YAML
  std::string text;
};

struct RuleExamples {
  std::vector<Example> fires, quiet;
};

// The fact sources of the tests that name each rule: `expect` → fires,
// `expect_none` (and no `expect` of the rule) → quiet.
std::map<std::string, RuleExamples> CollectExamples(const Engine& engine) {
  std::map<std::string, RuleExamples> examples;
  for (const PolicyTest& t : engine.Tests()) {
    std::set<std::string> fires, quiet;
    for (const syntax::TestExpectation& e : t.decl->expectations)
      (e.none ? quiet : fires).insert(e.rule_id);
    std::vector<Example> facts;
    for (const syntax::TestDecl::Facts& f : t.decl->facts) {
      Example ex{t.decl->name, t.path, f.value};
      if (f.kind != syntax::TestDecl::Facts::Kind::kInlineYaml) {
        ex.path = (fs::path(t.path).parent_path() / f.value).lexically_normal().string();
        std::string error;
        if (!lint::ReadFile(ex.path, &ex.text, &error, kMaxExampleBytes)) ex.text = "# " + error;
      }
      if (ex.text.size() > kMaxExampleBytes)
        ex.text = ex.text.substr(0, kMaxExampleBytes) + "\n# …cut\n";
      facts.push_back(std::move(ex));
    }
    for (const std::string& id : fires) {
      for (const Example& ex : facts) examples[id].fires.push_back(ex);
    }
    for (const std::string& id : quiet) {
      if (fires.count(id) != 0) continue;
      for (const Example& ex : facts) examples[id].quiet.push_back(ex);
    }
  }
  return examples;
}

// Rule text and example facts as HTML: entities, and control characters or
// bytes that are not UTF-8 shown as escapes (escape.h), so the page parses.
std::string Html(std::string_view text) {
  return HtmlText(text);
}

// Rule text as Markdown prose: raw HTML in a rule's doc must stay text.
std::string Md(std::string_view text) {
  return MarkdownText(text);
}

// A fence longer than any backtick run in the text, so the text cannot end it.
std::string Fence(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

void MarkdownCode(const std::string& lang, const std::string& text, std::ostream& out) {
  std::string shown = Visible(text, Keep::kTabNewline);
  std::string fence = Fence(shown);
  out << fence << lang << '\n'
      << shown << (shown.empty() || text.back() != '\n' ? "\n" : "") << fence << "\n\n";
}

void WriteMarkdown(const Engine& engine, const std::vector<lint::RuleEntry>& rules,
                   const std::map<std::string, RuleExamples>& examples, std::ostream& out) {
  out << "# Rule catalogue\n\n"
      << rules.size() << " rules; ruleset digest `" << engine.ruleset_digest() << "`.\n\n";
  for (const lint::RuleEntry& e : rules)
    out << "- [" << Md(e.info->id) << " " << Md(e.info->rule->name) << "](#" << Html(e.info->id)
        << ")\n";
  for (const lint::RuleEntry& e : rules) {
    const check::RuleInfo& r = *e.info;
    out << "\n<a id=\"" << Html(r.id) << "\"></a>\n## " << Md(r.id) << " `" << Visible(r.rule->name)
        << "`\n\n";
    out << "- severity: " << SeverityName(r.severity) << "\n- owner: " << Md(r.owner)
        << "\n- source: " << Md(r.source) << "\n- defined at: `" << Visible(e.defined_at) << "`\n";
    if (!r.tags.empty()) out << "- tags: " << Md(lint::Joined(r.tags, ", ")) << '\n';
    if (!r.rule->doc.empty()) out << '\n' << Md(r.rule->doc) << '\n';
    for (const std::string& b : e.because) out << "\n**Why:** " << Md(b) << '\n';
    for (const std::string& f : e.fix) out << "\n**Fix:** " << Md(f) << '\n';
    if (!e.params.empty()) out << "\n| param | type | value | default |\n|---|---|---|---|\n";
    for (const lint::ParamEntry& p : e.params) {
      out << "| `" << Visible(p.name) << "` | `" << Visible(p.type) << "` | `" << Visible(p.value)
          << "` | `" << Visible(p.default_text) << "` |\n";
    }
    out << "\n### Source\n\n";
    MarkdownCode("", e.source, out);
    auto it = examples.find(r.id);
    if (it == examples.end()) continue;
    for (const auto& [title, list] :
         {std::pair{"Fires on", &it->second.fires}, std::pair{"Quiet on", &it->second.quiet}}) {
      for (const Example& ex : *list) {
        out << "### " << title << " `" << Visible(ex.path) << "` (test \"" << Md(ex.test)
            << "\")\n\n";
        MarkdownCode("yaml", ex.text, out);
      }
    }
  }
}

const char* kStyle =
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 "
    "1rem;line-height:1.45}"
    "pre{background:#f5f5f5;padding:.75rem;overflow-x:auto}code{font-size:90%}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem "
    ".5rem;text-align:left}"
    "section{border-top:1px solid "
    "#ddd;margin-top:2rem}.sev-error{color:#b00}.sev-warning{color:#a60}";

void WriteHtml(const Engine& engine, const std::vector<lint::RuleEntry>& rules,
               const std::map<std::string, RuleExamples>& examples, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Rule "
         "catalogue</title>\n"
      << "<style>" << kStyle << "</style>\n</head>\n<body>\n<h1>Rule catalogue</h1>\n<p>"
      << rules.size() << " rules; ruleset digest <code>" << Html(engine.ruleset_digest())
      << "</code></p>\n<ul>\n";
  for (const lint::RuleEntry& e : rules) {
    out << "<li><a href=\"#" << Html(e.info->id) << "\">" << Html(e.info->id) << " "
        << Html(e.info->rule->name) << "</a></li>\n";
  }
  out << "</ul>\n";
  for (const lint::RuleEntry& e : rules) {
    const check::RuleInfo& r = *e.info;
    const char* sev = SeverityName(r.severity);
    out << "<section id=\"" << Html(r.id) << "\">\n<h2>" << Html(r.id) << " <code>"
        << Html(r.rule->name) << "</code> <span class=\"sev-" << sev << "\">" << sev
        << "</span></h2>\n<p>owner: " << Html(r.owner) << "<br>source: " << Html(r.source)
        << "<br>defined at: <code>" << Html(e.defined_at) << "</code>";
    if (!r.tags.empty()) out << "<br>tags: " << Html(lint::Joined(r.tags, ", "));
    out << "</p>\n";
    if (!r.rule->doc.empty()) out << "<p>" << Html(r.rule->doc) << "</p>\n";
    for (const std::string& b : e.because)
      out << "<p><strong>Why:</strong> " << Html(b) << "</p>\n";
    for (const std::string& f : e.fix) out << "<p><strong>Fix:</strong> " << Html(f) << "</p>\n";
    if (!e.params.empty())
      out << "<table>\n<tr><th>param</th><th>type</th><th>value</th><th>default</th></tr>\n";
    for (const lint::ParamEntry& p : e.params) {
      out << "<tr><td><code>" << Html(p.name) << "</code></td><td><code>" << Html(p.type)
          << "</code></td><td><code>" << Html(p.value) << "</code></td><td><code>"
          << Html(p.default_text) << "</code></td></tr>\n";
    }
    if (!e.params.empty()) out << "</table>\n";
    out << "<details open><summary>CPL source</summary>\n<pre><code>" << Html(e.source)
        << "</code></pre>\n</details>\n";
    auto it = examples.find(r.id);
    if (it != examples.end()) {
      for (const auto& [title, list] :
           {std::pair{"fires on", &it->second.fires}, std::pair{"quiet on", &it->second.quiet}}) {
        for (const Example& ex : *list) {
          out << "<details><summary>" << title << " <code>" << Html(ex.path)
              << "</code></summary>\n<pre><code>" << Html(ex.text) << "</code></pre>\n</details>\n";
        }
      }
    }
    out << "</section>\n";
  }
  out << "</body>\n</html>\n";
}

}  // namespace

int RunDoc(const DocOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine;
  std::string error;
  if (!lint::LoadPolicies(options.policies, &engine, &error)) return Fail(err, error);
  if (!CompileOrReport(&engine, false, err)) return kExitUsage;
  std::error_code ec;
  fs::create_directories(options.out_dir, ec);
  if (ec) return Fail(err, "cannot create `" + options.out_dir + "`: " + ec.message());
  std::vector<lint::RuleEntry> rules = lint::BuildCatalog(engine);
  std::map<std::string, RuleExamples> examples = CollectExamples(engine);
  std::ostringstream md, html;
  WriteMarkdown(engine, rules, examples, md);
  WriteHtml(engine, rules, examples, html);
  fs::path dir(options.out_dir);
  if (!lint::WriteFileAtomically((dir / "rules.md").string(), md.str(), &error) ||
      !lint::WriteFileAtomically((dir / "index.html").string(), html.str(), &error)) {
    return Fail(err, error);
  }
  out << "wrote " << (dir / "rules.md").string() << " and " << (dir / "index.html").string() << " ("
      << rules.size() << " rules)\n";
  return kExitClean;
}

}  // namespace capops::cli
