// SPDX-License-Identifier: Apache-2.0
// GitSnapshot: a path of a git work tree as it was at a revision, written to
// a temporary directory — the OLD side of `capops-lint rules --diff git:REV PATH`.
//
//   GitSnapshot old;
//   if (!old.Extract("HEAD~1", "policies/capops-ai", &error)) … exit 2
//   old.root();   // <tmp>/…/policies/capops-ai: the files as of HEAD~1
//   old.label();  // "HEAD~1:policies/capops-ai", the name to show them by
//
// It runs `git` (rev-parse, then archive) and `tar` as child processes found
// on the PATH, with arguments passed as they are (no shell), and removes the
// directory when destroyed. Not thread-safe; nothing else is shared.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace capops::workspace {

class GitSnapshot {
 public:
  GitSnapshot() = default;
  ~GitSnapshot();
  GitSnapshot(const GitSnapshot&) = delete;
  GitSnapshot& operator=(const GitSnapshot&) = delete;

  /// Writes `path` (a file or directory inside a git work tree) as of
  /// `revision` into a new temporary directory. False with a one-line
  /// `*error` when git is missing, `path` is not in a work tree, the
  /// revision is unknown or `path` did not exist at it.
  bool Extract(const std::string& revision, const std::string& path, std::string* error);

  /// Where the snapshot of `path` is; empty before a successful Extract().
  const std::filesystem::path& root() const { return root_; }
  /// `REV:path-in-repository`, the way `git show` names it.
  const std::string& label() const { return label_; }
  /// The work tree's file for a path into the snapshot's directory: files
  /// outside `path` (a policy test's fixture in `examples/`, say) are not
  /// in the snapshot, so they are read as they are now.
  std::filesystem::path InWorkTree(const std::filesystem::path& file) const;

 private:
  bool Run(const std::vector<std::string>& argv, std::string* output, std::string* error) const;

  std::filesystem::path temp_dir_;
  std::filesystem::path tree_;  // the repository's top level, as of the revision
  std::filesystem::path top_;   // the work tree's top level
  std::filesystem::path root_;
  std::string label_;
};

}  // namespace capops::workspace
