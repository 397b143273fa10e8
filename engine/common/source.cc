// SPDX-License-Identifier: Apache-2.0
// SourceFile and SourceManager: line tables and offset → line/column, and
// lines read back from disk once a file's text is released.
#include "engine/common/source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

namespace capops {

namespace {

bool IsContinuationByte(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

std::string_view WithoutLineBreak(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

// A descriptor for `path` if the file there still has `stamp`, else -1.
int OpenWithStamp(const std::string& path, const FileStamp& stamp, bool* changed) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  if (StampOf(fd) != stamp) {
    *changed = true;
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

std::optional<FileStamp> StampOf(int fd) {
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return FileStamp{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
                   static_cast<uint64_t>(st.st_size), static_cast<int64_t>(st.st_mtim.tv_sec),
                   static_cast<int64_t>(st.st_mtim.tv_nsec)};
}

SourceFile::SourceFile(std::string path, std::string text, std::optional<FileStamp> stamp)
    : path_(std::move(path)), text_(std::move(text)), size_(text_.size()), stamp_(stamp) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text_[i]);
    if (c == '\n') line_starts_.push_back(static_cast<uint32_t>(i + 1));
    if (c >= 0x80) ascii_ = false;
  }
}

const std::string& SourceFile::text() const {
  if (released_) {
    throw std::logic_error("the text of `" + path_ +
                           "` was released; SourceFile::ReadText reads it back");
  }
  return text_;
}

bool SourceFile::ReleaseText() {
  if (released_) return true;
  int fd = OpenUnchanged();
  if (fd < 0) return false;  // no stamp of the whole text, or it could not be read back
  ::close(fd);
  std::string().swap(text_);
  released_ = true;
  return true;
}

// Reads `length` bytes at `offset` of the file, if it still has its stamp.
bool SourceFile::ReadBack(uint64_t offset, size_t length, std::string* out) const {
  bool changed = false;
  int fd = OpenWithStamp(path_, *stamp_, &changed);
  if (fd < 0) return false;
  out->resize(length);
  size_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd, out->data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // an error, or the file is shorter than its stamp says
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  return done == length;
}

int SourceFile::OpenUnchanged() const {
  if (!stamp_ || stamp_->size != size_) return -1;  // none, or not of the whole text
  bool changed = false;
  return OpenWithStamp(path_, *stamp_, &changed);
}

std::optional<std::string> SourceFile::ReadText() const {
  if (!released_) return text_;
  std::string text;
  if (!ReadBack(0, size_, &text)) return std::nullopt;
  return text;
}

// Columns count code points, which the offsets table gives without the text.
SourceLoc SourceFile::Resolve(FileId id, uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(size_));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  uint32_t line_index = static_cast<uint32_t>(it - line_starts_.begin()) - 1;
  uint32_t start = line_starts_[line_index];
  uint32_t column = offset - start + 1;
  if (!ascii_) {
    // The line's own bytes; past them (its line break) one byte is one column.
    std::string read_back = released_ ? Line(line_index + 1) : std::string();
    std::string_view line =
        released_ ? std::string_view(read_back) : std::string_view(text_).substr(start);
    line = line.substr(0, offset - start);
    auto continuations = std::count_if(line.begin(), line.end(), [](char c) {
      return IsContinuationByte(static_cast<unsigned char>(c));
    });
    column -= static_cast<uint32_t>(continuations);
  }
  return SourceLoc{id, line_index + 1, column};
}

std::optional<std::string> SourceFile::FindLine(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return std::nullopt;
  size_t begin = line_starts_[line - 1];
  size_t end = line < line_starts_.size() ? line_starts_[line] : size_;
  if (!released_)
    return std::string(WithoutLineBreak(std::string_view(text_).substr(begin, end - begin)));
  std::string bytes;
  if (!ReadBack(begin, end - begin, &bytes)) return std::nullopt;
  bytes.resize(WithoutLineBreak(bytes).size());
  return bytes;
}

uint32_t SourceFile::ByteOffsetOfCodePoint(size_t index) const {
  if (ascii_) return static_cast<uint32_t>(std::min(index, size_));
  std::call_once(code_points_once_, [this] {
    std::optional<std::string> read = released_ ? ReadText() : std::nullopt;
    std::string_view text = read ? std::string_view(*read) : std::string_view(text_);
    for (size_t i = 0; i < text.size(); ++i) {
      if (!IsContinuationByte(static_cast<unsigned char>(text[i]))) {
        code_point_offsets_.push_back(static_cast<uint32_t>(i));
      }
    }
  });
  if (code_point_offsets_.empty()) return static_cast<uint32_t>(std::min(index, size_));
  if (index >= code_point_offsets_.size()) return static_cast<uint32_t>(size_);
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

FileId SourceManager::Add(std::string path, std::string text, std::optional<FileStamp> stamp) {
  files_.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text), stamp));
  return static_cast<FileId>(size() - 1);
}

SourceLoc SourceManager::Resolve(const Span& span) const {
  if (!span.valid() || span.file >= size()) return {};
  return file(span.file).Resolve(span.file, span.begin);
}

std::string_view SourceManager::Path(FileId id) const {
  if (id >= size()) return "<unknown>";
  return file(id).path();
}

std::string_view SourceManager::ShownPath(FileId id) const {
  if (auto it = shown_.find(id); it != shown_.end()) return it->second;
  return base_ != nullptr && id < base_size_ ? base_->ShownPath(id) : Path(id);
}

void SourceManager::Show(FileId id, std::string shown) {
  if (id < size()) shown_.insert_or_assign(id, std::move(shown));
}

std::optional<std::string> SourceManager::LineText(FileId id, uint32_t line) const {
  if (id >= size() || file(id).withheld()) return std::nullopt;
  return file(id).FindLine(line);
}

}  // namespace capops
