// SourceFile and SourceManager: line tables and offset → line/column.
#include "engine/common/source.h"

#include <algorithm>

namespace capops {

namespace {
bool IsContinuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }
}  // namespace

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  bool ascii = true;
  for (size_t i = 0; i < text_.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text_[i]);
    if (c == '\n') line_starts_.push_back(static_cast<uint32_t>(i + 1));
    if (c >= 0x80) ascii = false;
  }
  if (!ascii) {
    for (size_t i = 0; i < text_.size(); ++i) {
      if (!IsContinuationByte(static_cast<unsigned char>(text_[i]))) {
        code_point_offsets_.push_back(static_cast<uint32_t>(i));
      }
    }
  }
}

SourceLoc SourceFile::Resolve(FileId id, uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  uint32_t line_index = static_cast<uint32_t>(it - line_starts_.begin()) - 1;
  uint32_t column = 1;
  for (uint32_t i = line_starts_[line_index]; i < offset; ++i) {
    if (!IsContinuationByte(static_cast<unsigned char>(text_[i]))) ++column;
  }
  return SourceLoc{id, line_index + 1, column};
}

std::string_view SourceFile::Line(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t begin = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] : text_.size();
  std::string_view view(text_.data() + begin, end - begin);
  while (!view.empty() && (view.back() == '\n' || view.back() == '\r')) {
    view.remove_suffix(1);
  }
  return view;
}

uint32_t SourceFile::ByteOffsetOfCodePoint(size_t index) const {
  if (code_point_offsets_.empty()) {
    return static_cast<uint32_t>(std::min(index, text_.size()));
  }
  if (index >= code_point_offsets_.size()) return static_cast<uint32_t>(text_.size());
  return code_point_offsets_[index];
}

// Length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), or 0.
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0; };
  unsigned char lead = byte(i);
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range allowed for the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (!IsContinuationByte(byte(i + k)) || i + k >= text.size()) return 0;
  }
  return length;
}

size_t FirstInvalidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t length = static_cast<unsigned char>(text[i]) < 0x80 ? 1 : Utf8SequenceLength(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

FileId SourceManager::Add(std::string path, std::string text) {
  files_.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text)));
  return static_cast<FileId>(files_.size() - 1);
}

SourceLoc SourceManager::Resolve(const Span& span) const {
  if (!span.valid() || span.file >= files_.size()) return {};
  return files_[span.file]->Resolve(span.file, span.begin);
}

std::string_view SourceManager::Path(FileId id) const {
  if (id >= files_.size()) return "<unknown>";
  return files_[id]->path();
}

std::string_view SourceManager::LineText(FileId id, uint32_t line) const {
  if (id >= files_.size()) return {};
  return files_[id]->Line(line);
}

}  // namespace capops
