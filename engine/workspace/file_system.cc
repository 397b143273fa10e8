// The file systems a host lints from: the disk, an editor's buffers over
// it, and files held in memory. Entry points: the FileSystem subclasses.
#include "engine/workspace/file_system.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

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

std::vector<std::string> DiskFileSystem::FilesUnder(const std::string& root) const {
  std::vector<std::string> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (it->is_directory(ec)) {
      if (IsHidden(p.filename().string())) it.disable_recursion_pending();
      continue;
    }
    found.push_back(Normal(p));
  }
  std::sort(found.begin(), found.end());
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
  limit = std::min(limit, SIZE_MAX - 1);
  *text = it->second.substr(0, limit + 1);
  return true;
}

std::vector<std::string> MemoryFileSystem::FilesUnder(const std::string& root) const {
  std::string dir = Absolute(root);
  std::vector<std::string> found;
  for (auto it = files_.upper_bound(dir); it != files_.end() && Below(dir, it->first); ++it) {
    if (!UnderHidden(dir, it->first)) found.push_back(Spelt(root, dir, it->first));
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::optional<std::string> MemoryFileSystem::Identity(const std::string& path) const {
  std::string p = Absolute(path);
  if (files_.count(p) == 0) return std::nullopt;
  return p;
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
  if (stamp != nullptr) *stamp = std::nullopt;  // a buffer is not read back from the disk
  limit = std::min(limit, SIZE_MAX - 1);
  *text = buffer->substr(0, limit + 1);
  return true;
}

std::vector<std::string> OverlayFileSystem::FilesUnder(const std::string& root) const {
  std::vector<std::string> found = base_->FilesUnder(root);
  std::string dir = Absolute(root);
  for (auto it = buffers_.upper_bound(dir); it != buffers_.end() && Below(dir, it->first); ++it) {
    if (!UnderHidden(dir, it->first)) found.push_back(Spelt(root, dir, it->first));
  }
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
