// `capops-lint fmt [--check] PATH…`: formats CPL files in place
// (syntax/formatter.h: indentation, trailing whitespace, blank lines; tokens
// and comments are never touched). With --check nothing is written: the
// files that would change are listed and the exit code is 1.
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
/// file would change, 2 when a file cannot be read, parsed or written.
int RunFmt(const FmtOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
