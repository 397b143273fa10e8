// Source snippets: finding the span to underline in a YAML or CPL line and
// printing it with a gutter, safely (control characters are made visible).
#include "engine/report/snippet.h"

#include <algorithm>
#include <optional>

namespace capops::report {

namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Byte index of a 1-based character column in a line.
size_t ByteOfColumn(std::string_view line, uint32_t column) {
  size_t i = 0;
  for (uint32_t c = 1; c < column && i < line.size(); ++c) {
    ++i;
    while (i < line.size() && IsContinuation(line[i])) ++i;
  }
  return i;
}

// How far the value at `start` extends: a quoted scalar to its closing quote,
// a flow collection to its bracket, a plain scalar up to a delimiter or comment.
size_t TokenLength(std::string_view line, size_t start) {
  if (start >= line.size()) return 1;
  char open = line[start];
  if (open == '"' || open == '\'') {
    size_t end = line.find(open, start + 1);
    return end == std::string_view::npos ? line.size() - start : end - start + 1;
  }
  if (open == '[' || open == '{') {
    int depth = 0;
    for (size_t end = start; end < line.size(); ++end) {
      depth += line[end] == '[' || line[end] == '{';
      depth -= line[end] == ']' || line[end] == '}';
      if (depth == 0) return end - start + 1;
    }
    return line.size() - start;
  }
  size_t end = start;
  while (end < line.size() && line[end] != ',' && line[end] != '}' && line[end] != ']' &&
         !(line[end] == '#' && end > start && line[end - 1] == ' ')) {
    ++end;
  }
  while (end > start + 1 && line[end - 1] == ' ') --end;
  return std::max<size_t>(1, end - start);
}

}  // namespace

std::string Printable(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') || c == 0x7f) c = '?';
  }
  return out;
}

std::string Where(const SourceManager& sources, const SourceLoc& loc) {
  if (!loc.valid()) return std::string(sources.Path(loc.file));
  return std::string(sources.Path(loc.file)) + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

size_t GutterWidth(std::initializer_list<uint32_t> lines) {
  uint32_t widest = *std::max_element(lines.begin(), lines.end());
  return std::to_string(widest).size();
}

void WriteGutter(size_t gutter, const Style& style, std::ostream& out) {
  out << std::string(gutter + 1, ' ') << style.Paint("1;34", "|") << '\n';
}

void WriteSnippet(const SourceManager& sources, const SourceLoc& loc, uint32_t length, char mark,
                  const std::string& label, size_t gutter, const Style& style, std::ostream& out) {
  if (!loc.valid()) return;
  // None when out of range, or when a released file changed on disk since.
  std::optional<std::string_view> found = sources.LineText(loc.file, loc.line);
  if (!found) return;
  std::string_view line = *found;
  std::string number = std::to_string(loc.line);
  size_t start = ByteOfColumn(line, loc.column);
  size_t marks = length != 0 ? length : TokenLength(line, start);
  // Tabs are repeated so the marks line up under the value.
  std::string pad;
  for (size_t i = 0; i < start && i < line.size(); ++i) {
    if (!IsContinuation(line[i])) pad += line[i] == '\t' ? '\t' : ' ';
  }
  out << std::string(gutter - number.size(), ' ') << style.Paint("1;34", number + " |") << ' '
      << Printable(line) << '\n';
  std::string underline(marks, mark);
  out << std::string(gutter + 1, ' ') << style.Paint("1;34", "|") << ' ' << pad
      << style.Paint(mark == '^' ? "1;31" : "1;34", underline + (label.empty() ? "" : " " + label)) << '\n';
}

}  // namespace capops::report
