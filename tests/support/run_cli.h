// SPDX-License-Identifier: Apache-2.0
// Test helper: run capops-lint in-process with string streams, as a user
// would from the command line (engine/cli/driver.h).
//
//   CliResult r = RunCli({"rules", "--digest"});
//   CHECK(r.exit_code == cli::kExitClean);
#pragma once

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/cli/driver.h"

namespace capops::testing {

struct CliResult {
  int exit_code = 0;
  std::string out;
  std::string err;
};

/// `args` without the program name, `in` its standard input.
inline CliResult RunCliOn(std::vector<std::string> args, std::istream& in) {
  args.insert(args.begin(), "capops-lint");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  int code = cli::Run(static_cast<int>(argv.size()), argv.data(), in, out, err);
  return {code, out.str(), err.str()};
}

/// `args` without the program name.
inline CliResult RunCli(std::vector<std::string> args) {
  return RunCliOn(std::move(args), std::cin);
}

/// The same, with `input` as its standard input.
inline CliResult RunCliWithInput(std::vector<std::string> args, const std::string& input) {
  std::istringstream in(input);
  return RunCliOn(std::move(args), in);
}

}  // namespace capops::testing
