// SPDX-License-Identifier: Apache-2.0
// Writing the files a run produces (reports, baselines, cache entries,
// catalogues, formatted policies) without ever damaging what was there.
//
// A file is written whole or not at all: to a temporary file in the same
// directory, flushed to the disk, then renamed over the target. A full disk,
// a write error or a crash leaves the old file as it was. (An output that is
// one of the run's inputs is refused before this: IsSameFileAsAny,
// same_file.h.)
//
//   std::string error;
//   if (!WriteFileAtomically(out_path, report_text, &error)) … exit 2
#pragma once

#include <string>
#include <string_view>

namespace capops::workspace {

/// Replaces (or creates) `path` with `content` atomically. The new file
/// keeps the old one's permission bits, or gets 0644 less the umask. False
/// with `*error` set (a one-line reason naming the file); the old file, if
/// any, is then unchanged and no temporary file is left behind.
bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error);

/// Writes `content` over an input file the run read as `expected` (what
/// `capops-lint --fix` does to a plan): through a symbolic link to the file
/// it names, the link kept; atomically, as WriteFileAtomically, keeping its
/// permission bits. Refused (false, `*error` a one-line reason naming the
/// file, nothing written) when the file cannot be written by this user
/// (read-only), or no longer holds `expected` (changed or replaced since it
/// was read; checked just before the rename is prepared, so a change in the
/// instant between is not seen). When `content` is `expected` nothing is
/// written.
bool RewriteFile(const std::string& path, std::string_view expected, std::string_view content,
                 std::string* error);

}  // namespace capops::workspace
