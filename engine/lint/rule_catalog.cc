// Builds the rule catalogue from a compiled program (rule_catalog.h).
#include "engine/lint/rule_catalog.h"

#include <algorithm>

namespace capops::lint {

namespace {

// The params an expression reads, in order of first use.
void CollectParams(const syntax::Expr& e, const check::ModuleTables& tables,
                   std::vector<uint32_t>* out) {
  const check::Symbol& sym = tables.symbols[e.id];
  if (e.kind == syntax::ExprKind::kIdent && sym.kind == check::SymbolKind::kParam &&
      std::find(out->begin(), out->end(), sym.index) == out->end()) {
    out->push_back(sym.index);
  }
  for (const auto& arg : e.args) CollectParams(*arg, tables, out);
}

std::string Text(const SourceManager& sources, const Span& span) {
  return sources.file(span.file).text().substr(span.begin, span.end - span.begin);
}

}  // namespace

std::vector<ParamEntry> RuleParams(const Engine& engine, const check::RuleInfo& rule) {
  const check::Program& program = *engine.program();
  const check::ModuleTables& tables = program.tables[rule.module];
  std::vector<uint32_t> indexes;
  for (const syntax::Clause& c : rule.rule->clauses) CollectParams(*c.expr, tables, &indexes);
  for (const syntax::Emit& e : rule.rule->emits) {
    if (e.when) CollectParams(*e.when, tables, &indexes);
    if (e.at) CollectParams(*e.at, tables, &indexes);
    for (const auto& part : e.message.parts) {
      if (part.expr) CollectParams(*part.expr, tables, &indexes);
    }
  }
  std::vector<ParamEntry> params;
  for (uint32_t i : indexes) {
    const check::ParamInfo& p = program.params[i];
    params.push_back({p.decl->name, program.schema.Name(p.type),
                      Text(engine.sources(), p.decl->default_value->span),
                      engine.params()[i].ToLiteral()});
  }
  return params;
}

std::string Joined(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::vector<RuleEntry> BuildCatalog(const Engine& engine) {
  std::vector<RuleEntry> entries;
  for (const check::RuleInfo& r : engine.program()->rules) {
    RuleEntry e;
    e.info = &r;
    SourceLoc at = engine.sources().Resolve(r.rule->span);
    e.defined_at = std::string(engine.sources().Path(at.file)) + ":" + std::to_string(at.line);
    for (const syntax::Emit& emit : r.rule->emits) {
      if (!emit.because.empty()) e.because.push_back(emit.because);
      if (!emit.fix.empty()) e.fix.push_back(emit.fix);
    }
    e.params = RuleParams(engine, r);
    e.source = Text(engine.sources(), r.rule->span);
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace capops::lint
