// SPDX-License-Identifier: Apache-2.0
// `capops-lint check-rules [--cost] [--plan] [PATH…]`: compile and type-check
// policy packs without any facts, for the CI of a policy repository; --plan
// prints how each rule will run (plan::Dump: its IR, joins, what is
// computed once).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace capops::cli {

struct CheckRulesOptions {
  std::vector<std::string> policies;  // files or directories; default: the shipped pack
  bool cost = false;                  // print each rule's static cost bound
  bool plan = false;                  // print the evaluation plan instead of the list
  bool color = false;
};

/// Exit 0 when everything compiles, 2 otherwise (driver.h).
int RunCheckRules(const CheckRulesOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
