// SPDX-License-Identifier: Apache-2.0
// Finding the shipped data directory, collecting policy files, reading files.
#include "engine/workspace/pack_locator.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace capops::workspace {

namespace fs = std::filesystem;

namespace {
bool IsDataDir(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "stdlib", ec) && fs::is_directory(dir / "policies", ec);
}
}  // namespace

std::optional<fs::path> FindDataDir(std::string* error) {
  if (const char* env = std::getenv("CAPOPS_DATA_DIR"); env != nullptr && *env != '\0') {
    if (IsDataDir(env)) return fs::path(env);
    *error =
        "CAPOPS_DATA_DIR is `" + std::string(env) + "`, which holds no `stdlib/` and `policies/`";
    return std::nullopt;
  }
  std::vector<fs::path> candidates;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path().parent_path() / "share" / "capops");
  candidates.emplace_back(CAPOPS_DATA_DIR_BUILD);
  candidates.emplace_back(CAPOPS_DATA_DIR_INSTALL);
  for (const fs::path& c : candidates) {
    if (IsDataDir(c)) return c;
  }
  *error = "cannot find the shipped `stdlib/` and `policies/` (set CAPOPS_DATA_DIR)";
  return std::nullopt;
}

const char* FileTypeName(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

int OpenRegularFile(const fs::path& path, std::string* error) {
  // Opened without blocking, so that a FIFO with no writer cannot hang the
  // run; what it is comes from the descriptor, so nothing changes between
  // the look and the read.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    *error = "cannot read `" + path.string() + "`: " + std::strerror(errno);
    return -1;
  }
  struct stat st {};
  bool known = ::fstat(fd, &st) == 0;
  if (!known || !S_ISREG(st.st_mode)) {
    *error = "cannot read `" + path.string() + "`: it is " +
             (known ? FileTypeName(st.st_mode) : "of an unknown type") + ", not a regular file";
    ::close(fd);
    return -1;
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

bool ReadFile(const fs::path& path, std::string* text, std::string* error, size_t limit,
              std::optional<FileStamp>* stamp) {
  int fd = OpenRegularFile(path, error);
  if (fd < 0) return false;
  text->clear();
  limit = std::min(limit, SIZE_MAX - 1);  // limit + 1 must not wrap
  // Sized once: appending chunks would leave up to twice the file reserved.
  // The stamp comes from the descriptor the text is read from.
  std::optional<FileStamp> read_from = StampOf(fd);
  if (read_from) text->reserve(static_cast<size_t>(std::min<uint64_t>(read_from->size, limit) + 1));
  char chunk[1 << 16];
  bool failed = false;
  while (text->size() <= limit) {
    ssize_t n = ::read(fd, chunk, std::min<size_t>(sizeof chunk, limit + 1 - text->size()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failed = n < 0;
      break;
    }
    text->append(chunk, static_cast<size_t>(n));
  }
  ::close(fd);
  if (failed) {
    *error = "cannot read `" + path.string() + "`";
    return false;
  }
  if (stamp != nullptr) {
    // Only a stamp of the whole text: not of a file cut at the limit or
    // changed while it was read.
    bool whole = read_from && read_from->size == text->size();
    *stamp = whole ? read_from : std::nullopt;
  }
  return true;
}

}  // namespace capops::workspace
