// SPDX-License-Identifier: Apache-2.0
// The params a rule reads, through the functions it calls: what a finding
// of the rule rests on besides the facts (RuleInfo::params).
#include <algorithm>
#include <set>

#include "engine/check/internal.h"

namespace capops::check::internal {

std::vector<uint32_t> ParamsRead(const Program& program, const syntax::Rule& rule,
                                 uint32_t module) {
  std::vector<uint32_t> params;
  std::set<uint32_t> functions;  // each function's body is read once
  // Walked without recursion, in source order: the stack holds the rest of
  // the expressions still to read, the next one on top.
  std::vector<std::pair<const syntax::Expr*, const ModuleTables*>> stack;
  auto read = [&](const syntax::ExprPtr& root) {
    if (!root) return;
    stack.push_back({root.get(), &program.tables[module]});
    while (!stack.empty()) {
      auto [e, tables] = stack.back();
      stack.pop_back();
      const Symbol& sym = tables->symbols[e->id];
      if (e->kind == syntax::ExprKind::kIdent && sym.kind == SymbolKind::kParam &&
          std::find(params.begin(), params.end(), sym.index) == params.end()) {
        params.push_back(sym.index);
      }
      bool call = e->kind == syntax::ExprKind::kCall && sym.kind == SymbolKind::kFunction &&
                  sym.index < program.functions.size();
      // A function's body is read after the arguments, as it runs.
      if (call && functions.insert(sym.index).second) {
        const UserFunction& f = program.functions[sym.index];
        if (f.decl->body) stack.push_back({f.decl->body.get(), &program.tables[f.module]});
      }
      for (auto arg = e->args.rbegin(); arg != e->args.rend(); ++arg) {
        if (*arg) stack.push_back({arg->get(), tables});
      }
    }
  };
  for (const syntax::Clause& c : rule.clauses) read(c.expr);
  for (const syntax::Emit& e : rule.emits) {
    read(e.when);
    read(e.at);
    for (const syntax::Template::Part& part : e.message.parts) read(part.expr);
  }
  return params;
}

}  // namespace capops::check::internal
