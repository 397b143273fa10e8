// SPDX-License-Identifier: Apache-2.0
// A fresh directory for a test that needs files on disk, removed with all it
// holds at the end. The one way the tests make one: a name of its own under
// the system's temporary directory (mkdtemp), never one another test or
// process has, however many run at once.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace capops::testing {

/// Writes `text` to the file `path`, replacing what it held.
inline void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

class TempDir {
 public:
  /// `prefix` names it, for whoever finds one left behind by a crash.
  explicit TempDir(const std::string& prefix = "capops-test") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp " + pattern);
    dir_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Writes `text` to `name` (directories created); returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((dir_ / name).parent_path());
    WriteFile(Path(name), text);
    return Path(name);
  }
  std::string Read(const std::string& name) const {
    std::ifstream in(dir_ / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

/// Makes `dir` the working directory for as long as it lives, then goes
/// back: a run from somewhere other than the source tree. Not for tests that
/// run in parallel threads (the working directory is the process's).
class InDir {
 public:
  explicit InDir(const std::filesystem::path& dir) { std::filesystem::current_path(dir); }
  ~InDir() {
    std::error_code ec;
    std::filesystem::current_path(was_, ec);
  }
  InDir(const InDir&) = delete;
  InDir& operator=(const InDir&) = delete;

 private:
  std::filesystem::path was_ = std::filesystem::current_path();
};

}  // namespace capops::testing
