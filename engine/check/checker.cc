// SPDX-License-Identifier: Apache-2.0
// The checker's driver: builds the schema, collects params, then type-checks
// params and rules clause by clause. Entry point: check::Check.
#include "engine/check/checker.h"

#include <algorithm>
#include <map>

#include "engine/check/internal.h"

namespace capops::check {

namespace {

using internal::Typed;

class Checker {
 public:
  Checker(Program* program, const SourceManager& sources, Diagnostics* diags)
      : program_(program),
        sources_(sources),
        diags_(diags),
        exprs_(program, sources, globals_, diags) {}

  void Run();

 private:
  Diagnostic& Error(const Span& span, std::string message) {
    return diags_->Error(sources_, span, std::move(message));
  }

  void CollectParams();
  void CollectFunctions();
  void CheckFunction(UserFunction* f);
  void CheckImports(const syntax::Module& module);
  void CheckParam(const syntax::Param& param, ParamInfo* info);
  void CheckRule(uint32_t module, const syntax::Rule& rule);
  void CheckClause(const syntax::Clause& clause);
  void CheckEmit(const syntax::Emit& emit);
  void CheckMetadata(const syntax::Rule& rule, RuleInfo* info);
  void CheckUniqueIds();

  Program* program_;
  const SourceManager& sources_;
  Diagnostics* diags_;
  internal::Globals globals_;
  internal::ExprChecker exprs_;
  uint32_t module_ = 0;
};

void Checker::Run() {
  for (const auto& m : program_->modules) {
    ModuleTables& t = program_->tables.emplace_back();
    t.symbols.resize(m->node_count);
    t.functions.resize(m->node_count, FunctionId::kSize);
    t.slots.resize(m->node_count, 0);
    t.types.resize(m->node_count, 0);
  }
  internal::BuildSchema(program_, sources_, &globals_, diags_);
  CollectParams();
  CollectFunctions();
  // Functions first, in declaration order across files: any rule may call
  // any function, and a function only those declared before it.
  for (UserFunction& f : program_->functions) {
    exprs_.BeginModule(f.module);
    CheckFunction(&f);
  }
  for (uint32_t m = 0; m < program_->modules.size(); ++m) {
    const syntax::Module& module = *program_->modules[m];
    CheckImports(module);
    module_ = m;
    exprs_.BeginModule(m);
    for (ParamInfo& info : program_->params) {
      if (info.module == m) CheckParam(*info.decl, &info);
    }
    for (const syntax::Rule& r : module.rules) CheckRule(m, r);
  }
  std::sort(program_->rules.begin(), program_->rules.end(),
            [](const RuleInfo& a, const RuleInfo& b) { return a.id < b.id; });
  CheckUniqueIds();
}

// A param is known by name in its package; other packages import it.
void Checker::CollectParams() {
  for (uint32_t m = 0; m < program_->modules.size(); ++m) {
    const syntax::Module& module = *program_->modules[m];
    for (const syntax::Param& p : module.params) {
      auto& same_name = globals_.params[p.name];
      bool twice = std::any_of(same_name.begin(), same_name.end(),
                               [&](const auto& other) { return other.package == module.package; });
      if (twice) {
        Error(p.name_span,
              "param `" + p.name + "` is declared twice in package `" + module.package + "`");
        continue;
      }
      uint32_t index = static_cast<uint32_t>(program_->params.size());
      same_name.push_back({index, module.package});
      ParamInfo& info = program_->params.emplace_back();
      info.decl = &p;
      info.module = m;
      info.type = internal::ResolveType(p.type, &program_->schema, sources_, diags_);
    }
  }
}

void Checker::CollectFunctions() {
  for (uint32_t m = 0; m < program_->modules.size(); ++m) {
    const syntax::Module& module = *program_->modules[m];
    for (const syntax::FunctionDecl& f : module.functions) {
      // Calls resolve to a `fn` before a built-in, so a `fn size` would take
      // over `size(…)` in every package, the shipped ones included.
      const FunctionInfo* builtin = FindFunction(f.name, false);
      if (builtin == nullptr) builtin = FindFunction(f.name, true);
      if (builtin != nullptr) {
        Error(f.name_span, "function `" + f.name + "` has the name of a built-in function").help =
            "rename it: `" + std::string(builtin->signature) + "` is built in";
        continue;
      }
      auto& same_name = globals_.functions[f.name];
      if (std::any_of(same_name.begin(), same_name.end(),
                      [&](const auto& o) { return o.package == module.package; })) {
        Error(f.name_span,
              "function `" + f.name + "` is declared twice in package `" + module.package + "`");
        continue;
      }
      same_name.push_back({static_cast<uint32_t>(program_->functions.size()), module.package});
      UserFunction& u = program_->functions.emplace_back();
      u.decl = &f;
      u.module = m;
      for (const auto& p : f.params)
        u.params.push_back(internal::ResolveType(p.type, &program_->schema, sources_, diags_));
      u.result = internal::ResolveType(f.result, &program_->schema, sources_, diags_);
    }
  }
}

void Checker::CheckFunction(UserFunction* f) {
  exprs_.BeginScope(false);
  for (size_t i = 0; i < f->params.size(); ++i) {
    exprs_.Bind(f->decl->params[i].name, f->decl->params[i].span, Typed{f->params[i]});
  }
  Typed body = exprs_.Infer(*f->decl->body);
  f->slot_count = exprs_.slot_count();
  f->checked = true;
  if (!internal::Assignable(program_->schema, body.type, f->result)) {
    Error(f->decl->body->span, "function `" + f->decl->name + "` is declared to return `" +
                                   program_->schema.Name(f->result) + "` but returns `" +
                                   program_->schema.Name(body.type) + "`");
  }
}

void Checker::CheckImports(const syntax::Module& module) {
  for (const syntax::Import& i : module.imports) {
    bool known = std::any_of(program_->modules.begin(), program_->modules.end(),
                             [&](const auto& m) { return m->package == i.package; });
    if (!known) Error(i.span, "no loaded policy file has `package " + i.package + "`");
  }
}

void Checker::CheckParam(const syntax::Param& param, ParamInfo* info) {
  exprs_.BeginScope(true);
  Typed value = exprs_.Infer(*param.default_value);
  info->slot_count = exprs_.slot_count();
  if (!internal::Assignable(program_->schema, value.type, info->type)) {
    Error(param.default_value->span,
          "param `" + param.name + "` is declared `" + program_->schema.Name(info->type) +
              "` but its default is `" + program_->schema.Name(value.type) + "`");
  }
}

void Checker::CheckRule(uint32_t module, const syntax::Rule& rule) {
  RuleInfo info;
  info.rule = &rule;
  info.module = module;
  CheckMetadata(rule, &info);
  exprs_.BeginScope(false);
  for (const syntax::Clause& c : rule.clauses) CheckClause(c);
  for (const syntax::Emit& e : rule.emits) CheckEmit(e);
  info.slot_count = exprs_.slot_count();
  info.cost = internal::CostBound(rule, sources_);
  info.params = internal::ParamsRead(*program_, rule, module);
  program_->rules.push_back(std::move(info));
}

void Checker::CheckClause(const syntax::Clause& c) {
  Typed t = exprs_.Infer(*c.expr,
                         c.kind == syntax::ClauseKind::kLet);  // `let x = a.?b` keeps it optional
  const TypeTable& types = program_->schema;
  const Type type = types.Get(t.type);  // a copy: checking may grow the table
  bool loose = type.kind == TypeKind::kAny || type.kind == TypeKind::kError;
  std::vector<uint32_t>& slots = program_->tables[module_].slots;
  switch (c.kind) {
    case syntax::ClauseKind::kFor: {
      Typed item{types.Any(), t.fact_items, t.fact_items};
      if (type.kind == TypeKind::kList) {
        item = Typed{type.elem, t.fact_items, t.fact_items};
      } else if (!loose) {
        exprs_.Error(c.expr->span, "`for` needs a list, not `" + types.Name(t.type) + "`");
      }
      slots[c.id] = exprs_.Bind(c.var, c.var_span, item);
      return;
    }
    case syntax::ClauseKind::kLet:
      slots[c.id] = exprs_.Bind(c.var, c.var_span, t);
      return;
    case syntax::ClauseKind::kWhere:
      if (type.kind != TypeKind::kBool && !loose) {
        exprs_.Error(c.expr->span, "`where` must be a bool, not `" + types.Name(t.type) + "`");
      }
      exprs_.AddGuards(*c.expr);
      return;
  }
}

void Checker::CheckEmit(const syntax::Emit& emit) {
  const TypeTable& types = program_->schema;
  if (emit.when) {
    Typed cond = exprs_.Infer(*emit.when);
    TypeKind k = types.KindOf(cond.type);
    if (k != TypeKind::kBool && k != TypeKind::kAny && k != TypeKind::kError) {
      exprs_.Error(emit.when->span, "`when` must be a bool, not `" + types.Name(cond.type) + "`");
    }
    exprs_.AddGuards(*emit.when);  // the rest of this statement only runs when it holds
  }
  if (emit.at) {
    Typed at = exprs_.Infer(*emit.at);
    if (!at.fact) {
      exprs_.Error(emit.at->span, "`at` must point at a value in the facts, such as `a.pool`")
          .help = "this expression is computed, so it has no place in a file";
    }
  }
  for (const auto& part : emit.message.parts) {
    if (!part.expr) continue;
    Typed hole = exprs_.Infer(*part.expr);
    const Type* elem = &types.Get(hole.type);
    while (elem->kind == TypeKind::kList) elem = &types.Get(elem->elem);
    const Type& t = *elem;
    if (t.kind == TypeKind::kRecord || t.kind == TypeKind::kMap) {
      exprs_
          .Error(part.expr->span,
                 "a message shows values, not a whole `" + types.Name(hole.type) + "`")
          .help = t.kind == TypeKind::kRecord && types.records[t.index].keyed()
                      ? "show its id: `{" + exprs_.text_of(*part.expr) + ".id}`"
                      : "show one of its fields";
    }
  }
}

void Checker::CheckMetadata(const syntax::Rule& rule, RuleInfo* info) {
  for (const syntax::Annotation& a : rule.annotations) {
    bool one_arg =
        a.name == "id" || a.name == "severity" || a.name == "owner" || a.name == "source";
    if (one_arg && a.args.size() != 1) {
      Error(a.span, "`@" + a.name + "` takes one argument");
      continue;
    }
    if (a.name == "id") {
      info->id = a.args[0];
      if (info->id.empty()) Error(a.span, "`@id` must not be empty");
    } else if (a.name == "severity") {
      if (!ParseSeverity(a.args[0], &info->severity)) {
        Error(a.span, "unknown severity `" + a.args[0] + "`").help =
            "use `error`, `warning` or `info`";
      }
    } else if (a.name == "owner") {
      info->owner = a.args[0];
    } else if (a.name == "source") {
      info->source = a.args[0];
    } else {
      std::string tag = a.name;
      for (size_t i = 0; i < a.args.size(); ++i) tag += (i == 0 ? "(" : ", ") + a.args[i];
      info->tags.push_back(a.args.empty() ? tag : tag + ")");
    }
  }
  if (rule.FindAnnotation("id") == nullptr) {
    Error(rule.name_span, "rule `" + rule.name + "` has no `@id`").help =
        "add an annotation such as `@id(\"CAP-XXX-001\")` before `rule`";
  }
}

void Checker::CheckUniqueIds() {
  std::map<std::string, const RuleInfo*> by_id;
  for (const RuleInfo& r : program_->rules) {
    if (r.id.empty()) continue;
    auto [it, fresh] = by_id.emplace(r.id, &r);
    if (!fresh) {
      Diagnostic& d = Error(r.rule->name_span, "rule id `" + r.id + "` is used twice");
      d.related.push_back({sources_.Resolve(it->second->rule->name_span), "first used here"});
    }
  }
}

}  // namespace

TypeId CheckExpression(Program* program, syntax::Expr& expr, syntax::NodeId node_count,
                       const SourceManager& sources, ModuleTables* tables, uint32_t* slot_count,
                       Diagnostics* diagnostics) {
  tables->symbols.assign(node_count, Symbol{});
  tables->functions.assign(node_count, FunctionId::kSize);
  tables->slots.assign(node_count, 0);
  tables->types.assign(node_count, 0);
  internal::Globals globals;
  internal::IndexGlobals(*program, &globals);
  internal::ExprChecker exprs(program, sources, globals, diagnostics);
  exprs.BeginStandalone(tables);
  exprs.BeginScope(false);
  TypeId type = exprs.Infer(expr).type;
  *slot_count = exprs.slot_count();
  diagnostics->Sort();
  return type;
}

CheckResult Check(std::vector<std::unique_ptr<syntax::Module>> modules,
                  const SourceManager& sources) {
  CheckResult result;
  auto program = std::make_unique<Program>();
  program->modules = std::move(modules);
  Checker(program.get(), sources, &result.diagnostics).Run();
  result.diagnostics.Sort();
  if (!result.diagnostics.HasErrors()) result.program = std::move(program);
  return result;
}

}  // namespace capops::check
