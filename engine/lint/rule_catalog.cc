// SPDX-License-Identifier: Apache-2.0
// Builds the rule catalogue from a compiled program (rule_catalog.h).
#include "engine/lint/rule_catalog.h"

#include <algorithm>
#include <set>

namespace capops::lint {

namespace {

// The fields one rule reads, walking into the user functions it calls
// (each function once per rule).
class FieldWalker {
 public:
  explicit FieldWalker(const check::Program& program) : program_(program) {}

  std::set<std::string> Rule(const check::RuleInfo& rule) {
    fields_.clear();
    seen_functions_.clear();
    const check::ModuleTables& tables = program_.tables[rule.module];
    for (const syntax::Clause& c : rule.rule->clauses) Walk(*c.expr, tables);
    for (const syntax::Emit& e : rule.rule->emits) {
      if (e.when) Walk(*e.when, tables);
      if (e.at) Walk(*e.at, tables);
      for (const auto& part : e.message.parts) {
        if (part.expr) Walk(*part.expr, tables);
      }
    }
    return std::move(fields_);
  }

 private:
  void Walk(const syntax::Expr& e, const check::ModuleTables& tables) {
    if (e.kind == syntax::ExprKind::kSelect || e.kind == syntax::ExprKind::kOptSelect)
      Select(e, tables);
    const check::Symbol& sym = tables.symbols[e.id];
    if (e.kind == syntax::ExprKind::kCall && sym.kind == check::SymbolKind::kFunction &&
        seen_functions_.insert(sym.index).second) {
      const check::UserFunction& f = program_.functions[sym.index];
      Walk(*f.decl->body, program_.tables[f.module]);
    }
    for (const auto& arg : e.args) Walk(*arg, tables);
  }

  void Select(const syntax::Expr& e, const check::ModuleTables& tables) {
    if (e.args.empty() || tables.symbols[e.id].kind == check::SymbolKind::kConstant)
      return;  // `Enum.member`
    const TypeTable& schema = program_.schema;
    TypeId t = tables.types[e.args[0]->id];
    if (schema.KindOf(t) == TypeKind::kOptional) t = schema.Get(t).elem;
    if (schema.KindOf(t) != TypeKind::kRecord) return;
    const RecordDef& record = schema.records[schema.Get(t).index];
    if (record.builtin != RecordDef::Builtin::kNone || record.Find(e.name) == nullptr) return;
    fields_.insert(record.name + "." + e.name);
  }

  const check::Program& program_;
  std::set<std::string> fields_;
  std::set<uint32_t> seen_functions_;
};

std::string Text(const SourceManager& sources, const Span& span) {
  return sources.file(span.file).text().substr(span.begin, span.end - span.begin);
}

}  // namespace

std::vector<ParamEntry> RuleParams(const Engine& engine, const check::RuleInfo& rule) {
  const check::Program& program = *engine.program();
  std::vector<ParamEntry> params;
  for (uint32_t i : rule.params) {
    const check::ParamInfo& p = program.params[i];
    params.push_back({p.decl->name, program.schema.Name(p.type),
                      Text(engine.sources(), p.decl->default_value->span),
                      engine.params()[i].ToLiteral()});
  }
  return params;
}

std::map<std::string, std::vector<std::string>, std::less<>> FieldReaders(
    const std::vector<RuleEntry>& rules) {
  std::map<std::string, std::vector<std::string>, std::less<>> readers;
  for (const RuleEntry& e : rules) {
    for (const std::string& field : e.fields) readers[field].push_back(e.info->id);
  }
  return readers;
}

std::string Joined(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

RuleReasons ReasonsOf(const syntax::Rule& rule) {
  RuleReasons reasons;
  for (const syntax::Emit& emit : rule.emits) {
    if (!emit.because.empty()) reasons.because.push_back(emit.because);
    if (!emit.fix.empty()) reasons.fix.push_back(emit.fix);
  }
  return reasons;
}

std::vector<RuleEntry> BuildCatalog(const Engine& engine) {
  std::vector<RuleEntry> entries;
  FieldWalker walker(*engine.program());
  for (const check::RuleInfo& r : engine.program()->rules) {
    RuleEntry e;
    e.info = &r;
    SourceLoc at = engine.sources().Resolve(r.rule->span);
    e.defined_at = std::string(engine.sources().ShownPath(at.file)) + ":" + std::to_string(at.line);
    RuleReasons reasons = ReasonsOf(*r.rule);
    e.because = std::move(reasons.because);
    e.fix = std::move(reasons.fix);
    e.params = RuleParams(engine, r);
    e.source = Text(engine.sources(), r.rule->span);
    std::set<std::string> fields = walker.Rule(r);
    e.fields.assign(fields.begin(), fields.end());
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace capops::lint
