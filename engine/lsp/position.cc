// SPDX-License-Identifier: Apache-2.0
// Positions as the protocol counts them (0-based lines, UTF-16 units) to and
// from the engine's 1-based lines and character columns (position.h).
#include "engine/lsp/position.h"

#include "engine/common/source.h"

namespace capops::lsp {

namespace {

// The bytes of the character at `i`: its UTF-8 sequence, or 1 for a byte
// that starts none.
size_t CharBytes(std::string_view line, size_t i) {
  size_t n = Utf8SequenceLength(line, i);
  return n == 0 ? 1 : n;
}

}  // namespace

std::optional<std::string_view> LineAt(std::string_view text, uint32_t line) {
  size_t begin = 0;
  for (uint32_t l = 0; l < line; ++l) {
    size_t nl = text.find('\n', begin);
    if (nl == std::string_view::npos) return std::nullopt;
    begin = nl + 1;
  }
  size_t end = text.find('\n', begin);
  std::string_view out =
      text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
  if (!out.empty() && out.back() == '\r') out.remove_suffix(1);
  return out;
}

uint32_t Utf16Column(std::string_view line, uint32_t column) {
  uint32_t units = 0, c = 1;
  for (size_t i = 0; c < column && i < line.size(); ++c) {
    size_t n = CharBytes(line, i);
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return units + (column > c ? column - c : 0);
}

uint32_t CharColumn(std::string_view line, uint32_t units) {
  uint32_t column = 1, counted = 0;
  for (size_t i = 0; i < line.size();) {
    size_t n = CharBytes(line, i);
    uint32_t width = n == 4 ? 2 : 1;
    if (counted + width > units) break;
    counted += width;
    i += n;
    ++column;
  }
  return column;
}

size_t ByteOffset(std::string_view line, uint32_t column) {
  size_t i = 0;
  for (uint32_t c = 1; c < column && i < line.size(); ++c) i += CharBytes(line, i);
  return i;
}

uint32_t CharCount(std::string_view text) {
  uint32_t count = 0;
  for (size_t i = 0; i < text.size(); i += CharBytes(text, i)) ++count;
  return count;
}

std::optional<size_t> TextOffset(std::string_view text, uint32_t line, uint32_t column) {
  if (line == 0) return std::nullopt;
  std::optional<std::string_view> l = LineAt(text, line - 1);
  if (!l) return std::nullopt;
  return static_cast<size_t>(l->data() - text.data()) + ByteOffset(*l, column);
}

nlohmann::json PositionIn(std::string_view text, uint32_t line, uint32_t column) {
  if (line == 0) return {{"line", 0}, {"character", 0}};
  std::string_view l = LineAt(text, line - 1).value_or(std::string_view());
  return {{"line", line - 1}, {"character", Utf16Column(l, column == 0 ? 1 : column)}};
}

}  // namespace capops::lsp
