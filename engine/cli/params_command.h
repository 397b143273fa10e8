// SPDX-License-Identifier: Apache-2.0
// `capops-lint params [--format text|json] [--config FILE] [--no-config]
// [--policies PATH]…`: every param of the rule set — qualified name, type,
// default and where it is declared, the value in force and where it was set
// (the pack's default, or a config file's line for the package or for one
// rule), the values set for single rules, and the rules that read it.
//
// The config is read and applied as a lint reads it (config_params.h): the
// same errors, located, with exit 2.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/report/lint_report.h"

namespace capops::cli {

struct ParamsOptions {
  std::vector<std::string> policies;  // default: the config's, else the shipped pack
  std::string config;                 // empty: .capops.yaml here or in a parent directory
  bool no_config = false;             // read no config: the defaults
  report::Format format = report::Format::kText;  // text or JSON
  bool color = false;
};

/// Exit 0, or 2 (driver.h) when the config or the policies are not usable.
int RunParams(const ParamsOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
