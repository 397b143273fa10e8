// The explain command: everything an auditor needs to read one rule.
#include "engine/cli/explain_command.h"

#include <set>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/lint/policy_loader.h"
#include "engine/common/escape.h"

namespace capops::cli {

namespace {

// The params a rule reads, in order of first use.
void CollectParams(const syntax::Expr& e, const check::ModuleTables& tables, std::vector<uint32_t>* out) {
  const check::Symbol& sym = tables.symbols[e.id];
  if (e.kind == syntax::ExprKind::kIdent && sym.kind == check::SymbolKind::kParam &&
      std::find(out->begin(), out->end(), sym.index) == out->end()) {
    out->push_back(sym.index);
  }
  for (const auto& arg : e.args) CollectParams(*arg, tables, out);
}

std::vector<uint32_t> ParamsOf(const check::RuleInfo& rule, const check::Program& program) {
  const check::ModuleTables& tables = program.tables[rule.module];
  std::vector<uint32_t> params;
  for (const syntax::Clause& c : rule.rule->clauses) CollectParams(*c.expr, tables, &params);
  for (const syntax::Emit& e : rule.rule->emits) {
    if (e.when) CollectParams(*e.when, tables, &params);
    if (e.at) CollectParams(*e.at, tables, &params);
    for (const auto& part : e.message.parts) {
      if (part.expr) CollectParams(*part.expr, tables, &params);
    }
  }
  return params;
}

std::string Text(const SourceManager& sources, const Span& span) {
  return sources.file(span.file).text().substr(span.begin, span.end - span.begin);
}

void WriteRule(const Engine& engine, const check::RuleInfo& rule, std::ostream& out) {
  const check::Program& program = *engine.program();
  const SourceManager& sources = engine.sources();
  SourceLoc at = sources.Resolve(rule.rule->span);
  out << Visible(rule.id) << "  " << Visible(rule.rule->name) << "  ("
      << SeverityName(rule.severity) << ")\n";
  out << "  defined at: " << Visible(sources.Path(at.file)) << ':' << at.line << ':' << at.column
      << '\n';
  if (!rule.owner.empty()) out << "  owner: " << Visible(rule.owner) << '\n';
  if (!rule.source.empty()) out << "  source: " << Visible(rule.source) << '\n';
  for (const std::string& tag : rule.tags) out << "  tag: " << Visible(tag) << '\n';
  out << "  cost: " << rule.cost << '\n';
  if (!rule.rule->doc.empty()) out << '\n' << Visible(rule.rule->doc, Keep::kTabNewline) << '\n';
  for (const syntax::Emit& e : rule.rule->emits) {
    if (!e.because.empty()) out << "\nbecause: " << Visible(e.because) << '\n';
    if (!e.fix.empty()) out << "fix: " << Visible(e.fix) << '\n';
  }
  std::vector<uint32_t> params = ParamsOf(rule, program);
  if (!params.empty()) out << "\nparams:\n";
  for (uint32_t index : params) {
    const check::ParamInfo& p = program.params[index];
    out << "  " << p.decl->name << ": " << program.schema.Name(p.type) << " = "
        << Visible(engine.params()[index].ToLiteral()) << '\n';
  }
  out << "\nsource:\n";
  out << Visible(Text(sources, rule.rule->span), Keep::kTabNewline) << '\n';
}

}  // namespace

int RunExplain(const ExplainOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine;
  std::string error;
  if (!lint::LoadPolicies(options.policies, &engine, &error)) return Fail(err, error);
  if (!CompileOrReport(&engine, options.color, err)) return kExitUsage;
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
    std::string reason = "rule name `" + options.rule_id + "` is ambiguous: " +
                         std::to_string(named.size()) + " rules have it";
    for (const check::RuleInfo* rule : named) {
      SourceLoc at = engine.sources().Resolve(rule->rule->name_span);
      reason += "\n  `" + rule->id + "` in package `" + program.modules[rule->module]->package +
                "` (" + std::string(engine.sources().Path(at.file)) + ":" +
                std::to_string(at.line) + ":" + std::to_string(at.column) + ")";
    }
    reason += "\n  help: name one by its id, e.g. `capops-lint explain " + named[0]->id + "`";
    return Fail(err, reason);
  }
  std::string guess = ClosestName(options.rule_id, ids);
  return Fail(err, "no rule `" + options.rule_id + "`" + (guess.empty() ? "" : "; did you mean `" + guess + "`?"));
}

}  // namespace capops::cli
