// Writing the files a run produces (reports, baselines, cache entries,
// catalogues, formatted policies) without ever damaging what was there.
//
// A file is written whole or not at all: to a temporary file in the same
// directory, flushed to the disk, then renamed over the target. A full disk,
// a write error or a crash leaves the old file as it was. An output that is
// one of the run's inputs (the same file, however it is named: `./plan.yaml`,
// a hard or symbolic link) is refused before anything is written.
//
//   std::string error;
//   if (IsSameFileAsAny(out_path, inputs, &error)) … exit 2
//   if (!WriteFileAtomically(out_path, report_text, &error)) … exit 2
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace capops::cli {

/// Replaces (or creates) `path` with `content` atomically. The new file
/// keeps the old one's permission bits, or gets 0644 less the umask. False
/// with `*error` set (a one-line reason naming the file); the old file, if
/// any, is then unchanged and no temporary file is left behind.
bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error);

/// True when `a` and `b` name the same existing file (device and inode).
bool SameFile(const std::string& a, const std::string& b);

/// True, with `*error` saying which, when `output` is the same file as one
/// of `inputs` (which may hold directories: an output inside one of them
/// that is a linted file is caught by listing the files, not here).
bool IsSameFileAsAny(const std::string& output, const std::vector<std::string>& inputs,
                     std::string* error);

}  // namespace capops::cli
