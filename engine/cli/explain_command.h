// SPDX-License-Identifier: Apache-2.0
// `capops-lint explain RULE-ID [--policy PATH]…`: a rule's documentation,
// metadata, rationale, parameters with their current values and CPL source.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace capops::cli {

struct ExplainOptions {
  std::string rule_id;
  std::vector<std::string> policies;
  bool color = false;
};

/// Exit 0, or 2 for an unknown rule, a rule name that several packages use
/// (the candidates are listed) or policies that do not compile.
int RunExplain(const ExplainOptions& options, std::ostream& out, std::ostream& err);

}  // namespace capops::cli
