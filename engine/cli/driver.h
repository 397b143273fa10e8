// SPDX-License-Identifier: Apache-2.0
// The capops-lint command line. main() calls Run(); tests call it too, with
// string streams, so the whole CLI is testable in-process.
//
// Exit codes (the output contract):
//   0  nothing at or above --fail-on (default: error)
//   1  findings: violations, rule errors, or fact files that are not valid
//   2  the tool could not do its job: bad arguments, a missing file, a
//      policy that does not compile
// `rules --diff` exits 0 when the diff ran, whatever it found (1 only with
// --fail-on-new and a finding that appears), 2 as above.
#pragma once

#include <istream>
#include <ostream>

namespace capops::cli {

inline constexpr int kExitClean = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;

int Run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
/// The same, reading standard input (for `eval -`) from `in`.
int Run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
