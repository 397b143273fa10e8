// SPDX-License-Identifier: Apache-2.0
// The frame, escaping and paths of the catalogue's pages (doc_page.h).
#include "engine/cli/doc_page.h"

#include <algorithm>
#include <system_error>

#include "engine/common/escape.h"
#include "engine/workspace/config_file.h"

namespace capops::cli::doc {

namespace fs = std::filesystem;

namespace {

constexpr const char* kStyle = R"css(
:root { --error: #c0262d; --warning: #b36b00; --info: #2563a8; --line: #d0d4da; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { font: 15px/1.5 system-ui, sans-serif; max-width: 62rem; margin: 0 auto; padding: 0 1rem 3rem; color: #1c1f24; }
h1 { font-size: 24px; margin: 20px 0 6px; }
h2 { font-size: 20px; border-bottom: 2px solid var(--line); padding-bottom: 4px; margin-top: 2.2rem; }
h3 { font-size: 16px; margin: 1.6rem 0 .4rem; overflow-wrap: anywhere; }
h3 a { color: inherit; text-decoration: none; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { background: #f5f6f8; padding: .6rem .75rem; white-space: pre-wrap; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; table-layout: auto; }
td, th { border: 1px solid var(--line); padding: .2rem .45rem; text-align: left; vertical-align: top; overflow-wrap: break-word; }
table.fields { table-layout: fixed; } table.fields td { overflow-wrap: anywhere; } table.fields td:last-child a { white-space: nowrap; }
col.name { width: 17%; } col.type { width: 17%; } col.presence { width: 11%; } col.meaning { width: 29%; }
th { background: #f5f6f8; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: .3rem 0; }
.meta dt { color: #5a6270; } .meta dd { margin: 0; overflow-wrap: anywhere; }
.rule { border-top: 1px solid var(--line); }
.sev-error { color: var(--error); } .sev-warning { color: var(--warning); } .sev-info { color: var(--info); }
.ok { color: #2a7a3b; } .gap { color: var(--error); font-weight: 600; }
.search { position: sticky; top: 0; background: #fff; padding: .5rem 0; border-bottom: 1px solid var(--line); z-index: 1; }
.search input { width: 100%; max-width: 32rem; font: inherit; padding: .3rem .5rem; }
nav ul { columns: 2; margin: .3rem 0; } nav li { break-inside: avoid; overflow-wrap: anywhere; }
@media print { .search { display: none; } details { display: block; } }
)css";

// The search box filters the rules by every word typed (the id, name, doc,
// rationale, fix, tags, owner and the fields read); `?q=` prefills it.
constexpr const char* kScript = R"js(
(function () {
  var box = document.getElementById('q');
  var rules = Array.prototype.slice.call(document.querySelectorAll('section.rule'));
  var areas = Array.prototype.slice.call(document.querySelectorAll('section.area'));
  var links = Array.prototype.slice.call(document.querySelectorAll('nav li[data-rule]'));
  function apply() {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean), shown = {}, count = 0;
    rules.forEach(function (r) {
      var text = r.getAttribute('data-text') || '';
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      r.hidden = !ok;
      if (ok) { shown[r.id] = true; count++; }
    });
    areas.forEach(function (a) { a.hidden = !a.querySelector('section.rule:not([hidden])'); });
    links.forEach(function (l) { l.hidden = !shown[l.getAttribute('data-rule')]; });
    document.getElementById('matches').textContent =
        words.length ? count + ' of ' + rules.length + ' rules match' : '';
    document.body.setAttribute('data-shown', String(count));
  }
  if (box) {
    var m = /[?&]q=([^&#]*)/.exec(location.search);
    if (m) box.value = decodeURIComponent(m[1].replace(/\+/g, ' '));
    box.addEventListener('input', apply);
    apply();
  }
  var width = document.documentElement.clientWidth, wide = 0, scrolled = 0;
  document.querySelectorAll('body *').forEach(function (e) {
    if (e.getBoundingClientRect().right > width + 1) wide++;
  });
  document.querySelectorAll('pre, td').forEach(function (e) {
    if (e.scrollWidth > e.clientWidth + 1) scrolled++;
  });
  document.body.setAttribute('data-wide', String(wide));
  document.body.setAttribute('data-scrolled', String(scrolled));
  document.body.setAttribute('data-ready', '1');
})();
)js";

// `p` absolute and normalised, without resolving links the user chose.
fs::path Absolute(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p).lexically_normal() : abs;
}

}  // namespace

std::string Html(std::string_view text) {
  return HtmlText(text);
}

std::string Md(std::string_view text) {
  return MarkdownText(text);
}

std::string Fragment(std::string_view id) {
  return PercentEncoded(id);
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

void MarkdownCode(const std::string& lang, const std::string& text, std::ostream& out) {
  std::string shown = Visible(text, Keep::kTabNewline);
  size_t longest = 0, run = 0;
  for (char c : shown) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  out << fence << lang << '\n'
      << shown << (shown.empty() || text.back() != '\n' ? "\n" : "") << fence << "\n\n";
}

void PageStart(const std::string& title, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
      << Html(title) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n";
}

void PageEnd(std::ostream& out) {
  out << "<script>" << kScript << "</script>\n</body>\n</html>\n";
}

CatalogPaths::CatalogPaths(const std::vector<fs::path>& roots) {
  for (const fs::path& root : roots) {
    fs::path abs = Absolute(root);
    std::error_code ec;
    fs::path dir =
        fs::is_regular_file(abs, ec) ? abs.parent_path() : abs;  // a policy file: its folder
    roots_.push_back({dir, dir.filename().string()});
  }
}

std::string CatalogPaths::Show(const std::string& path) const {
  return ShowBeside(path, roots_);
}

std::string CatalogPaths::ShowRead(const std::string& path, const std::string& reader) const {
  fs::path at = Absolute(reader);
  std::vector<Root> own;
  for (const Root& root : roots_) {
    if (!workspace::PathBelow(root.dir, at).empty()) own.push_back(root);
  }
  std::string below = ShowBeside(path, roots_, false);
  return below.empty() ? ShowBeside(path, own) : below;
}

// `path` under one of the roots, else (when `beside`) beside one of
// `nearby`, else its file name; "" when not under a root and not `beside`.
std::string CatalogPaths::ShowBeside(const std::string& path, const std::vector<Root>& nearby,
                                     bool beside) const {
  fs::path abs = Absolute(path);
  for (const Root& root : roots_) {
    if (fs::path rel = workspace::PathBelow(root.dir, abs); !rel.empty())
      return (fs::path(root.name) / rel).generic_string();
  }
  if (!beside) return "";
  // Beside a root (a pack's tests reading the examples next to it): from
  // the root's parent, or the parent's parent.
  for (int up = 1; up <= 2; ++up) {
    for (const Root& root : nearby) {
      fs::path dir = root.dir;
      for (int i = 0; i < up; ++i) dir = dir.parent_path();
      if (fs::path rel = workspace::PathBelow(dir, abs); !rel.empty()) return rel.generic_string();
    }
  }
  return abs.filename().generic_string();
}

std::string CatalogPaths::Show(const std::string& path, uint32_t line) const {
  return Show(path) + ":" + std::to_string(line);
}

}  // namespace capops::cli::doc
