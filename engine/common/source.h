// SPDX-License-Identifier: Apache-2.0
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
//   std::optional<std::string> line = sm.LineText(f, loc.line);
//
// A large fact file need not keep its text once its documents are loaded:
// a file read from disk carries a FileStamp of what was read, and
// ReleaseText() drops the text but keeps the line table. A line asked for
// later is read back from the file, only while the file still matches the
// stamp (same device, inode, size and modification time); a file replaced or
// changed since has no lines to give, and reports leave its snippets out
// rather than quote text the findings were not made from.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
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

/// What a file on disk was when its text was read, taken with fstat on the
/// descriptor the text was read from. A file that still has the same stamp
/// is taken to still hold the same text.
struct FileStamp {
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t size = 0;
  int64_t mtime_seconds = 0;
  int64_t mtime_nanoseconds = 0;

  friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

/// The stamp of an open file descriptor, or nullopt when fstat fails or it
/// is not a regular file (a pipe or a device has no text to read back).
std::optional<FileStamp> StampOf(int fd);

/// One file's path and text, with a table of line starts.
///
/// A file given a stamp may release its text (ReleaseText); it keeps its
/// size and line table, and reads lines back from the file on disk (a
/// column on a non-ASCII line is counted in the line read back). Const
/// access, reading lines back included, is safe from several threads.
class SourceFile {
 public:
  SourceFile(std::string path, std::string text, std::optional<FileStamp> stamp = std::nullopt);

  const std::string& path() const { return path_; }
  /// The whole text. Throws std::logic_error once the text is released: a
  /// caller that may see a released file uses ReadText.
  const std::string& text() const;
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  size_t size() const { return size_; }
  const std::optional<FileStamp>& stamp() const { return stamp_; }
  /// True when the text has no byte past 0x7F: columns are byte columns.
  bool ascii() const { return ascii_; }
  /// A descriptor open on the file on disk if it still matches the stamp
  /// (it is then the text this file was made from), else -1. The caller
  /// closes it.
  int OpenUnchanged() const;

  /// Drops the text, to be read back from the file on demand. Only for a
  /// file with a stamp of the whole text whose file on disk still matches
  /// it; otherwise the text stays and this returns false.
  bool ReleaseText();
  bool released() const { return released_; }
  /// SourceManager::Withhold was called for this file.
  bool withheld() const { return withheld_; }
  /// The whole text: a copy of the one held, or, once released, the file
  /// read again. nullopt when the file no longer matches its stamp.
  std::optional<std::string> ReadText() const;

  /// 1-based line and character column of a byte offset (clamped to the text).
  SourceLoc Resolve(FileId id, uint32_t offset) const;
  /// The text of a 1-based line without its line break; nullopt if out of
  /// range, or if the text was released and the file no longer matches its
  /// stamp. A released file's line is read from the file each time asked:
  /// nothing read back is kept.
  std::optional<std::string> FindLine(uint32_t line) const;
  /// FindLine, with an empty line for none.
  std::string Line(uint32_t line) const { return FindLine(line).value_or(std::string()); }
  /// Byte offset of the `index`-th code point (the ANTLR runtime counts code points).
  uint32_t ByteOffsetOfCodePoint(size_t index) const;

 private:
  bool ReadBack(uint64_t offset, size_t length, std::string* out) const;

  std::string path_;
  std::string text_;  // empty once released
  size_t size_ = 0;   // of the text, held or not
  std::optional<FileStamp> stamp_;
  bool released_ = false;
  bool withheld_ = false;
  friend class SourceManager;  // Withhold
  std::vector<uint32_t> line_starts_;
  bool ascii_ = true;
  // Made on the first ByteOffsetOfCodePoint (policy files only: four bytes
  // per character would be four times a large fact file).
  mutable std::once_flag code_points_once_;
  mutable std::vector<uint32_t> code_point_offsets_;
};

/// Owns every loaded file. Not thread-safe for Add; const access is safe,
/// and so is ReleaseText on different files at once.
///
/// A manager may extend another (the `base`): it sees the base's files
/// under their own ids and numbers its own after them. An engine keeps its
/// policy files in one manager, and each lint adds its fact files to an
/// extension of it, so lints running at once never write shared sources
/// and a lint's files go when its manager goes.
class SourceManager {
 public:
  SourceManager() = default;
  /// Extends `base`, which must outlive this manager and gain no file while it lives.
  explicit SourceManager(const SourceManager* base) : base_(base), base_size_(base->size()) {}
  SourceManager(const SourceManager&) = delete;
  SourceManager& operator=(const SourceManager&) = delete;

  FileId Add(std::string path, std::string text, std::optional<FileStamp> stamp = std::nullopt);
  const SourceFile& file(FileId id) const {
    return id < base_size_ ? base_->file(id) : *files_.at(id - base_size_);
  }
  size_t size() const { return base_size_ + files_.size(); }
  /// SourceFile::ReleaseText of one of this manager's own files.
  bool ReleaseText(FileId id) { return Own(id).ReleaseText(); }

  SourceLoc Resolve(const Span& span) const;
  /// The path of a file, or "<unknown>" for kNoFile.
  std::string_view Path(FileId id) const;
  /// The path reports show people for a file: the one given to Show (by
  /// this manager or its base), else Path. Reading, keys and SARIF's
  /// source root use Path.
  std::string_view ShownPath(FileId id) const;
  /// Reports show file `id` (this manager's or its base's) as `shown`,
  /// e.g. a pack file outside the working directory by its path in the pack
  /// rather than the machine's. Call before reports are made; not thread-safe.
  void Show(FileId id, std::string shown);
  /// SourceFile::FindLine, for quoting in a report; nullopt for an unknown
  /// file and for a withheld one.
  std::optional<std::string> LineText(FileId id, uint32_t line) const;
  /// Reports quote no line of this file (one of this manager's own): it was
  /// given as facts but turned out not to be capops facts (any file on the
  /// machine may be named), so its lines are not echoed. Call before
  /// reports are made; not thread-safe.
  void Withhold(FileId id) { Own(id).withheld_ = true; }

 private:
  SourceFile& Own(FileId id) {
    if (id < base_size_)
      throw std::logic_error("a file of the base manager is not this manager's to change");
    return *files_.at(id - base_size_);
  }

  const SourceManager* base_ = nullptr;
  size_t base_size_ = 0;
  std::vector<std::unique_ptr<SourceFile>> files_;
  std::unordered_map<FileId, std::string> shown_;  // by Show
};

}  // namespace capops
