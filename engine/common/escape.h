// SPDX-License-Identifier: Apache-2.0
// Escaping of untrusted text (fact values, file names, rule text) for the
// sinks that show it: terminals and logs, XML, HTML, Markdown and JSON.
//
// Facts and file names come from pull requests. Written raw, an ESC or BEL
// drives the reader's terminal, a newline forges a report line, U+202E
// reorders what the reader sees, and bytes that are not UTF-8 (or code points
// XML forbids) make a CI report that no parser accepts. Every human-readable
// writer therefore passes user text through Visible():
//
//   Visible("a\x1b[2Jb\n")             → `a\x1b[2Jb\n` (backslash escapes, one line)
//   Visible("caf\xe9")                 → `caf\xe9`
//   Visible("x\u202Ey")                → `x\u{202e}y`
//   Visible("a\tb\nc", kKeepTabNewline) → unchanged
//
// XmlText(), HtmlText() and MarkdownText() build on it, so every byte string
// becomes well-formed output, and MarkdownCell() is the one way a cell of a
// Markdown table is written; JsonText() (json_text.h) is the one way JSON
// is written.
#pragma once

#include <string>
#include <string_view>

namespace capops {

/// Which layout characters Visible() leaves as they are.
enum class Keep {
  kNothing,     // one-line sinks: file names, messages, short lines
  kTab,         // a source line in a snippet (tabs keep marks aligned)
  kTabNewline,  // multi-line text: rule docs, JUnit bodies, HTML <pre>
};

/// `text` with every character that could act on a terminal or hide text shown
/// as a visible escape: C0 controls (`\n`, `\r`, `\t`, `\0`, `\e`… written
/// `\x1b` style, or the short form for \n \r \t), DEL, C1 controls and the
/// bidirectional / line-separator formatting characters (`\u{202e}`),
/// noncharacters U+FFFE and U+FFFF; bytes that are not well-formed UTF-8
/// (stray continuation bytes, overlong forms, encoded surrogates, beyond
/// U+10FFFF, cut sequences) each as `\xNN`. Everything else, including
/// printable non-ASCII text and the backslash, is kept. The result is valid
/// UTF-8 and has no control character other than those `keep` allows.
std::string Visible(std::string_view text, Keep keep = Keep::kNothing);

/// Visible(text, keep) with `&`, `<`, `>`, `"` and `'` as entities: valid in
/// XML 1.0 element text and attribute values, whatever the input bytes.
std::string XmlText(std::string_view text, Keep keep = Keep::kTabNewline);

/// As XmlText, for HTML (`'` as `&#39;`).
std::string HtmlText(std::string_view text, Keep keep = Keep::kTabNewline);

/// Visible(text, keep) for Markdown prose: `&`, `<` and `>` as entities so
/// that rule text cannot inject HTML into a rendered page.
std::string MarkdownText(std::string_view text, Keep keep = Keep::kTabNewline);

/// Visible(text) as a Markdown code span, on one line: its fence a run of
/// backticks longer than any in the text, and a space inside it when the
/// text starts or ends with a backtick, or starts and ends with a space
/// (CommonMark strips one each side), so that the span shows the text as
/// it is; "" for "".
std::string MarkdownCodeSpan(std::string_view text);

/// What a cell of a Markdown table holds, for MarkdownCell().
enum class Cell {
  kCode,      // shown as it is, in a code span: names, types, values, paths
  kText,      // shown as it is, as text: owners, sources, tags, test names
  kMarkdown,  // Markdown prose whose markup is meant: a doc comment
};

/// `text` as one cell of a GitHub-flavoured Markdown table: on one line
/// (a line break shown as `\n`, or in prose as the space it means) and
/// every `|` as `\|`, which GFM takes out of the cell before it reads the
/// cell's inline markup (in a code span too), so nothing can end the cell
/// or the row. As text, `\` and the characters of inline markup (`` ` `` `*`
/// `_` `[` `]` `~` `$`) are escaped with a backslash; in every form `&`,
/// `<` and `>` outside a code span are entities (MarkdownText), so no HTML
/// gets in. Every table capops writes makes its cells with this.
///
///   MarkdownCell("a|b", Cell::kCode)      → `` `a\|b` ``
///   MarkdownCell("x`y", Cell::kCode)      → ``` `` x`y `` ```
///   MarkdownCell("a\\b *c*", Cell::kText) → `a\\b \*c\*`
std::string MarkdownCell(std::string_view text, Cell as);

/// `text` with each byte but ASCII letters, digits, `-._~` (RFC 3986's
/// unreserved characters) and those in `keep` as `%XX`: a path in a URI
/// (`keep` "/"), an id in a URL's fragment.
std::string PercentEncoded(std::string_view text, std::string_view keep = "");

/// Number of code points in valid UTF-8 `text` (columns, for aligning marks).
size_t CodePoints(std::string_view text);

}  // namespace capops
