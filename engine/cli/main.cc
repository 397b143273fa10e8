// capops-lint: checks capacity plans against policy packs. See driver.h.
#include <iostream>

#include "engine/cli/driver.h"

int main(int argc, char** argv) { return capops::cli::Run(argc, argv, std::cout, std::cerr); }
