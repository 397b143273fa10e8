// SPDX-License-Identifier: Apache-2.0
// The file systems a host lints from: the disk, an editor's buffers over
// it, and files held in memory. Entry points: the FileSystem subclasses.
#include "engine/workspace/file_system.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>

#include "engine/workspace/output_file.h"
#include "engine/workspace/pack_locator.h"

namespace capops::workspace {

namespace fs = std::filesystem;

namespace {

std::string Normal(const fs::path& p) {
  std::string s = p.lexically_normal().string();
  if (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool IsHidden(std::string_view name) {
  return name.size() > 1 && name.front() == '.' && name != "..";
}

// `path` is `dir` or below it (both absolute and normalised).
bool Below(std::string_view dir, std::string_view path) {
  if (dir == "/") return path.size() > 1 && path.front() == '/';
  return path.size() > dir.size() && path.substr(0, dir.size()) == dir && path[dir.size()] == '/';
}

// `path` is `dir` or below it (both absolute and normalised).
bool Inside(std::string_view dir, std::string_view path) {
  return path == dir || Below(dir, path);
}

// Whether any directory between `dir` and `path` (exclusive) is hidden.
bool UnderHidden(std::string_view dir, std::string_view path) {
  fs::path rel = fs::path(path).lexically_relative(fs::path(dir));
  fs::path parent = rel.parent_path();
  return std::any_of(parent.begin(), parent.end(),
                     [](const fs::path& s) { return IsHidden(s.string()); });
}

// `path` under `root` as `root/…` is spelt by the caller.
std::string Spelt(const std::string& root, std::string_view absolute_root,
                  std::string_view absolute) {
  return Normal(fs::path(root) / fs::path(absolute).lexically_relative(fs::path(absolute_root)));
}

// A file held as text, read as a disk file is: the limit and one byte more.
void ReadHeld(const std::string& held, size_t limit, std::string* text,
              std::optional<FileStamp>* stamp) {
  if (stamp != nullptr) *stamp = std::nullopt;  // held text is not read back from the disk
  *text = held.substr(0, std::min(limit, SIZE_MAX - 1) + 1);
}

// The held files below directory `dir` (`root` absolute), spelt as `root`
// is, hidden directories skipped; appended to `*found`.
void HeldBelow(const std::map<std::string, std::string, std::less<>>& held, const std::string& root,
               const std::string& dir, std::vector<std::string>* found) {
  for (auto it = held.upper_bound(dir); it != held.end() && Below(dir, it->first); ++it) {
    if (!UnderHidden(dir, it->first)) found->push_back(Spelt(root, dir, it->first));
  }
}

}  // namespace

std::string FileSystem::Absolute(const std::string& path) const {
  fs::path p(path);
  return Normal(p.is_absolute() ? p : fs::path(WorkingDirectory()) / p);
}

// --- the disk ---------------------------------------------------------------

DiskFileSystem::DiskFileSystem() {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  cwd_ = ec ? "/" : Normal(cwd);
}

FileKind DiskFileSystem::Kind(const std::string& path) const {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return FileKind::kMissing;
  if (fs::is_regular_file(st)) return FileKind::kRegular;
  if (fs::is_directory(st)) return FileKind::kDirectory;
  return FileKind::kOther;
}

bool DiskFileSystem::Exists(const std::string& path) const {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

bool DiskFileSystem::Read(const std::string& path, size_t limit, std::string* text,
                          std::string* error, std::optional<FileStamp>* stamp) const {
  return ReadFile(path, text, error, limit, stamp);
}

// A walk of its own rather than std::filesystem's: a directory iterator
// keeps every level's path split into components, which costs memory by the
// square of the depth; here a pending directory is one string, and each
// directory is entered once however many links lead to it.
std::vector<std::string> DiskFileSystem::FilesUnder(const std::string& root,
                                                    const std::string& boundary,
                                                    std::vector<Refused>* refused) const {
  std::vector<std::string> found;
  std::string real_boundary = boundary.empty() ? "" : RealPath(boundary);
  std::string real_root = RealPath(root);
  std::set<std::pair<dev_t, ino_t>> entered;
  // Directories reached through links wait until the tree itself is
  // walked, so that a file is spelt by its own path where it has one.
  const std::string top = Normal(root);
  std::vector<std::string> pending = {top}, linked;
  while (!pending.empty() || !linked.empty()) {
    if (pending.empty()) {
      pending.push_back(std::move(linked.front()));
      linked.erase(linked.begin());
    }
    std::string dir = std::move(pending.back());
    pending.pop_back();
    // What is below a directory that cannot be listed is said, never passed over.
    auto unreadable = [&](const std::string& path) {
      if (refused != nullptr)
        refused->push_back({path, Refused::Kind::kUnreadable, std::strerror(errno)});
    };
    // An entry gone between its listing and its look (another process's
    // temporary file or directory, renamed into place) was never a plan:
    // it is passed over. The root itself must be there.
    auto vanished = [&](const std::string& path) { return errno == ENOENT && path != top; };
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0) {
      if (!vanished(dir)) unreadable(dir);
      continue;
    }
    if (!S_ISDIR(st.st_mode) || !entered.insert({st.st_dev, st.st_ino}).second) continue;
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) {
      if (!vanished(dir)) unreadable(dir);
      continue;
    }
    std::vector<std::string> below;
    while (const dirent* e = ::readdir(d)) {
      std::string_view name = e->d_name;
      if (name == "." || name == "..") continue;
      std::string path = dir == "/" ? "/" + std::string(name) : dir + "/" + std::string(name);
      struct stat link, target;
      if (::lstat(path.c_str(), &link) != 0) {
        if (!vanished(path)) unreadable(path);
        continue;
      }
      bool is_link = S_ISLNK(link.st_mode);
      bool is_dir = ::stat(path.c_str(), &target) == 0 && S_ISDIR(target.st_mode);
      std::string real = is_link && !real_boundary.empty() ? RealPath(path) : "";
      if (is_link && !real_boundary.empty() && !Inside(real_boundary, real)) {
        if (refused != nullptr) refused->push_back({path, Refused::Kind::kLinkOutside, ""});
        continue;
      }
      // A link back up to the walk's root or above it is a loop: what it
      // leads to below the root is walked already, the rest was not asked for.
      if (is_link && !real.empty() && Inside(real, real_root)) continue;
      if (!is_dir) {
        found.push_back(
            std::move(path));  // a FIFO or a dangling link too: its read says what it is
      } else if (!IsHidden(name) && !is_link) {
        below.push_back(std::move(path));
      } else if (!IsHidden(name) && !real_boundary.empty()) {
        linked.push_back(std::move(path));
      }
    }
    ::closedir(d);
    pending.insert(pending.end(), std::make_move_iterator(below.rbegin()),
                   std::make_move_iterator(below.rend()));
  }
  std::sort(found.begin(), found.end());
  if (refused != nullptr) {
    std::sort(refused->begin(), refused->end(),
              [](const Refused& a, const Refused& b) { return a.path < b.path; });
  }
  return found;
}

std::optional<std::string> DiskFileSystem::Identity(const std::string& path) const {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;  // follows links
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

std::string DiskFileSystem::RealPath(const std::string& path) const {
  std::error_code ec;
  fs::path real = fs::weakly_canonical(Absolute(path), ec);
  return ec ? Absolute(path) : Normal(real);
}

bool DiskFileSystem::Write(const std::string& path, std::string_view content, std::string* error) {
  return WriteFileAtomically(path, content, error);
}

bool DiskFileSystem::MakeDirectories(const std::string& path, std::string* error) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (!ec) return true;
  *error = "cannot create `" + path + "`: " + ec.message();
  return false;
}

bool DiskFileSystem::MakeDirectoryWith(const std::string& dir, const std::string& file,
                                       std::string_view content, std::string* error) {
  fs::path target = fs::path(Absolute(dir));
  if (Kind(target.string()) != FileKind::kMissing) return true;
  if (!MakeDirectories(target.parent_path().string(), error)) return false;
  // Made whole beside its place, then renamed into it.
  std::string pattern = target.string() + ".new-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    *error = "cannot create `" + dir + "`: " + std::strerror(errno);
    return false;
  }
  std::error_code ec;
  if (!Write(pattern + "/" + file, content, error)) {
    fs::remove_all(pattern, ec);
    return false;
  }
  if (::rename(pattern.c_str(), target.c_str()) == 0) return true;
  int why = errno;
  fs::remove_all(pattern, ec);
  if (why == EEXIST || why == ENOTEMPTY) return true;  // another run made it first
  *error = "cannot create `" + dir + "`: " + std::strerror(why);
  return false;
}

// --- memory -----------------------------------------------------------------

MemoryFileSystem::MemoryFileSystem(std::string working_directory)
    : cwd_(Normal(fs::path("/") / working_directory)) {}

void MemoryFileSystem::Add(const std::string& path, std::string text) {
  files_[Absolute(path)] = std::move(text);
}

FileKind MemoryFileSystem::Kind(const std::string& path) const {
  std::string p = Absolute(path);
  if (files_.count(p) != 0) return FileKind::kRegular;
  auto it = files_.upper_bound(p);
  if (p == "/" || (it != files_.end() && Below(p, it->first))) return FileKind::kDirectory;
  return FileKind::kMissing;
}

bool MemoryFileSystem::Read(const std::string& path, size_t limit, std::string* text,
                            std::string* error, std::optional<FileStamp>* stamp) const {
  if (stamp != nullptr) *stamp = std::nullopt;
  auto it = files_.find(Absolute(path));
  if (it == files_.end()) {
    *error = "cannot read `" + path + "`: " +
             (Kind(path) == FileKind::kDirectory ? "it is a directory, not a regular file"
                                                 : "No such file or directory");
    return false;
  }
  ReadHeld(it->second, limit, text, stamp);
  return true;
}

std::vector<std::string> MemoryFileSystem::FilesUnder(const std::string& root, const std::string&,
                                                      std::vector<Refused>*) const {
  std::vector<std::string> found;
  HeldBelow(files_, root, Absolute(root), &found);
  std::sort(found.begin(), found.end());
  return found;
}

std::optional<std::string> MemoryFileSystem::Identity(const std::string& path) const {
  std::string p = Absolute(path);
  if (files_.count(p) == 0) return std::nullopt;
  return p;
}

bool MemoryFileSystem::MakeDirectoryWith(const std::string& dir, const std::string& file,
                                         std::string_view content, std::string* error) {
  if (Kind(dir) != FileKind::kMissing) return true;
  return Write(dir + "/" + file, content, error);
}

bool MemoryFileSystem::Write(const std::string& path, std::string_view content, std::string*) {
  files_[Absolute(path)] = std::string(content);
  return true;
}

// --- buffers over a base ----------------------------------------------------

void OverlayFileSystem::Set(const std::string& path, std::string text) {
  buffers_[Absolute(path)] = std::move(text);
}

void OverlayFileSystem::Remove(const std::string& path) {
  buffers_.erase(Absolute(path));
}

const std::string* OverlayFileSystem::Buffer(const std::string& path) const {
  auto it = buffers_.find(Absolute(path));
  return it == buffers_.end() ? nullptr : &it->second;
}

FileKind OverlayFileSystem::Kind(const std::string& path) const {
  return Buffer(path) != nullptr ? FileKind::kRegular : base_->Kind(path);
}

bool OverlayFileSystem::Exists(const std::string& path) const {
  return Buffer(path) != nullptr || base_->Exists(path);
}

bool OverlayFileSystem::Read(const std::string& path, size_t limit, std::string* text,
                             std::string* error, std::optional<FileStamp>* stamp) const {
  const std::string* buffer = Buffer(path);
  if (buffer == nullptr) return base_->Read(path, limit, text, error, stamp);
  ReadHeld(*buffer, limit, text, stamp);
  return true;
}

std::vector<std::string> OverlayFileSystem::FilesUnder(const std::string& root,
                                                       const std::string& boundary,
                                                       std::vector<Refused>* refused) const {
  std::vector<std::string> found = base_->FilesUnder(root, boundary, refused);
  HeldBelow(buffers_, root, Absolute(root), &found);
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

std::optional<std::string> OverlayFileSystem::Identity(const std::string& path) const {
  if (std::optional<std::string> id = base_->Identity(path)) return id;
  if (Buffer(path) != nullptr) return "buffer:" + Absolute(path);
  return std::nullopt;
}

}  // namespace capops::workspace
