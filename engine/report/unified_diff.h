// SPDX-License-Identifier: Apache-2.0
// A unified diff of two texts of one file, as `diff -u` writes it (three
// lines of context, hunks merged when their context meets, `\ No newline at
// end of file` where a text ends without one), for `capops-lint
// --fix-dry-run`. The lines are matched by Myers' algorithm, O((N+M)·D) in
// the lines N, M and the lines changed D; past kMaxDiffEdits changed lines
// the texts are given as one hunk.
//
//   out << UnifiedDiff("plan.yaml", before, after);  // "" when equal
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace capops::report {

/// Changed lines past which a diff stops looking for matches.
inline constexpr size_t kMaxDiffEdits = 4000;

/// `--- path`, `+++ path` and the hunks that turn `before` into `after`;
/// "" when they are the same.
std::string UnifiedDiff(const std::string& path, std::string_view before, std::string_view after);

}  // namespace capops::report
