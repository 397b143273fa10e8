// SPDX-License-Identifier: Apache-2.0
// `capops-lint why-not RULE-ID --at SELECTOR PLAN…` (also spelt
// `--why-not RULE-ID --at SELECTOR PLAN…`): why a rule did not
// fire for one fact. SELECTOR is a path into the facts (`allocations[a-train]`,
// `plan.demands[train-v3].window`, `inventory.pools[train-eu]`) or a place in
// a file (`plan.yaml:37`). The answer names, for each binding through that
// fact, the first clause that was false (or erred) with its trace; for a
// binding that passes every clause, the statement that fires and its
// finding, or else each statement's `when`, traced — or it says that the
// fact is not in the rule's domain at all.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/api/engine.h"

namespace capops::cli {

struct WhyNotOptions {
  std::string rule_id;
  std::string selector;
  std::vector<std::string> policies;     // default: the shipped pack
  std::vector<std::string> plans;        // the first is the one explained
  std::vector<std::string> inventories;  // default: inventory.yaml beside the plan
  bool color = false;
  EngineOptions engine;
  std::string stdin_filename;         // the name of the plan `-` reads (stdin_plan.h)
  bool stdin_filename_given = false;  // --stdin-filename was given (maybe empty)
};

/// Exit 0 with the explanation; 1 when the facts are invalid; 2 for an
/// unknown rule, a selector that names nothing, or policies that do not
/// compile. A plan `-` is read from `in` as the lint reads it (stdin_plan.h);
/// `process_stdin`: `in` is the process's standard input.
int RunWhyNot(const WhyNotOptions& options, std::istream& in, bool process_stdin, std::ostream& out,
              std::ostream& err);

}  // namespace capops::cli
