// SPDX-License-Identifier: Apache-2.0
// capops-lint: checks capacity plans against policy packs. See driver.h.
#include <iostream>

#include "engine/cli/driver.h"
#include "engine/eval/allocator.h"

int main(int argc, char** argv) {
  capops::eval::SetAllocatorForLint();
  return capops::cli::Run(argc, argv, std::cout, std::cerr);
}
