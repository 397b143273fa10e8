// SPDX-License-Identifier: Apache-2.0
// Atomic file replacement and file identity for the files a run writes.
#include "engine/workspace/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace capops::workspace {

namespace fs = std::filesystem;

namespace {

bool WriteAll(int fd, std::string_view content) {
  while (!content.empty()) {
    ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    content.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string Reason(const std::string& path, int error_number) {
  return "cannot write `" + path + "`: " + std::strerror(error_number);
}

}  // namespace

bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error) {
  fs::path target(path);
  struct stat old {};
  bool exists = ::stat(path.c_str(), &old) == 0;
  if (exists && !S_ISREG(old.st_mode)) {
    // Replacing a FIFO, a device or a directory with a file is never wanted.
    *error = "cannot write `" + path + "`: it exists and is not a regular file";
    return false;
  }
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string temp = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    *error = Reason(path, errno);
    return false;
  }
  mode_t mode = 0644;
  if (exists) {
    mode = old.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode &= ~mask;
  }
  errno = 0;
  int failure = 0;
  if (::fchmod(fd, mode) != 0 || !WriteAll(fd, content) || ::fsync(fd) != 0)
    failure = errno != 0 ? errno : EIO;
  if (::close(fd) != 0 && failure == 0) failure = errno;
  if (failure == 0 && ::rename(temp.c_str(), path.c_str()) != 0) failure = errno;
  if (failure != 0) {
    ::unlink(temp.c_str());
    *error = Reason(path, failure);
    return false;
  }
  // The rename itself reaches the disk with the directory.
  int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return true;
}

bool RewriteFile(const std::string& path, std::string_view expected, std::string_view content,
                 std::string* error) {
  std::error_code ec;
  fs::path target = fs::canonical(path, ec);  // through every link to the file itself
  if (ec) {
    *error = "cannot write `" + path + "`: " + ec.message();
    return false;
  }
  int fd = ::open(target.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot write `" + path + "`: " + std::strerror(errno);
    return false;
  }
  std::string now;
  char buffer[65536];
  ssize_t n = 0;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) now.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  if (n < 0 || now != expected) {
    *error = "not writing `" + path +
             "`: it changed since it was read; lint it again to fix what it holds now";
    return false;
  }
  if (content == expected) return true;
  // No write bit at all is read-only to everyone, root too: the owner said so.
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0 || (st.st_mode & 0222) == 0 ||
      ::access(target.c_str(), W_OK) != 0) {
    *error = "cannot write `" + path + "`: the file is read-only";
    return false;
  }
  return WriteFileAtomically(target.string(), content, error);
}

}  // namespace capops::workspace
