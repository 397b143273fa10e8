// SPDX-License-Identifier: Apache-2.0
// `capops-lint fmt [--check] PATH…`: rewrites CPL files in place in their
// one canonical layout (syntax/formatter.h: spacing, line breaks,
// indentation, blank lines; tokens and comments are kept). With --check
// nothing is written: the files that would change are listed and the exit
// code is 1.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace capops::cli {

struct FmtOptions {
  std::vector<std::string> paths;  // `*.cpl` files or directories (required)
  bool check = false;
  bool color = false;
};

/// Exit 0 when all is formatted (or was rewritten), 1 with --check when a
/// file would change, 2 when a file cannot be read, parsed or written (or
/// the formatter fails on it).
int RunFmt(const FmtOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
