// SPDX-License-Identifier: Apache-2.0
// Source snippets for text reports: a line of a file with a span underlined,
// as compilers print them (engine/report's, and the language server's
// ranges: SpanEndColumn).
//
//    12 |   - {id: serve-eu-spare, accelerator: l4-24, role: production-replacement}
//       |                                                    ---------------------- `p.role` is …
#pragma once

#include <ostream>
#include <string>

#include "engine/common/escape.h"
#include "engine/common/source.h"

namespace capops::report {

/// ANSI colouring that is a no-op when off.
struct Style {
  bool on = false;
  std::string Paint(const char* code, const std::string& text) const {
    return on ? std::string("\x1b[") + code + "m" + text + "\x1b[0m" : text;
  }
};

/// `path:line:col`, or the path alone for a location without a line; the
/// path made Visible (escape.h), as a file name may hold any byte.
std::string Where(const SourceManager& sources, const SourceLoc& loc);

/// The column just past the span a snippet marks at `loc` (the same line;
/// `length` characters, or the YAML token there when 0), counted in
/// characters like `loc.column`; 0 when the line is not to be had.
uint32_t SpanEndColumn(const SourceManager& sources, const SourceLoc& loc, uint32_t length);

/// Width of the line-number gutter for these locations.
size_t GutterWidth(std::initializer_list<uint32_t> lines);

/// Writes ` NN | line` and the underline row. The line is made Visible
/// (tabs kept) and, when longer than 160 characters, cut to a window around
/// the span with `…` where it was cut; the marks follow the shown text. `length` is how many
/// characters to mark (0: guess the YAML token at the column); `mark` is `^` for the primary place
/// and `-` for secondary ones; `label` follows the marks. Writes nothing when the line is not to be
/// had: out of range, or in a released file that changed on disk since it was read (source.h).
void WriteSnippet(const SourceManager& sources, const SourceLoc& loc, uint32_t length, char mark,
                  const std::string& label, size_t gutter, const Style& style, std::ostream& out);

/// A gutter-only line: `   |`.
void WriteGutter(size_t gutter, const Style& style, std::ostream& out);

}  // namespace capops::report
