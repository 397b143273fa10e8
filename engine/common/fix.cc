// SPDX-License-Identifier: Apache-2.0
// Fixes as edits of a text (fix.h). Entry points: ByteOffsetAt,
// MakeReplacement, ApplyReplacements.
#include "engine/common/fix.h"

#include <algorithm>

namespace capops {

namespace {

// 1-based line and character column of byte `offset` of `text`, which is
// on a character boundary. The lines are counted by byte (std::count, fast
// over a large plan); only the last line's characters are decoded.
SourceLoc LocAt(FileId file, std::string_view text, uint32_t offset) {
  SourceLoc loc{file, 1, 1};
  std::string_view before = text.substr(0, offset);
  loc.line += static_cast<uint32_t>(std::count(before.begin(), before.end(), '\n'));
  size_t line_start = before.rfind('\n');
  line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
  for (size_t i = line_start; i < offset;) {
    size_t n = Utf8SequenceLength(text, i);
    i += n == 0 ? 1 : n;
    ++loc.column;
  }
  return loc;
}

bool OnBoundary(std::string_view text, size_t offset) {
  return offset >= text.size() || (static_cast<unsigned char>(text[offset]) & 0xC0) != 0x80;
}

}  // namespace

std::optional<uint32_t> ByteOffsetAt(std::string_view text, uint32_t line, uint32_t column) {
  if (line == 0 || column == 0 || text.size() >= UINT32_MAX) return std::nullopt;
  size_t at = 0;
  for (uint32_t l = 1; l < line; ++l) {
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) return std::nullopt;
    at = nl + 1;
  }
  for (uint32_t c = 1; c < column; ++c) {
    if (at >= text.size() || text[at] == '\n') return std::nullopt;
    size_t n = Utf8SequenceLength(text, at);
    at += n == 0 ? 1 : n;
  }
  return static_cast<uint32_t>(at);
}

std::optional<Replacement> MakeReplacement(FileId file, std::string_view text, uint32_t offset,
                                           uint32_t length, std::string with) {
  if (offset > text.size() || length > text.size() - offset) return std::nullopt;
  if (!OnBoundary(text, offset) || !OnBoundary(text, offset + length)) return std::nullopt;
  Replacement r;
  r.file = file;
  r.begin = LocAt(file, text, offset);
  r.end = LocAt(file, text, offset + length);
  r.offset = offset;
  r.length = length;
  r.text = std::move(with);
  return r;
}

bool Overlap(const Replacement& a, const Replacement& b) {
  size_t a_end = size_t{a.offset} + a.length, b_end = size_t{b.offset} + b.length;
  if (a.offset < b_end && b.offset < a_end) return true;
  // Meeting at an edge: an overlap when either is an insertion.
  return (a.length == 0 || b.length == 0) && (a.offset == b_end || b.offset == a_end);
}

bool ApplyReplacements(std::string_view text, std::vector<Replacement> replacements,
                       std::string* out, std::string* why) {
  std::stable_sort(replacements.begin(), replacements.end(),
                   [](const Replacement& a, const Replacement& b) { return a.offset < b.offset; });
  std::string result;
  size_t at = 0;
  for (size_t i = 0; i < replacements.size(); ++i) {
    const Replacement& r = replacements[i];
    if (r.offset > text.size() || r.length > text.size() - r.offset) {
      *why = "an edit reaches past the end of the file (" + std::to_string(text.size()) + " bytes)";
      return false;
    }
    if (i > 0) {
      if (Overlap(replacements[i - 1], r)) {
        *why = "two edits touch the same span (line " + std::to_string(r.begin.line) + ")";
        return false;
      }
    }
    result.append(text.substr(at, r.offset - at));
    result.append(r.text);
    at = r.offset + r.length;
  }
  result.append(text.substr(at));
  *out = std::move(result);
  return true;
}

}  // namespace capops
