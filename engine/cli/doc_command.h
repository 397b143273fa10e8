// `capops-lint doc [PATH…] -o DIR`: a browsable catalogue of policy packs.
//
// Writes DIR/rules.md (Markdown) and DIR/index.html (one static page, no
// scripts, no external resources: it opens from the disk without a server).
// Each rule gets its metadata, rationale (doc comment and `because`), fix
// hint, params with their values, CPL source, and as examples the fact files
// of the policy tests (`*_test.cpl`) that expect it to fire or stay quiet.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace capops::cli {

struct DocOptions {
  std::vector<std::string> policies;  // files or directories; default: the shipped pack
  std::string out_dir;                // created if missing
};

/// Exit 0, or 2 when the policies do not compile or DIR cannot be written (driver.h).
int RunDoc(const DocOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
