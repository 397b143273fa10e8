// SPDX-License-Identifier: Apache-2.0
// The explain command: everything an auditor needs to read one rule.
#include "engine/cli/explain_command.h"

#include <set>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/common/escape.h"
#include "engine/lint/rule_catalog.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli {

namespace {

std::string Text(const SourceManager& sources, const Span& span) {
  return sources.file(span.file).text().substr(span.begin, span.end - span.begin);
}

void WriteRule(const Engine& engine, const check::RuleInfo& rule, std::ostream& out) {
  const SourceManager& sources = engine.sources();
  SourceLoc at = sources.Resolve(rule.rule->span);
  out << Visible(rule.id) << "  " << Visible(rule.rule->name) << "  ("
      << SeverityName(rule.severity) << ")\n";
  out << "  defined at: " << Visible(sources.ShownPath(at.file)) << ':' << at.line << ':'
      << at.column << '\n';
  if (!rule.owner.empty()) out << "  owner: " << Visible(rule.owner) << '\n';
  if (!rule.source.empty()) out << "  source: " << Visible(rule.source) << '\n';
  for (const std::string& tag : rule.tags) out << "  tag: " << Visible(tag) << '\n';
  out << "  cost: " << rule.cost << '\n';
  if (!rule.rule->doc.empty()) out << '\n' << Visible(rule.rule->doc, Keep::kTabNewline) << '\n';
  for (const syntax::Emit& e : rule.rule->emits) {
    if (!e.because.empty()) out << "\nbecause: " << Visible(e.because) << '\n';
    if (!e.fix.empty()) out << "fix: " << Visible(e.fix) << '\n';
  }
  std::vector<lint::ParamEntry> params = lint::RuleParams(engine, rule);
  if (!params.empty()) out << "\nparams:\n";
  for (const lint::ParamEntry& p : params)
    out << "  " << p.name << ": " << p.type << " = " << Visible(p.value) << '\n';
  out << "\nsource:\n";
  out << Visible(Text(sources, rule.rule->span), Keep::kTabNewline) << '\n';
}

}  // namespace

int RunExplain(const ExplainOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine;
  if (!LoadPack(options.policies, options.color, &engine, err)) return kExitUsage;
  // An id names one rule; a name may be used in several packages.
  const check::Program& program = *engine.program();
  std::vector<const check::RuleInfo*> named;
  std::vector<std::string> ids;
  for (const check::RuleInfo& rule : program.rules) {
    if (rule.id == options.rule_id) {
      WriteRule(engine, rule, out);
      return kExitClean;
    }
    if (rule.rule->name == options.rule_id) named.push_back(&rule);
    ids.push_back(rule.id);
  }
  if (named.size() == 1) {
    WriteRule(engine, *named[0], out);
    return kExitClean;
  }
  if (named.size() > 1) {
    std::string reason = "rule name `" + options.rule_id +
                         "` is ambiguous: " + std::to_string(named.size()) + " rules have it";
    for (const check::RuleInfo* rule : named) {
      SourceLoc at = engine.sources().Resolve(rule->rule->name_span);
      reason += "\n  `" + rule->id + "` in package `" + program.modules[rule->module]->package +
                "` (" + std::string(engine.sources().ShownPath(at.file)) + ":" +
                std::to_string(at.line) + ":" + std::to_string(at.column) + ")";
    }
    reason += "\n  help: name one by its id, e.g. `capops-lint explain " + named[0]->id + "`";
    return Fail(err, reason);
  }
  std::string guess = ClosestName(options.rule_id, ids);
  return Fail(err, "no rule `" + options.rule_id + "`" +
                       (guess.empty() ? "" : "; did you mean `" + guess + "`?"));
}

}  // namespace capops::cli
