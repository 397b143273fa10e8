// A file in a fresh temporary directory, for tests that read from disk.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>

#include "engine/common/source.h"

namespace capops::testing {

/// A file `plan.yaml` in a fresh temporary directory, removed at the end.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    namespace fs = std::filesystem;
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("capops-test-" + std::to_string(rd()));
    fs::create_directories(dir_);
    path_ = (dir_ / "plan.yaml").string();
    Write(path_, text);
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  static void Write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  }
  /// The stamp of the file as it is now, as a reader of its text takes it.
  std::optional<FileStamp> Stamp() const {
    int fd = ::open(path_.c_str(), O_RDONLY);
    std::optional<FileStamp> stamp = StampOf(fd);
    ::close(fd);
    return stamp;
  }
  const std::string& path() const { return path_; }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  std::string path_;
};

}  // namespace capops::testing
