// Name resolution and rule metadata checks. Entry point: check::Check.
#include "engine/check/checker.h"

#include <algorithm>
#include <map>

namespace capops::check {

namespace {

using syntax::Expr;
using syntax::ExprKind;

constexpr const char* kKnownTypes[] = {"int",  "double", "bool",     "string", "date",
                                       "duration", "bytes", "bytes_per_second",
                                       "list", "set",    "map",      "any"};

class Checker {
 public:
  Checker(Program* program, const SourceManager& sources, Diagnostics* diags)
      : program_(program), sources_(sources), diags_(diags) {}

  void Run();

 private:
  Diagnostic& Error(const Span& span, std::string message) {
    return diags_->Error(sources_, span, std::move(message));
  }

  void CollectGlobals();
  void CheckParam(uint32_t module, const syntax::Param& param);
  void CheckType(const syntax::TypeRef& type);
  void CheckRule(uint32_t module, const syntax::Rule& rule);
  void CheckMetadata(const syntax::Rule& rule, RuleInfo* info);
  void Resolve(Expr& e);
  void ResolveIdent(Expr& e);
  void ResolveCall(Expr& e);
  uint32_t Bind(const std::string& name, const Span& span);
  std::vector<std::string> VisibleNames() const;

  Program* program_;
  const SourceManager& sources_;
  Diagnostics* diags_;

  std::map<std::string, uint32_t, std::less<>> params_;     // name → index
  std::map<std::string, uint32_t, std::less<>> constants_;  // enum member → constant
  std::map<std::string, std::string, std::less<>> enums_;   // enum type names

  // The rule or param being checked.
  ModuleTables* tables_ = nullptr;
  std::vector<std::pair<std::string, uint32_t>> scope_;  // innermost last
  uint32_t next_slot_ = 0;
  bool constant_only_ = false;  // inside a param default
};

void Checker::Run() {
  for (const auto& m : program_->modules) {
    ModuleTables& t = program_->tables.emplace_back();
    t.symbols.resize(m->node_count);
    t.functions.resize(m->node_count, FunctionId::kSize);
    t.slots.resize(m->node_count, 0);
  }
  CollectGlobals();
  for (uint32_t m = 0; m < program_->modules.size(); ++m) {
    tables_ = &program_->tables[m];
    for (const syntax::Param& p : program_->modules[m]->params) CheckParam(m, p);
    for (const syntax::Rule& r : program_->modules[m]->rules) CheckRule(m, r);
  }
  std::sort(program_->rules.begin(), program_->rules.end(),
            [](const RuleInfo& a, const RuleInfo& b) { return a.id < b.id; });
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

// Params, enums and their members are visible in every module of the set.
void Checker::CollectGlobals() {
  for (uint32_t m = 0; m < program_->modules.size(); ++m) {
    const syntax::Module& module = *program_->modules[m];
    for (const syntax::EnumDecl& e : module.enums) {
      if (!enums_.emplace(e.name, e.name).second) Error(e.name_span, "enum `" + e.name + "` is declared twice");
      for (const auto& member : e.members) {
        if (constants_.count(member.name) != 0) continue;  // same name, same value
        constants_.emplace(member.name, static_cast<uint32_t>(program_->constants.size()));
        program_->constants.push_back(Value::String(EnumMemberValue(member.name)));
      }
    }
    for (const syntax::Param& p : module.params) {
      if (params_.count(p.name) != 0) {
        Error(p.name_span, "param `" + p.name + "` is declared twice");
        continue;
      }
      params_.emplace(p.name, static_cast<uint32_t>(program_->params.size()));
      program_->params.push_back(ParamInfo{&p, m});
    }
  }
}

void Checker::CheckType(const syntax::TypeRef& type) {
  bool known = enums_.count(type.name) != 0 ||
               std::find_if(std::begin(kKnownTypes), std::end(kKnownTypes),
                            [&](const char* t) { return type.name == t; }) != std::end(kKnownTypes);
  if (!known) {
    std::vector<std::string> names(std::begin(kKnownTypes), std::end(kKnownTypes));
    for (const auto& [name, _] : enums_) names.push_back(name);
    Diagnostic& d = Error(type.span, "unknown type `" + type.name + "`");
    std::string guess = ClosestName(type.name, names);
    if (!guess.empty()) d.help = "did you mean `" + guess + "`?";
  }
  for (const syntax::TypeRef& arg : type.args) CheckType(arg);
}

void Checker::CheckParam(uint32_t module, const syntax::Param& param) {
  CheckType(param.type);
  scope_.clear();
  next_slot_ = 0;
  constant_only_ = true;
  Resolve(*param.default_value);
  constant_only_ = false;
  for (ParamInfo& info : program_->params) {
    if (info.decl == &param) info.slot_count = next_slot_;
  }
}

void Checker::CheckRule(uint32_t module, const syntax::Rule& rule) {
  RuleInfo info;
  info.rule = &rule;
  info.module = module;
  CheckMetadata(rule, &info);
  scope_.clear();
  next_slot_ = 0;
  for (const syntax::Clause& c : rule.clauses) {
    Resolve(*c.expr);
    if (c.kind != syntax::ClauseKind::kWhere) tables_->slots[c.id] = Bind(c.var, c.var_span);
  }
  for (const syntax::Emit& e : rule.emits) {
    if (e.when) Resolve(*e.when);
    if (e.at) Resolve(*e.at);
    for (const auto& part : e.message.parts) {
      if (part.expr) Resolve(*part.expr);
    }
  }
  info.slot_count = next_slot_;
  program_->rules.push_back(std::move(info));
}

void Checker::CheckMetadata(const syntax::Rule& rule, RuleInfo* info) {
  for (const syntax::Annotation& a : rule.annotations) {
    bool one_arg = a.name == "id" || a.name == "severity" || a.name == "owner" || a.name == "source";
    if (one_arg && a.args.size() != 1) {
      Error(a.span, "`@" + a.name + "` takes one argument");
      continue;
    }
    if (a.name == "id") {
      info->id = a.args[0];
      if (info->id.empty()) Error(a.span, "`@id` must not be empty");
    } else if (a.name == "severity") {
      if (!ParseSeverity(a.args[0], &info->severity)) {
        Error(a.span, "unknown severity `" + a.args[0] + "`").help = "use `error`, `warning` or `info`";
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
    Error(rule.name_span, "rule `" + rule.name + "` has no `@id`")
        .help = "add an annotation such as `@id(\"CAP-XXX-001\")` before `rule`";
  }
}

uint32_t Checker::Bind(const std::string& name, const Span& span) {
  for (const auto& [bound, _] : scope_) {
    if (bound == name) Error(span, "`" + name + "` is already bound in this rule");
  }
  uint32_t slot = next_slot_++;
  scope_.emplace_back(name, slot);
  return slot;
}

std::vector<std::string> Checker::VisibleNames() const {
  std::vector<std::string> names = {"plan", "inventory"};
  for (const auto& [name, _] : scope_) names.push_back(name);
  for (const auto& [name, _] : params_) names.push_back(name);
  for (const auto& [name, _] : constants_) names.push_back(name);
  return names;
}

void Checker::ResolveIdent(Expr& e) {
  Symbol& sym = tables_->symbols[e.id];
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
    if (it->first == e.name) {
      sym = Symbol{SymbolKind::kLocal, it->second};
      return;
    }
  }
  if (auto p = params_.find(e.name); p != params_.end()) {
    sym = Symbol{SymbolKind::kParam, p->second};
  } else if (e.name == "plan" || e.name == "inventory") {
    sym = Symbol{SymbolKind::kRoot, static_cast<uint32_t>(e.name == "plan" ? Root::kPlan : Root::kInventory)};
  } else if (auto c = constants_.find(e.name); c != constants_.end()) {
    sym = Symbol{SymbolKind::kConstant, c->second};
    return;
  } else {
    Diagnostic& d = Error(e.span, "unknown name `" + e.name + "`");
    std::string guess = ClosestName(e.name, VisibleNames());
    if (!guess.empty()) d.help = "did you mean `" + guess + "`?";
    return;
  }
  if (constant_only_) {
    Error(e.span, "a param default must be a constant, but `" + e.name + "` is not");
  }
}

void Checker::ResolveCall(Expr& e) {
  const FunctionInfo* f = FindFunction(e.name, e.is_method);
  if (f == nullptr) {
    std::vector<std::string> names;
    for (const FunctionInfo& info : AllFunctions()) {
      if (e.is_method ? info.method : info.global) names.push_back(info.name);
    }
    Diagnostic& d = Error(e.span, std::string("unknown ") + (e.is_method ? "method" : "function") +
                                      " `" + e.name + "`");
    std::string guess = ClosestName(e.name, names);
    if (!guess.empty()) d.help = "did you mean `" + guess + "`?";
    return;
  }
  if (static_cast<int>(e.args.size()) != f->arity) {
    int shown = f->arity - (e.is_method ? 1 : 0);
    Error(e.span, "`" + e.name + "` takes " + std::to_string(shown) + " argument" +
                      (shown == 1 ? "" : "s"))
        .help = std::string("signature: ") + f->signature;
    return;
  }
  tables_->functions[e.id] = f->id;
}

void Checker::Resolve(Expr& e) {
  switch (e.kind) {
    case ExprKind::kIdent: ResolveIdent(e); return;
    case ExprKind::kMacro: {
      Resolve(*e.args[0]);
      size_t depth = scope_.size();
      tables_->slots[e.id] = Bind(e.name, e.span);
      for (size_t i = 1; i < e.args.size(); ++i) Resolve(*e.args[i]);
      scope_.resize(depth);
      return;
    }
    case ExprKind::kCall: ResolveCall(e); break;
    default: break;
  }
  for (auto& arg : e.args) Resolve(*arg);
}

}  // namespace

const char* RootName(Root root) { return root == Root::kPlan ? "plan" : "inventory"; }

std::string EnumMemberValue(std::string_view member) {
  std::string out(member);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

CheckResult Check(std::vector<std::unique_ptr<syntax::Module>> modules, const SourceManager& sources) {
  CheckResult result;
  auto program = std::make_unique<Program>();
  program->modules = std::move(modules);
  Checker(program.get(), sources, &result.diagnostics).Run();
  result.diagnostics.Sort();
  if (!result.diagnostics.HasErrors()) result.program = std::move(program);
  return result;
}

}  // namespace capops::check
