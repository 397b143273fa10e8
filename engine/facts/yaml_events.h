// SPDX-License-Identifier: Apache-2.0
// libfyaml's event parser and its marks as SourceLocs, and the checks of a
// text before its events are believed: what the readers of YAML text in
// engine/facts (loader.cc, locate.cc, document_head.cc) share. Internal to
// facts: libfyaml is used nowhere else in the engine.
#pragma once

#include <libfyaml.h>

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "engine/common/source.h"

namespace capops::facts::yaml {

inline constexpr std::string_view kBom = "\xEF\xBB\xBF";

// A hard ceiling on nesting whatever --max-depth says: the loader's checks
// recurse at most this deep.
inline constexpr size_t kDepthCap = 400;

/// "nesting deeper than N levels".
std::string DepthMessage(size_t max_depth);

/// libfyaml's message for a syntax error, as capops words errors:
/// "invalid YAML: …", lowercase, no trailing period.
std::string ParserMessage(std::string message);

// What makes a text unreadable as YAML for capops: a NUL byte, invalid
// UTF-8, or a line break that is a lone carriage return (valid YAML, but
// every tool that shows capops's locations would count lines apart).
struct TextProblem {
  size_t offset = 0;  // of its first byte
  std::string message;
  std::string help;
};

/// The first problem among the characters that start in [from, to) of
/// `text` (a character or CRLF at `to`'s edge is read whole); a BOM at
/// offset 0 is skipped. `*next`, when given, is where the next check of
/// the same text starts.
std::optional<TextProblem> FirstTextProblem(std::string_view text, size_t from, size_t to,
                                            size_t* next = nullptr);

// Turns libfyaml's marks (0-based lines, columns counted in characters after
// any BOM, as SourceLoc counts them) into SourceLocs inside the file.
class Locator {
 public:
  Locator(const SourceFile& file, FileId id) : file_(file), id_(id) {}

  /// 0-based line and column; past the last line means the end of the text.
  SourceLoc At(int line, int column) const {
    if (line < 0 || column < 0) return SourceLoc{id_, 1, 1};
    if (static_cast<uint32_t>(line) >= file_.line_count()) return End();
    return SourceLoc{id_, static_cast<uint32_t>(line) + 1, static_cast<uint32_t>(column) + 1};
  }
  SourceLoc At(const fy_mark* mark) const {
    return mark == nullptr ? SourceLoc{id_, 1, 1} : At(mark->line, mark->column);
  }

  SourceLoc AtOffset(size_t offset) const {
    SourceLoc loc = file_.Resolve(id_, static_cast<uint32_t>(offset));
    if (loc.line == 1 && file_.size() >= kBom.size() &&
        file_.Line(1).substr(0, kBom.size()) == kBom && offset >= kBom.size()) {
      --loc.column;
    }
    return loc;
  }
  SourceLoc End() const { return AtOffset(file_.size()); }

 private:
  const SourceFile& file_;
  FileId id_;
};

// A token's text; "" (never a view without data) for no token or no text.
std::string_view TokenText(fy_token* token);

// libfyaml's event parser over one file's text, in memory or streamed from
// disk. Owns the parser, its diagnostics and each event until the next.
class EventSource {
 public:
  /// Over text the caller keeps alive.
  explicit EventSource(std::string_view text);
  /// Over a file on disk, read in blocks; takes `fd`.
  explicit EventSource(int fd);
  ~EventSource();
  EventSource(const EventSource&) = delete;
  EventSource& operator=(const EventSource&) = delete;

  /// The next event, valid until the next call; null at the end of the
  /// stream or on an error (error() says which).
  fy_event* Next();

  /// The parser's first error, if it stopped on one: 1-based line and
  /// column (characters) and libfyaml's message; line 0 and no message
  /// when libfyaml stopped without saying why.
  struct Error {
    int line = 0;
    int column = 0;
    std::string message;
  };
  std::optional<Error> error() const;

  /// The descriptor of a file being read, else -1.
  int fd() const { return stream_ == nullptr ? -1 : ::fileno(stream_); }

 private:
  EventSource();
  void Fail() { failed_ = true; }
  void Release();

  fy_diag* diag_ = nullptr;
  fy_parser* parser_ = nullptr;
  FILE* stream_ = nullptr;
  fy_event* event_ = nullptr;
  bool failed_ = false;
};

// How many characters before its mark a node event starts: libfyaml marks
// a quoted scalar inside its opening quote and an alias after its `*`.
int MarkLag(fy_event* event);

// The location of a node event: its first character (MarkLag). An empty
// scalar has no mark.
std::optional<SourceLoc> NodeLoc(const Locator& at, fy_event* event);

}  // namespace capops::facts::yaml
