// The CPL formatter (`capops-lint fmt`): one layout for indentation and
// blank lines, without touching a single token.
//
// Format() re-indents every line from the bracket depth of its first token
// (two spaces a level; a line that starts with `because`, `fix`, `when`,
// `at` or with `?`, `:`, `&&`, `||` continues the line before, one level
// deeper), strips trailing whitespace, keeps at most one blank line in
// a row and ends the file with one newline. Tokens, comments and doc comments
// are kept as they are and where they are (a line break is never added or
// removed), so the result parses to the same AST and formatting is
// idempotent. A file that does not parse is not formatted.
//
//   syntax::FormatResult r = syntax::Format(sources, file);
//   if (r.ok && r.text != sources.file(file).text()) …write r.text…
#pragma once

#include <string>

#include "engine/common/diagnostic.h"
#include "engine/common/source.h"
#include "engine/syntax/parser.h"

namespace capops::syntax {

struct FormatResult {
  bool ok = false;   // false: the file has syntax errors, in `diagnostics`
  std::string text;  // the formatted file
  Diagnostics diagnostics;
};

FormatResult Format(const SourceManager& sources, FileId file, const ParseOptions& options = {});

}  // namespace capops::syntax
