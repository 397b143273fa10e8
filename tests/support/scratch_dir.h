// SPDX-License-Identifier: Apache-2.0
// A fresh temporary directory holding a copy of the example plan and
// inventory, removed at the end; for CLI tests that need files on disk.
#pragma once

#include <filesystem>

#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace capops::testing {

class ScratchDir : public TempDir {
 public:
  ScratchDir() : TempDir("capops-scratch") {
    namespace fs = std::filesystem;
    fs::path example = fs::path(SourceDir()) / "examples/visual-inspection";
    fs::copy_file(example / "plan.yaml", dir() / "plan.yaml");
    fs::copy_file(example / "inventory.yaml", dir() / "inventory.yaml");
  }
};

}  // namespace capops::testing
