// SPDX-License-Identifier: Apache-2.0
// The test fixtures of the catalogue (doc_fixtures.h): read once, inline in
// the one rule entry that shows them, else on the fixtures page.
#include "engine/cli/doc_fixtures.h"

#include <filesystem>
#include <set>

#include "engine/common/escape.h"
#include "engine/workspace/pack_locator.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli::doc {

namespace {

namespace fs = std::filesystem;

// `text` as part of an HTML id and a link's fragment alike: ASCII letters
// (lowercased), digits, `.`, `_` and `-`; anything else a `-`.
std::string Slug(std::string_view text) {
  std::string out;
  for (char c : Lower(text)) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_';
    out += keep ? c : '-';
  }
  return out;
}

// The rules one test reads a fixture for.
struct TestUses {
  std::string test;
  std::vector<std::string> fires, quiet;
};

}  // namespace

Fixtures::Fixtures(const Engine& engine, const CatalogPaths& paths) {
  using Kind = syntax::TestDecl::Facts::Kind;
  std::map<std::string, size_t> index;  // a fixture's file (and test, inline) → fixtures_
  for (const PolicyTest& t : engine.Tests()) {
    const std::string& test = t.decl->name;
    std::set<std::string> fires, quiet;
    for (const syntax::TestExpectation& e : t.decl->expectations)
      (e.none ? quiet : fires).insert(e.rule_id);
    std::vector<size_t> facts;
    for (const syntax::TestDecl::Facts& f : t.decl->facts) {
      bool inline_yaml = f.kind == Kind::kInlineYaml;
      std::string path =
          inline_yaml ? t.path
                      : (fs::path(t.path).parent_path() / f.value).lexically_normal().string();
      std::string key = inline_yaml ? path + '\n' + test + '\n' + f.value : path;
      auto [it, added] = index.emplace(key, fixtures_.size());
      facts.push_back(it->second);
      if (!added) continue;
      Fixture x{paths.ShowRead(path, t.path), inline_yaml ? test : "", f.value, "", {}};
      std::string error;
      if (!inline_yaml && !workspace::ReadFile(path, &x.text, &error, kMaxFixtureBytes))
        x.text = "# " + error;
      if (x.text.size() > kMaxFixtureBytes)
        x.text = x.text.substr(0, kMaxFixtureBytes) + "\n# …cut\n";
      fixtures_.push_back(std::move(x));
    }
    for (const std::string& id : fires) {
      for (size_t i : facts) {
        by_rule_[id].fires.push_back({i, test});
        fixtures_[i].uses.push_back({id, true, test});
      }
    }
    for (const std::string& id : quiet) {
      if (fires.count(id) != 0) continue;
      for (size_t i : facts) {
        by_rule_[id].quiet.push_back({i, test});
        fixtures_[i].uses.push_back({id, false, test});
      }
    }
  }
  std::set<std::string> taken;
  for (Fixture& f : fixtures_) {
    if (f.uses.size() < 2) continue;  // shown once anyway: inline
    std::string base =
        "fixture-" + Slug(f.inline_test.empty() ? f.shown : f.shown + " " + f.inline_test);
    f.anchor = base;
    for (int n = 2; !taken.insert(f.anchor).second; ++n) f.anchor = base + "-" + std::to_string(n);
  }
}

size_t Fixtures::shared() const {
  size_t n = 0;
  for (const Fixture& f : fixtures_) n += f.anchor.empty() ? 0 : 1;
  return n;
}

std::string Fixtures::Title(const Fixture& f) const {
  return f.inline_test.empty() ? "" : " (inline in test \"" + f.inline_test + "\")";
}

Fixtures::RuleView Fixtures::View(const std::string& id) const {
  RuleView view;
  auto it = by_rule_.find(id);
  if (it == by_rule_.end()) return view;
  for (bool fires : {true, false}) {
    for (const Example& ex : fires ? it->second.fires : it->second.quiet) {
      if (fixtures_[ex.fixture].anchor.empty()) {
        view.own.push_back({fires, &ex});
        continue;
      }
      if (view.shared.empty() || view.shared.back().fires != fires ||
          view.shared.back().test != ex.test)
        view.shared.push_back({fires, ex.test, {}});
      view.shared.back().fixtures.push_back(ex.fixture);
    }
  }
  return view;
}

std::string Fixtures::SharedLines(const RuleView& view, const Markup& m) const {
  std::string out;
  for (const RuleView::Group& g : view.shared) {
    out += m.item_open;
    out += g.fires ? "fires on " : "quiet on ";
    for (size_t i = 0; i < g.fixtures.size(); ++i) {
      const Fixture& f = fixtures_[g.fixtures[i]];
      out += (i == 0 ? "" : ", ") + m.link(f.shown, f.anchor);
    }
    out += m.test(g.test) + m.item_close;
  }
  return out;
}

namespace {

std::string MdTest(const std::string& name) {
  return " (test \"" + Md(name) + "\")";
}
std::string HtmlTest(const std::string& name) {
  return " (test “" + Html(name) + "”)";
}

}  // namespace

void Fixtures::WriteRuleMarkdown(const std::string& id, std::ostream& out) const {
  RuleView view = View(id);
  for (const auto& [fires, ex] : view.own) {
    const Fixture& f = fixtures_[ex->fixture];
    out << "#### " << (fires ? "Fires on " : "Quiet on ") << MarkdownCodeSpan(f.shown)
        << MdTest(ex->test) << "\n\n";
    MarkdownCode("yaml", f.text, out);
  }
  if (view.shared.empty()) return;
  auto link = [](const std::string& shown, const std::string& anchor) {
    return "[" + MarkdownCodeSpan(shown) + "](fixtures.md#" + Fragment(anchor) + ")";
  };
  out << "#### Fixtures shared with other rules\n\n"
      << SharedLines(view, {"- ", "\n", link, MdTest}) << '\n';
}

void Fixtures::WriteRuleHtml(const std::string& id, std::ostream& out) const {
  RuleView view = View(id);
  for (const auto& [fires, ex] : view.own) {
    const Fixture& f = fixtures_[ex->fixture];
    out << "<details><summary>" << (fires ? "fires on" : "quiet on") << " <code>" << Html(f.shown)
        << "</code>" << HtmlTest(ex->test) << "</summary>\n<pre><code>" << Html(f.text)
        << "</code></pre>\n</details>\n";
  }
  if (view.shared.empty()) return;
  auto link = [](const std::string& shown, const std::string& anchor) {
    return "<a href=\"fixtures.html#" + Html(anchor) + "\"><code>" + Html(shown) + "</code></a>";
  };
  out << "<p>Fixtures shared with other rules:</p>\n<ul class=\"fixtures\">\n"
      << SharedLines(view, {"<li>", "</li>\n", link, HtmlTest}) << "</ul>\n";
}

namespace {

// A fixture's readers, test by test in the order the tests came.
template <typename Use>
std::vector<TestUses> ByTest(const std::vector<Use>& uses) {
  std::vector<TestUses> out;
  for (const Use& u : uses) {
    if (out.empty() || out.back().test != u.test) out.push_back({u.test, {}, {}});
    (u.fires ? out.back().fires : out.back().quiet).push_back(u.rule);
  }
  return out;
}

// "fires on A, B; quiet on C", each id a link made by `link`.
template <typename Link>
std::string RuleList(const TestUses& t, Link link) {
  std::string out;
  for (const auto& [title, ids] :
       {std::pair{"fires on ", &t.fires}, std::pair{"quiet on ", &t.quiet}}) {
    if (ids->empty()) continue;
    out += out.empty() ? title : std::string("; ") + title;
    for (size_t i = 0; i < ids->size(); ++i) out += (i == 0 ? "" : ", ") + link((*ids)[i]);
  }
  return out;
}

}  // namespace

void Fixtures::WritePages(std::ostream& html, std::ostream& md) const {
  const char* intro =
      " fact files that the tests of more than one rule read, each shown once here; the rule "
      "catalogue links each rule to those it is tested on.";
  size_t count = shared();
  md << "# Shared test fixtures\n\n"
     << count << intro << " Back to the [rule catalogue](rules.md).\n\n";
  PageStart("Shared test fixtures", html);
  html << "<h1>Shared test fixtures</h1>\n<p>" << count << intro
       << " Back to the <a href=\"index.html\">rule catalogue</a>.</p>\n<nav><ul>\n";
  for (const Fixture& f : fixtures_) {
    if (f.anchor.empty()) continue;
    md << "- [" << MarkdownCodeSpan(f.shown) << "](#" << Fragment(f.anchor) << ")" << Md(Title(f))
       << '\n';
    html << "<li><a href=\"#" << Html(f.anchor) << "\"><code>" << Html(f.shown) << "</code></a>"
         << Html(Title(f)) << "</li>\n";
  }
  html << "</ul></nav>\n";
  for (const Fixture& f : fixtures_) {
    if (f.anchor.empty()) continue;
    md << "\n<a id=\"" << Html(f.anchor) << "\"></a>\n## " << MarkdownCodeSpan(f.shown)
       << Md(Title(f)) << "\n\n";
    html << "<section class=\"fixture\" id=\"" << Html(f.anchor) << "\">\n<h2><code>"
         << Html(f.shown) << "</code>" << Html(Title(f)) << "</h2>\n<ul>\n";
    for (const TestUses& t : ByTest(f.uses)) {
      md << "- test \"" << Md(t.test) << "\": " << RuleList(t, [](const std::string& id) {
        return "[" + Md(id) + "](rules.md#" + Fragment(id) + ")";
      }) << '\n';
      html << "<li>test “" << Html(t.test) << "”: " << RuleList(t, [](const std::string& id) {
        return "<a href=\"index.html#" + Html(id) + "\">" + Html(id) + "</a>";
      }) << "</li>\n";
    }
    md << '\n';
    MarkdownCode("yaml", f.text, md);
    html << "</ul>\n<pre><code>" << Html(f.text) << "</code></pre>\n</section>\n";
  }
  PageEnd(html);
}

}  // namespace capops::cli::doc
