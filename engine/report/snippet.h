// Source snippets for text reports: a line of a file with a span underlined,
// as compilers print them (internal to engine/report).
//
//    12 |   - {id: serve-eu-spare, accelerator: l4-24, role: production-replacement}
//       |                                                    ---------------------- `p.role` is …
#pragma once

#include <ostream>
#include <string>

#include "engine/common/source.h"

namespace capops::report {

/// ANSI colouring that is a no-op when off.
struct Style {
  bool on = false;
  std::string Paint(const char* code, const std::string& text) const {
    return on ? std::string("\x1b[") + code + "m" + text + "\x1b[0m" : text;
  }
};

/// `text` with control characters (ESC, BEL, NUL …) shown as `?`: facts come
/// from pull requests and must not drive the reader's terminal.
std::string Printable(std::string_view text);

/// `path:line:col`, or the path alone for a location without a line.
std::string Where(const SourceManager& sources, const SourceLoc& loc);

/// Width of the line-number gutter for these locations.
size_t GutterWidth(std::initializer_list<uint32_t> lines);

/// Writes ` NN | line` and the underline row. `length` is how many characters
/// to mark (0: guess the YAML token at the column); `mark` is `^` for the
/// primary place and `-` for secondary ones; `label` follows the marks.
/// Writes nothing when the line is not to be had: out of range, or in a
/// released file that changed on disk since it was read (source.h).
void WriteSnippet(const SourceManager& sources, const SourceLoc& loc, uint32_t length, char mark,
                  const std::string& label, size_t gutter, const Style& style, std::ostream& out);

/// A gutter-only line: `   |`.
void WriteGutter(size_t gutter, const Style& style, std::ostream& out);

}  // namespace capops::report
