// SPDX-License-Identifier: Apache-2.0
// `capops-lint doc [PATH…] -o DIR`: a browsable catalogue of policy packs.
//
// Writes DIR/index.html and DIR/rules.md, the rules grouped by area (the
// file they are declared in), and DIR/schema.html and DIR/schema.md, the
// fact schema as a reference (doc_schema.h), and DIR/fixtures.html and
// DIR/fixtures.md, the test fixtures several rules share (doc_fixtures.h).
// The HTML pages open from the disk: no server, nothing fetched, one inline
// script (a search box). Each rule gets its metadata, rationale (doc comment
// and `because`), fix hint, params with their values, the record fields it
// reads, its CPL source, the coverage the pack's tests give it (the tests
// are run), and as examples the fact files of the policy tests that expect
// it to fire or stay quiet: inline, or a link to the fixtures page when
// other rules show the same file.
// Paths are shown relative to the pack or stdlib they belong to (doc_page.h).
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
