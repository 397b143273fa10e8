// SPDX-License-Identifier: Apache-2.0
// Source snippets: finding the span to underline in a YAML or CPL line and
// printing it with a gutter, safely: control characters are made visible
// (escape.h) and a long line is cut to a window around the span.
#include "engine/report/snippet.h"

#include <algorithm>
#include <optional>

#include "engine/common/escape.h"

namespace capops::report {

namespace {

// A snippet shows at most this many characters of a line, starting this many
// before the span when the line is longer.
constexpr size_t kSnippetColumns = 160;
constexpr size_t kSnippetContextBefore = 60;

bool IsContinuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

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

// The byte just past the span at byte `start`: `length` characters, or the
// YAML token there when `length` is 0.
size_t SpanEndByte(std::string_view line, size_t start, uint32_t length) {
  return length != 0 ? start + ByteOfColumn(line.substr(start), length + 1)
                     : std::min(line.size(), start + TokenLength(line, start));
}

// The part of a long line a snippet shows: a window of whole characters
// around the span, so that a plan written on one huge line is not repeated
// in full under each of its findings.
struct SnippetWindow {
  size_t begin = 0, end = 0;  // bytes
  bool cut_before = false;
};

SnippetWindow CutWindow(std::string_view line, size_t start) {
  SnippetWindow w{0, line.size(), false};
  if (line.size() <= kSnippetColumns) return w;  // short in bytes, so in characters
  auto back = [&](size_t i, size_t chars) {
    while (chars > 0 && i > 0) {
      --i;
      while (i > 0 && IsContinuation(line[i])) --i;
      --chars;
    }
    return i;
  };
  auto forward = [&](size_t i, size_t chars) {
    while (chars > 0 && i < line.size()) {
      ++i;
      while (i < line.size() && IsContinuation(line[i])) ++i;
      --chars;
    }
    return i;
  };
  w.begin = back(start, kSnippetContextBefore);
  w.end = forward(w.begin, kSnippetColumns);
  if (w.end == line.size()) w.begin = back(line.size(), kSnippetColumns);
  w.begin = std::min(w.begin, start);
  w.cut_before = w.begin > 0;
  return w;
}

}  // namespace

std::string Where(const SourceManager& sources, const SourceLoc& loc) {
  std::string path = Visible(sources.ShownPath(loc.file));
  if (!loc.valid()) return path;
  return path + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

size_t GutterWidth(std::initializer_list<uint32_t> lines) {
  uint32_t widest = *std::max_element(lines.begin(), lines.end());
  return std::to_string(widest).size();
}

uint32_t SpanEndColumn(const SourceManager& sources, const SourceLoc& loc, uint32_t length) {
  if (!loc.valid() || loc.column == 0) return 0;
  std::optional<std::string> found = sources.LineText(loc.file, loc.line);
  if (!found) return 0;
  std::string_view line = *found;
  size_t start = std::min(ByteOfColumn(line, loc.column), line.size());
  size_t end = SpanEndByte(line, start, length);
  return loc.column +
         static_cast<uint32_t>(std::max<size_t>(1, CodePoints(line.substr(start, end - start))));
}

void WriteGutter(size_t gutter, const Style& style, std::ostream& out) {
  out << std::string(gutter + 1, ' ') << style.Paint("1;34", "|") << '\n';
}

void WriteSnippet(const SourceManager& sources, const SourceLoc& loc, uint32_t length, char mark,
                  const std::string& label, size_t gutter, const Style& style, std::ostream& out) {
  if (!loc.valid()) return;
  // None when out of range, or when a released file changed on disk since.
  std::optional<std::string> found = sources.LineText(loc.file, loc.line);
  if (!found) return;
  std::string_view line = *found;
  std::string number = std::to_string(loc.line);
  size_t start = std::min(ByteOfColumn(line, loc.column), line.size());
  size_t end = SpanEndByte(line, start, length);
  SnippetWindow w = CutWindow(line, start);
  end = std::min(end, w.end);
  // Marks go under the escaped text as shown; tabs are repeated so they line up.
  std::string pad = w.cut_before ? " " : "";
  for (char c : Visible(line.substr(w.begin, start - w.begin), Keep::kTab)) {
    if (!IsContinuation(c)) pad += c == '\t' ? '\t' : ' ';
  }
  size_t marks =
      std::max<size_t>(1, CodePoints(Visible(line.substr(start, end - start), Keep::kTab)));
  out << std::string(gutter - number.size(), ' ') << style.Paint("1;34", number + " |") << ' '
      << (w.cut_before ? "…" : "") << Visible(line.substr(w.begin, w.end - w.begin), Keep::kTab)
      << (w.end < line.size() ? "…" : "") << '\n';
  std::string underline(marks, mark);
  out << std::string(gutter + 1, ' ') << style.Paint("1;34", "|") << ' ' << pad
      << style.Paint(mark == '^' ? "1;31" : "1;34", underline + (label.empty() ? "" : " " + label))
      << '\n';
}

}  // namespace capops::report
