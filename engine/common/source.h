// Source files and positions shared by every stage.
//
// A SourceManager owns the text of every file the engine reads (policies and
// facts), so that any stage can point at a place and the report can print the
// line with a caret. Positions come in two forms:
//   - Span: a half-open range of byte offsets [begin, end) into one file, used
//     by the CPL front end;
//   - SourceLoc: 1-based line and column (columns count characters, not
//     bytes), used by fact values whose positions come from the YAML parser.
// Both convert to a SourceLoc for rendering.
//
//   SourceManager sm;
//   FileId f = sm.Add("policy.cpl", text);
//   SourceLoc loc = sm.Resolve(Span{f, 10, 14});   // {f, 1, 11}
//   std::string_view line = sm.LineText(f, loc.line);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace capops {

using FileId = uint32_t;
inline constexpr FileId kNoFile = UINT32_MAX;

/// A byte range in one file; `begin` and `end` are 0-based offsets.
struct Span {
  FileId file = kNoFile;
  uint32_t begin = 0;
  uint32_t end = 0;

  bool valid() const { return file != kNoFile; }
};

/// A point in a file; line and column are 1-based, 0 means unknown.
struct SourceLoc {
  FileId file = kNoFile;
  uint32_t line = 0;
  uint32_t column = 0;

  bool valid() const { return file != kNoFile && line != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

/// Length of the well-formed UTF-8 sequence starting at byte `i` (Unicode
/// table 3-7: no overlongs, surrogates or code points past U+10FFFF), or 0.
size_t Utf8SequenceLength(std::string_view text, size_t i);

/// Byte offset of the first byte that is not well-formed UTF-8, or npos.
size_t FirstInvalidUtf8(std::string_view text);

/// One file's path and text, with a table of line starts.
class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }

  /// 1-based line and character column of a byte offset (clamped to the text).
  SourceLoc Resolve(FileId id, uint32_t offset) const;
  /// The text of a 1-based line without its line break; empty if out of range.
  std::string_view Line(uint32_t line) const;
  /// Byte offset of the `index`-th code point (the ANTLR runtime counts code points).
  uint32_t ByteOffsetOfCodePoint(size_t index) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
  std::vector<uint32_t> code_point_offsets_;  // empty when the text is ASCII
};

/// Owns every loaded file. Not thread-safe for Add; const access is safe.
class SourceManager {
 public:
  FileId Add(std::string path, std::string text);
  const SourceFile& file(FileId id) const { return *files_.at(id); }
  size_t size() const { return files_.size(); }

  SourceLoc Resolve(const Span& span) const;
  /// The path of a file, or "<unknown>" for kNoFile.
  std::string_view Path(FileId id) const;
  std::string_view LineText(FileId id, uint32_t line) const;

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

}  // namespace capops
