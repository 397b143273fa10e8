// SPDX-License-Identifier: Apache-2.0
// The CPL formatter (`capops-lint fmt`): one canonical layout for a CPL file.
//
// Format() prints the file again from its tokens. The result depends only on
// the tokens, the comments, the line breaks the author put at the break
// points listed below and the blank lines next to comments; any other
// spacing, indentation, line break or blank line makes no difference. It
// parses to the same AST, formatting it again changes nothing, and tokens are
// never added, removed or rewritten (strings and literals stay as written).
//
// Spacing on a line: one space around binary operators (`a + b`, `x in s`,
// `let x = e`) and around `?` and `:` of a conditional; one after a comma;
// none inside `()`, `[]` and map or set braces (`{a: 1}`), none before a
// comma, around `.`, after a unary `!` or `-`, before the `(` of a call or
// the `[` of an index, after `@`, inside type arguments (`map<K, V>`) and in
// rule ids (`CAP-ALC-001`); `name: T` and `name?: T` in records and
// parameters, `key: value` in maps; an enum on one line is `{ a, b }`.
//
// Lines: one blank line between top-level declarations (`package`, each
// declaration with its annotations and comments); consecutive imports stand
// together. In a rule body each `for`, `let`, `where`, `deny` and `warn`
// starts a line; `because` and `fix` start lines one level deeper, and so do
// `when` and `at` when the author broke the line before them. Each field of a
// record and each line of a test (`facts`, `expect` …) starts a line, as does
// `rule` after its annotations, and the closing `}` of these blocks. Any
// other blank line is dropped, except one the author left before or after a
// comment that has a line of its own (so a header comment can stand apart,
// and a comment can open a group of clauses).
//
// Long expressions keep the author's line breaks at break points only: after
// a comma, after an opening bracket, before a closing one, after a binary
// operator (`&&`, `||`, `+`, `==`, `=` …), before `?` and `:` of a
// conditional, between annotations, before `when` and `at` of a `deny` or
// `warn`, and before `at`, `count` and `message` of an `expect`. A break
// before a binary operator moves after it, one after `?` or `:` moves before
// it; a break anywhere else is removed. No line is ever broken for length.
//
// Indentation is two spaces a level. Lines inside brackets are one level
// deeper than the line that opened the innermost bracket (however many that
// line opened); a line that continues a statement or a list element rather
// than starting one is one level deeper still; a line starting with a closing
// bracket lines up with the line that opened it.
//
// Comments and doc comments are kept, in their order and next to the same
// tokens: a comment after a token on its line stays there (trailing comments
// of neighbouring lines of one indent are aligned, two spaces after the
// longest code), any other comment gets its own line, indented like the token
// after it. Trailing whitespace is removed and the file ends with one
// newline.
//
// A file that does not parse is not formatted (its diagnostics are returned).
// As a last guard the result is lexed again and compared with the input token
// by token; if they differed that would be a formatter bug, reported in
// `internal_error` instead of returning a changed program.
//
//   syntax::FormatResult r = syntax::Format(sources, file);
//   if (r.ok && r.text != sources.file(file).text()) …write r.text…
//
//   rule r{for a in plan.allocations where a.gpus>8&&!a.interruptible
//   deny at a.gpus "big" because "b"}
// becomes
//   rule r {
//     for a in plan.allocations
//     where a.gpus > 8 && !a.interruptible
//     deny at a.gpus "big"
//       because "b"
//   }
#pragma once

#include <string>

#include "engine/common/diagnostic.h"
#include "engine/common/source.h"
#include "engine/syntax/parser.h"

namespace capops::syntax {

struct FormatResult {
  bool ok = false;             // false: see `diagnostics` (syntax errors) or `internal_error`
  std::string text;            // the formatted file, when ok
  Diagnostics diagnostics;     // the file's syntax errors
  std::string internal_error;  // the formatter failed on a file that parses (a bug)
};

/// Formats one file held by `sources`. Thread-compatible; no state is kept.
FormatResult Format(const SourceManager& sources, FileId file, const ParseOptions& options = {});

}  // namespace capops::syntax
