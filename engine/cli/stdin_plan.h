// SPDX-License-Identifier: Apache-2.0
// `capops-lint -`: the plan read from standard input, as if it were a file.
//
// `-` among the plans stands for standard input, read once, whole (up to
// the fact size limit), before the lint starts. The plan is named
// `--stdin-filename PATH` when given, else `<stdin>`, and is linted as a
// file of that name would be: its findings are located there, its default
// inventory is looked for beside that path (the config, as for any plan,
// from the working directory), and a file on disk of that name is not read. The text is laid over
// the disk through an OverlayFileSystem (workspace/file_system.h), so nothing downstream knows it
// came from a pipe.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace capops::cli {

inline constexpr const char* kStdinName = "<stdin>";

struct StdinPlan {
  bool used = false;  // `-` was among the plans
  std::string name;   // what it is called: --stdin-filename, else `<stdin>`
  std::string text;   // at most `limit` + 1 bytes: a larger input is refused as a file is
};

/// Replaces `-` in `*plans` by the plan's name and reads it from `in`.
/// `process_stdin`: `in` is the process's standard input, whose descriptor
/// is checked first (closed, a directory). False with `*error` set for a
/// usage error: `-` twice, --stdin-filename without `-` or empty, an
/// input that cannot be read.
bool TakeStdinPlan(std::vector<std::string>* plans, const std::string& stdin_filename,
                   bool stdin_filename_given, std::istream& in, bool process_stdin, size_t limit,
                   StdinPlan* plan, std::string* error);

}  // namespace capops::cli
