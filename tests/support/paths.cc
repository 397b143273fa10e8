// SPDX-License-Identifier: Apache-2.0
// The build's paths, from compile definitions given to this file alone
// (tests/CMakeLists.txt).
#include "tests/support/paths.h"

namespace capops::testing {

const std::string& SourceDir() {
  static const std::string dir = CAPOPS_SOURCE_DIR;
  return dir;
}

const std::string& LspBinary() {
  static const std::string binary = CAPOPS_LSP_BINARY;
  return binary;
}

}  // namespace capops::testing
