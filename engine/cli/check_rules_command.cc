// SPDX-License-Identifier: Apache-2.0
// The check-rules command: compile the policies, list their rules.
#include "engine/cli/check_rules_command.h"

#include <algorithm>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli {

int RunCheckRules(const CheckRulesOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine;
  if (!LoadPack(options.policies, options.color, &engine, err)) return kExitUsage;
  const check::Program& program = *engine.program();
  if (options.plan) {
    out << plan::Dump(program, *engine.plan(), engine.sources());
    return kExitClean;
  }
  size_t id_width = 2;
  for (const check::RuleInfo& r : program.rules) id_width = std::max(id_width, r.id.size());
  for (const check::RuleInfo& r : program.rules) {
    out << r.id << std::string(id_width - r.id.size() + 2, ' ') << SeverityName(r.severity) << "  "
        << r.rule->name;
    if (options.cost) out << "  " << r.cost;
    out << '\n';
  }
  out << program.rules.size() << " rule" << (program.rules.size() == 1 ? "" : "s") << ", "
      << program.params.size() << " param" << (program.params.size() == 1 ? "" : "s") << ", "
      << program.schema.records.size() << " record types: ok (" << engine.ruleset_digest() << ")\n";
  return kExitClean;
}

}  // namespace capops::cli
