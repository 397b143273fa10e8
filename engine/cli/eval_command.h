// SPDX-License-Identifier: Apache-2.0
// `capops-lint eval EXPR|- [--inventory FILE]… [PLAN]`: type-check and
// evaluate one CPL expression against the facts, like `opa eval`. With `-`,
// expressions are read from standard input, one per line.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/report/lint_report.h"

namespace capops::cli {

struct EvalCommandOptions {
  std::string expression;  // "-" reads lines from `in`
  std::vector<std::string> plans;
  std::vector<std::string> inventories;
  std::vector<std::string> policies;
  report::Format format = report::Format::kText;  // text or JSON
  bool explain = false;
  bool color = false;
  EngineOptions engine;
};

/// Exit 0; 1 when an expression's evaluation errs (or the facts are invalid);
/// 2 when an expression does not compile.
int RunEval(const EvalCommandOptions& options, std::istream& in, std::ostream& out,
            std::ostream& err);

}  // namespace capops::cli
