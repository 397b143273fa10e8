// SPDX-License-Identifier: Apache-2.0
// A file in a fresh temporary directory (temp_dir.h), for tests that read from disk.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

#include "engine/common/source.h"
#include "tests/support/temp_dir.h"

namespace capops::testing {

/// A file `plan.yaml` in a fresh temporary directory, removed at the end.
class TempFile : public TempDir {
 public:
  explicit TempFile(const std::string& text) : TempDir("capops-test") {
    path_ = Write("plan.yaml", text);
  }
  /// The stamp of the file as it is now, as a reader of its text takes it.
  std::optional<FileStamp> Stamp() const {
    int fd = ::open(path_.c_str(), O_RDONLY);
    std::optional<FileStamp> stamp = StampOf(fd);
    ::close(fd);
    return stamp;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace capops::testing
