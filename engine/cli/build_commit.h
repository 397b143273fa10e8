// SPDX-License-Identifier: Apache-2.0
// The git commit capops-lint was built from (engine/cli/build_commit.cmake
// writes its definition at every build).
#pragma once

namespace capops::cli {

/// The commit's full hash, "-dirty" appended when tracked files differed
/// from it; "" when the sources were not a git checkout.
extern const char* const kBuildCommit;

}  // namespace capops::cli
