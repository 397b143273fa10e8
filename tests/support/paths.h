// SPDX-License-Identifier: Apache-2.0
// Where the tests find what they read: the source tree they were built from
// and the binaries built beside them. Defined in one translation unit
// (paths.cc), so that no other test object depends on where the tree is:
// a build of the same sources in another folder compiles them identically.
#pragma once

#include <string>

namespace capops::testing {

/// The source tree (examples, the pack, the stdlib, test data).
const std::string& SourceDir();

/// The capops-lsp binary of this build.
const std::string& LspBinary();

}  // namespace capops::testing
