// SPDX-License-Identifier: Apache-2.0
// FileSystem: where a host's files come from — the one seam between the
// engine and the disk. The workspace (discovery, the config search, the
// policies, the side files, the cache, outputs) reads and writes through it
// and nothing else, so the same code serves
//   - DiskFileSystem: capops-lint, on the machine's files;
//   - OverlayFileSystem: capops-lsp, the editor's unsaved buffers laid over
//     the disk (a buffer wins over the file of its path);
//   - MemoryFileSystem: tests and embedders, files held as strings.
//
//   workspace::MemoryFileSystem files("/repo");
//   files.Add("plans/plan.yaml", text);
//   workspace::LintSession session(options, &files);
//
// Paths are given as the user gave them; relative ones are against
// WorkingDirectory(). Not thread-safe for changes (Add, Set, Write); const
// access is.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/source.h"

namespace capops::workspace {

/// What a path names, links followed.
enum class FileKind { kMissing, kRegular, kDirectory, kOther };

/// A path a walk passed over, and why.
struct Refused {
  enum class Kind { kLinkOutside, kUnreadable };
  std::string path;
  Kind kind = Kind::kLinkOutside;
  std::string error;  // kUnreadable: the system's reason
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  /// The absolute, normalised directory relative paths are resolved against.
  virtual const std::string& WorkingDirectory() const = 0;
  /// What `path` is, links followed (a dangling link is kMissing).
  virtual FileKind Kind(const std::string& path) const = 0;
  /// Whether there is anything at `path`, a dangling link included.
  virtual bool Exists(const std::string& path) const = 0;
  /// Reads a regular file, at most `limit` + 1 bytes of it (so an oversized
  /// file is seen as such); anything else (a directory, a FIFO, a device) is
  /// refused without blocking. False with `*error` set to a one-line reason.
  /// With `stamp`: the stamp of what was read when the text may be read
  /// back later (a whole file on disk), else nullopt.
  virtual bool Read(const std::string& path, size_t limit, std::string* text, std::string* error,
                    std::optional<FileStamp>* stamp = nullptr) const = 0;
  /// The entries below directory `root` that are not directories, hidden
  /// directories (`.git`) skipped, as `root/…` paths normalised, sorted.
  /// Without a `boundary`, links to directories are not followed. With one
  /// (an absolute directory), links are followed where they lead inside it,
  /// each directory entered once (a loop of links ends); a link that leads
  /// outside it, to a file or a directory, is neither read nor followed.
  /// Such links, and directories below `root` that cannot be listed, go to
  /// `*refused` (when given) with the reason.
  virtual std::vector<std::string> FilesUnder(const std::string& root,
                                              const std::string& boundary = "",
                                              std::vector<Refused>* refused = nullptr) const = 0;
  /// A name every path to the same file shares (links followed); nullopt
  /// when there is no file.
  virtual std::optional<std::string> Identity(const std::string& path) const = 0;
  /// `path` absolute with every link resolved, as far as it exists (the
  /// rest kept as written); normalised.
  virtual std::string RealPath(const std::string& path) const = 0;
  /// Replaces `path`'s content whole, never leaving a half-written file.
  /// False with `*error` set.
  virtual bool Write(const std::string& path, std::string_view content, std::string* error) = 0;
  /// Creates directory `path` and those above it that are missing. False
  /// with `*error` set.
  virtual bool MakeDirectories(const std::string& path, std::string* error) = 0;
  /// Creates directory `dir` (and those above it) holding `file` with
  /// `content`, all at once: another process sees either no `dir` or `dir`
  /// with the file. True, writing nothing, when `dir` is there already
  /// (made by another run a moment before). False with `*error` set.
  virtual bool MakeDirectoryWith(const std::string& dir, const std::string& file,
                                 std::string_view content, std::string* error) = 0;

  /// `path` absolute against WorkingDirectory(), normalised (no link resolved).
  std::string Absolute(const std::string& path) const;
};

class DiskFileSystem final : public FileSystem {
 public:
  /// The process's working directory, read once.
  DiskFileSystem();
  const std::string& WorkingDirectory() const override { return cwd_; }
  FileKind Kind(const std::string& path) const override;
  bool Exists(const std::string& path) const override;
  bool Read(const std::string& path, size_t limit, std::string* text, std::string* error,
            std::optional<FileStamp>* stamp = nullptr) const override;
  std::vector<std::string> FilesUnder(const std::string& root, const std::string& boundary = "",
                                      std::vector<Refused>* refused = nullptr) const override;
  std::optional<std::string> Identity(const std::string& path) const override;
  std::string RealPath(const std::string& path) const override;
  bool Write(const std::string& path, std::string_view content, std::string* error) override;
  bool MakeDirectories(const std::string& path, std::string* error) override;
  bool MakeDirectoryWith(const std::string& dir, const std::string& file, std::string_view content,
                         std::string* error) override;

 private:
  std::string cwd_;
};

/// Files as strings, under a working directory of the caller's choosing;
/// directories exist where files are below them. No links: a path is its
/// own identity.
class MemoryFileSystem final : public FileSystem {
 public:
  explicit MemoryFileSystem(std::string working_directory = "/");
  /// Adds or replaces a file (`path` relative to the working directory or absolute).
  void Add(const std::string& path, std::string text);
  const std::string& WorkingDirectory() const override { return cwd_; }
  FileKind Kind(const std::string& path) const override;
  bool Exists(const std::string& path) const override { return Kind(path) != FileKind::kMissing; }
  bool Read(const std::string& path, size_t limit, std::string* text, std::string* error,
            std::optional<FileStamp>* stamp = nullptr) const override;
  std::vector<std::string> FilesUnder(const std::string& root, const std::string& boundary = "",
                                      std::vector<Refused>* refused = nullptr) const override;
  std::optional<std::string> Identity(const std::string& path) const override;
  std::string RealPath(const std::string& path) const override { return Absolute(path); }
  bool Write(const std::string& path, std::string_view content, std::string* error) override;
  bool MakeDirectories(const std::string&, std::string*) override { return true; }
  bool MakeDirectoryWith(const std::string& dir, const std::string& file, std::string_view content,
                         std::string* error) override;

 private:
  std::string cwd_;
  std::map<std::string, std::string, std::less<>> files_;  // by absolute path
};

/// An editor's buffers over another file system: a buffer is read in place
/// of its file (whether or not the file exists on disk); everything else,
/// and every write, goes to the base.
class OverlayFileSystem final : public FileSystem {
 public:
  explicit OverlayFileSystem(FileSystem* base) : base_(base) {}
  /// Lays a buffer over `path` (absolute), or replaces it.
  void Set(const std::string& path, std::string text);
  /// Takes the buffer of `path` away: the base's file shows again.
  void Remove(const std::string& path);
  /// The buffer of `path`, or null.
  const std::string* Buffer(const std::string& path) const;

  const std::string& WorkingDirectory() const override { return base_->WorkingDirectory(); }
  FileKind Kind(const std::string& path) const override;
  bool Exists(const std::string& path) const override;
  bool Read(const std::string& path, size_t limit, std::string* text, std::string* error,
            std::optional<FileStamp>* stamp = nullptr) const override;
  std::vector<std::string> FilesUnder(const std::string& root, const std::string& boundary = "",
                                      std::vector<Refused>* refused = nullptr) const override;
  std::optional<std::string> Identity(const std::string& path) const override;
  std::string RealPath(const std::string& path) const override { return base_->RealPath(path); }
  bool Write(const std::string& path, std::string_view content, std::string* error) override {
    return base_->Write(path, content, error);
  }
  bool MakeDirectories(const std::string& path, std::string* error) override {
    return base_->MakeDirectories(path, error);
  }
  bool MakeDirectoryWith(const std::string& dir, const std::string& file, std::string_view content,
                         std::string* error) override {
    return base_->MakeDirectoryWith(dir, file, content, error);
  }

 private:
  FileSystem* base_;
  std::map<std::string, std::string, std::less<>> buffers_;  // by absolute path
};

}  // namespace capops::workspace
