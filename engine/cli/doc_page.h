// SPDX-License-Identifier: Apache-2.0
// What the pages of `capops-lint doc` share: escaping for HTML and
// Markdown, code fences, the page frame with its style and script, and the
// paths the pages show (relative to the pack or stdlib they come from, never
// the machine's absolute paths).
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace capops::cli::doc {

/// Text as HTML (entities; control characters and bytes that are not UTF-8
/// shown as escapes, so the page parses).
std::string Html(std::string_view text);
/// Text as Markdown prose: raw HTML in a doc comment stays text.
std::string Md(std::string_view text);
/// `id` as the fragment of a Markdown link (`rules.md#…`): percent-encoded
/// but for ASCII letters, digits and `-._~`, so that nothing in it can end
/// the link or a table cell; a browser decodes it to match `id="…"`.
std::string Fragment(std::string_view id);
/// ASCII-lowercased text, for the search index of a rule.
std::string Lower(std::string_view text);
/// A fenced Markdown code block whose fence no backtick run in `text` can end.
void MarkdownCode(const std::string& lang, const std::string& text, std::ostream& out);

/// The start of a page: doctype, title, style and the page's header line.
void PageStart(const std::string& title, std::ostream& out);
/// The end of a page, with its script: the search box (when the page has
/// one, prefilled from `?q=`) and the layout checks a browser test reads
/// from `<body>` (`data-ready`, `data-wide`, `data-scrolled`).
void PageEnd(std::ostream& out);

/// The paths the catalogue shows, never absolute: a file under one of the
/// roots it was built from (the stdlib, each policy path) as `<root
/// name>/<path below it>`; a file beside a root (the examples a pack's
/// tests read) relative to the root's parent or grandparent; anything else
/// by its file name alone.
class CatalogPaths {
 public:
  explicit CatalogPaths(const std::vector<std::filesystem::path>& roots);
  /// `path` as written by the engine (relative to the working directory or absolute).
  std::string Show(const std::string& path) const;
  /// "file:line" with the file shown as above.
  std::string Show(const std::string& path, uint32_t line) const;
  /// A file a test reads: beside the root that holds the test `reader`
  /// only, never beside another (the stdlib's parent is no pack's).
  std::string ShowRead(const std::string& path, const std::string& reader) const;

 private:
  struct Root {
    std::filesystem::path dir;  // canonical
    std::string name;           // what the catalogue calls it
  };
  std::string ShowBeside(const std::string& path, const std::vector<Root>& nearby,
                         bool beside = true) const;
  std::vector<Root> roots_;
};

}  // namespace capops::cli::doc
