// SPDX-License-Identifier: Apache-2.0
// The type checker for expressions: resolves names, infers a static type for
// every node (into ModuleTables::types), checks operators with their units,
// field access against the schema, and that optional fields are guarded.
//
// Guards: `has(x.f)` proves `x.f` present in what the condition protects —
// the right side of `&&`, the `then` branch of `?:`, the clauses after a
// `where`, the statement after `when`, the transform of a 3-argument `map`.
// `!has(x.f) || …` protects the right side too, and so does the condition
// of a list element (`[x.f if has(x.f)]`) its element.
//
// Optionals: `a.?f` is `optional<T>`, none when `f` is absent, and needs no
// guard. An optional may only be unwrapped (`orValue`), tested
// (`hasValue`), read further (`.?g`), bound by `let` or chosen by `?:`;
// anywhere else it is an error, so no optional is ever taken for a value.
#include <algorithm>

#include "engine/check/internal.h"

namespace capops::check::internal {

namespace {

using syntax::BinaryOp;
using syntax::Expr;
using syntax::ExprKind;

}  // namespace

ExprChecker::ExprChecker(Program* program, const SourceManager& sources, const Globals& globals,
                         Diagnostics* diags)
    : program_(program),
      types_(program->schema),
      sources_(sources),
      globals_(globals),
      diags_(diags) {}

void ExprChecker::BeginStandalone(ModuleTables* tables) {
  tables_ = tables;
  package_.clear();
  imports_.clear();
  all_packages_ = true;
}

void ExprChecker::BeginModule(uint32_t module) {
  all_packages_ = false;
  tables_ = &program_->tables[module];
  package_ = program_->modules[module]->package;
  imports_.clear();
  for (const syntax::Import& i : program_->modules[module]->imports) imports_.insert(i.package);
}

void ExprChecker::BeginScope(bool constant_only) {
  locals_.clear();
  guards_.clear();
  next_slot_ = 0;
  constant_only_ = constant_only;
}

Diagnostic& ExprChecker::Error(const Span& span, std::string message) {
  return diags_->Error(sources_, span, std::move(message));
}

const std::string& ExprChecker::text_of(const Expr& e) {
  const std::string& text = sources_.file(e.span.file).text();
  text_ = text.substr(e.span.begin, e.span.end - e.span.begin);
  return text_;
}

uint32_t ExprChecker::Bind(const std::string& name, const Span& span, Typed typed) {
  for (const Local& l : locals_) {
    if (l.name == name) Error(span, "`" + name + "` is already bound in this rule");
  }
  uint32_t slot = next_slot_++;
  locals_.push_back(Local{name, slot, typed});
  return slot;
}

// The guards a condition proves when it is true (or false, when negated).
void ExprChecker::Collect(const Expr& cond, bool negated, std::set<std::string>* out) const {
  if (cond.kind == ExprKind::kHas && !negated) {
    out->insert(syntax::DumpExpr(*cond.args[0]));
  } else if (cond.kind == ExprKind::kUnary && cond.unary_op == syntax::UnaryOp::kNot) {
    Collect(*cond.args[0], !negated, out);
  } else if (cond.kind == ExprKind::kBinary &&
             cond.binary_op == (negated ? BinaryOp::kOr : BinaryOp::kAnd)) {
    Collect(*cond.args[0], negated, out);
    Collect(*cond.args[1], negated, out);
  }
}

void ExprChecker::AddGuards(const Expr& cond) {
  Collect(cond, false, &guards_);
}

void ExprChecker::ExpectBool(const Typed& t, const Expr& e, const char* what) {
  TypeKind k = types_.KindOf(t.type);
  if (k != TypeKind::kBool && !IsLoose(k)) {
    Error(e.span, std::string(what) + " must be a bool, not `" + types_.Name(t.type) + "`");
  }
}

TypeId ExprChecker::Unify(TypeId a, TypeId b, const Expr& at, const char* what) {
  if (types_.KindOf(a) == TypeKind::kAny) return b;
  if (Assignable(types_, b, a)) return a;
  if (Assignable(types_, a, b)) return b;
  Error(at.span, std::string(what) + " of different types: `" + types_.Name(a) + "` and `" +
                     types_.Name(b) + "`");
  return types_.Error();
}

Typed ExprChecker::Infer(Expr& e, bool may_be_optional) {
  Typed t;
  switch (e.kind) {
    case ExprKind::kLiteral: {
      const Value& v = e.literal;
      static const std::pair<ValueKind, TypeKind> kKinds[] = {
          {ValueKind::kNull, TypeKind::kNull},        {ValueKind::kBool, TypeKind::kBool},
          {ValueKind::kInt, TypeKind::kInt},          {ValueKind::kDouble, TypeKind::kDouble},
          {ValueKind::kString, TypeKind::kString},    {ValueKind::kDate, TypeKind::kDate},
          {ValueKind::kDuration, TypeKind::kDuration}};
      for (auto [vk, tk] : kKinds) {
        if (v.is(vk)) t.type = types_.Primitive(tk);
      }
      if (v.is(ValueKind::kQuantity)) t.type = types_.Quantity(v.quantity_value().dimension);
      break;
    }
    case ExprKind::kIdent:
      t = InferIdent(e);
      break;
    case ExprKind::kSelect:
      t = InferSelect(e);
      break;
    case ExprKind::kIndex:
      t = InferIndex(e);
      break;
    case ExprKind::kCall:
      t = InferCall(e);
      break;
    case ExprKind::kList:
    case ExprKind::kSet:
    case ExprKind::kMap:
      t = InferCollection(e);
      break;
    case ExprKind::kUnary:
      t = InferUnary(e);
      break;
    case ExprKind::kBinary:
      t = InferBinary(e);
      break;
    case ExprKind::kConditional:
      t = InferConditional(e, may_be_optional);
      break;
    case ExprKind::kMacro:
      t = InferMacro(e);
      break;
    case ExprKind::kHas:
      t = InferHas(e);
      break;
    case ExprKind::kOptSelect:
      t = InferOptSelect(e);
      break;
    case ExprKind::kListIf:
      t = InferListIf(e);
      break;
    case ExprKind::kLet:
      t = InferLet(e, may_be_optional);
      break;
  }
  tables_->types[e.id] = t.type;
  if (!may_be_optional && types_.KindOf(t.type) == TypeKind::kOptional) {
    const std::string& text = text_of(e);
    Error(e.span, "`" + text + "` is `" + types_.Name(t.type) + "` where a value is needed").help =
        "unwrap it with `" + text + ".orValue(…)`, or test it with `" + text + ".hasValue()`";
    t = Typed{types_.Error()};
  }
  return t;
}

const Globals::ParamRef* ExprChecker::VisibleParam(const std::string& name, const Expr& e) {
  auto it = globals_.params.find(name);
  if (it == globals_.params.end()) return nullptr;
  return Visible(it->second, name, "param", e);
}

// A param or function is visible in its package, the stdlib's, and where imported.
const Globals::ParamRef* ExprChecker::Visible(const std::vector<Globals::ParamRef>& candidates,
                                              const std::string& name, const char* what,
                                              const Expr& e) {
  for (const Globals::ParamRef& p : candidates) {
    if (all_packages_ || p.package == package_ || p.package == "capops.std" ||
        imports_.count(p.package) != 0) {
      return &p;
    }
  }
  Error(e.span, std::string(what) + " `" + name + "` is declared in package `" +
                    candidates[0].package + "`")
      .help = "add `import " + candidates[0].package + "` after the `package` line";
  return &candidates[0];
}

// A call of a `fn`: arguments must fit its parameters; it must be declared
// (and so checked) before, which rules out recursion.
bool ExprChecker::InferUserCall(Expr& e, const std::vector<TypeId>& args, Typed* result) {
  auto it = globals_.functions.find(e.name);
  if (e.is_method || it == globals_.functions.end()) return false;
  const Globals::ParamRef* ref = Visible(it->second, e.name, "function", e);
  const UserFunction& f = program_->functions[ref->index];
  *result = Typed{f.result};
  if (!f.checked) {
    Error(e.span, "`" + e.name + "` is called before it is declared").help =
        "declare functions before their use; a function may not call itself";
    return true;
  }
  if (args.size() != f.params.size()) {
    Error(e.span, "`" + e.name + "` takes " + std::to_string(f.params.size()) + " argument" +
                      (f.params.size() == 1 ? "" : "s"));
    return true;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!Assignable(types_, args[i], f.params[i])) {
      Error(e.args[i]->span, "argument `" + f.decl->params[i].name + "` of `" + e.name + "` is `" +
                                 types_.Name(f.params[i]) + "`, not `" + types_.Name(args[i]) +
                                 "`");
    }
  }
  tables_->symbols[e.id] = Symbol{SymbolKind::kFunction, ref->index};
  return true;
}

std::vector<std::string> ExprChecker::VisibleNames() const {
  std::vector<std::string> names = {"plan", "inventory"};
  for (const Local& l : locals_) names.push_back(l.name);
  for (const auto& [name, _] : globals_.params) names.push_back(name);
  for (const auto& [name, _] : globals_.functions) names.push_back(name);
  for (const auto& [name, _] : globals_.members) names.push_back(name);
  return names;
}

Typed ExprChecker::InferIdent(Expr& e) {
  Symbol& sym = tables_->symbols[e.id];
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
    if (it->name == e.name) {
      sym = Symbol{SymbolKind::kLocal, it->slot};
      return it->typed;
    }
  }
  if (const Globals::ParamRef* p = VisibleParam(e.name, e)) {
    sym = Symbol{SymbolKind::kParam, p->index};
    if (constant_only_)
      Error(e.span, "a param default must be a constant, but `" + e.name + "` is not");
    return Typed{program_->params[p->index].type, false, false};
  }
  if (e.name == "plan" || e.name == "inventory") {
    bool plan = e.name == "plan";
    sym = Symbol{SymbolKind::kRoot, static_cast<uint32_t>(plan ? Root::kPlan : Root::kInventory)};
    if (constant_only_)
      Error(e.span, "a param default must be a constant, but `" + e.name + "` is not");
    auto doc = types_.record_by_name.find(plan ? "CapacityPlan" : "Inventory");
    TypeId type = doc == types_.record_by_name.end() ? types_.Any() : types_.Record(doc->second);
    return Typed{type, true, true};
  }
  if (auto m = globals_.members.find(e.name); m != globals_.members.end()) {
    if (m->second.size() > 1) {
      std::string owners;
      for (auto [en, _] : m->second)
        owners += (owners.empty() ? "`" : "` and `") + types_.enums[en].name;
      Error(e.span, "`" + e.name + "` is a member of " + owners + "`").help =
          "qualify it, as in `" + types_.enums[m->second[0].first].name + "." + e.name + "`";
      return Typed{types_.Error()};
    }
    sym = Symbol{SymbolKind::kConstant, m->second[0].second};
    return Typed{types_.Enum(m->second[0].first)};
  }
  if (types_.enum_by_name.count(e.name) != 0) {
    Error(e.span, "`" + e.name + "` is a type, not a value").help =
        "name a member, as in `" + e.name + ".…`";
    return Typed{types_.Error()};
  }
  Diagnostic& d = Error(e.span, "unknown name `" + e.name + "`");
  std::string guess = ClosestName(e.name, VisibleNames());
  if (!guess.empty()) d.help = "did you mean `" + guess + "`?";
  return Typed{types_.Error()};
}

// `PoolRole.production` names a member explicitly.
bool ExprChecker::ResolveEnumMember(Expr& select, TypeId* type) {
  const Expr& operand = *select.args[0];
  if (operand.kind != ExprKind::kIdent || types_.enum_by_name.count(operand.name) == 0)
    return false;
  for (const Local& l : locals_) {
    if (l.name == operand.name) return false;
  }
  auto it = globals_.constant_of.find(operand.name + "." + select.name);
  if (it == globals_.constant_of.end()) {
    const EnumDef& def = types_.enums[types_.enum_by_name.find(operand.name)->second];
    Diagnostic& d =
        Error(select.span, "`" + operand.name + "` has no member `" + select.name + "`");
    std::string guess = ClosestName(select.name, def.members);
    if (!guess.empty()) d.help = "did you mean `" + guess + "`?";
    *type = types_.Error();
    return true;
  }
  tables_->symbols[select.id] = Symbol{SymbolKind::kConstant, it->second};
  *type = types_.Enum(types_.enum_by_name.find(operand.name)->second);
  tables_->types[operand.id] = *type;
  return true;
}

Typed ExprChecker::InferSelect(Expr& e) {
  TypeId member = 0;
  if (ResolveEnumMember(e, &member)) return Typed{member};
  Typed operand = Infer(*e.args[0]);
  const Type t = types_.Get(operand.type);
  switch (t.kind) {
    case TypeKind::kAny:
    case TypeKind::kError:
      return Typed{operand.type, operand.fact, operand.fact};
    case TypeKind::kMap:
      return Typed{t.elem, operand.fact, operand.fact};
    case TypeKind::kRecord: {
      const FieldDef* field = FieldOf(types_.records[t.index], e);
      if (field == nullptr) return Typed{types_.Error()};
      if (field->optional && guards_.count(syntax::DumpExpr(e)) == 0) {
        Error(e.span, "`" + text_of(e) + "` is optional and may be absent").help =
            "guard it: `where has(" + text_of(e) + ")`, or `has(" + text_of(e) + ") && …`";
      }
      // A timeline's step is computed, but the items it lists may be facts.
      if (types_.records[t.index].builtin == RecordDef::Builtin::kSegment) {
        return Typed{field->type, false, e.name == "items" && operand.fact_items};
      }
      // What is read from the facts is located, and so is everything inside it.
      return Typed{field->type, operand.fact, operand.fact};
    }
    default:
      Error(e.span, "cannot read field `" + e.name + "` of `" + types_.Name(operand.type) + "`");
      return Typed{types_.Error()};
  }
}

// The field a selection names, or nullptr with a did-you-mean error.
const FieldDef* ExprChecker::FieldOf(const RecordDef& record, const Expr& select) {
  const FieldDef* field = record.Find(select.name);
  if (field != nullptr) return field;
  std::vector<std::string> names;
  for (const FieldDef& f : record.fields) names.push_back(f.name);
  Diagnostic& d = Error(select.span, "no field `" + select.name + "` on `" + record.name + "`");
  std::string guess = ClosestName(select.name, names);
  if (!guess.empty()) d.help = "did you mean `" + guess + "`?";
  return nullptr;
}

// `a.?f`, also on an optional `a` (a chain): `optional<T>` for a field `f: T`.
Typed ExprChecker::InferOptSelect(Expr& e) {
  Typed operand = Infer(*e.args[0], true);
  TypeId inner = operand.type;
  if (types_.KindOf(inner) == TypeKind::kOptional) inner = types_.Get(inner).elem;
  const Type t = types_.Get(inner);
  switch (t.kind) {
    case TypeKind::kAny:
      return Typed{types_.Optional(types_.Any()), operand.fact, operand.fact};
    case TypeKind::kError:
      return Typed{types_.Error()};
    case TypeKind::kMap:
      return Typed{types_.Optional(t.elem), operand.fact, operand.fact};
    case TypeKind::kRecord: {
      const FieldDef* field = FieldOf(types_.records[t.index], e);
      if (field == nullptr) return Typed{types_.Error()};
      return Typed{types_.Optional(field->type), operand.fact, operand.fact};
    }
    default:
      Error(e.span, "cannot read field `" + e.name + "` of `" + types_.Name(operand.type) + "`")
          .help = "`.?` reads a field of a record or a map";
      return Typed{types_.Error()};
  }
}

Typed ExprChecker::InferIndex(Expr& e) {
  Typed operand = Infer(*e.args[0]);
  Typed index = Infer(*e.args[1]);
  const Type t = types_.Get(operand.type);
  TypeKind ik = types_.KindOf(index.type);
  if (t.kind == TypeKind::kList) {
    Typed item{t.elem, operand.fact_items, operand.fact_items};
    if (ik == TypeKind::kInt || IsLoose(ik)) return item;
    const Type elem = types_.Get(t.elem);
    bool keyed = elem.kind == TypeKind::kRecord && types_.records[elem.index].keyed();
    bool ref_matches = ik != TypeKind::kRef || (elem.kind == TypeKind::kRecord &&
                                                types_.Get(index.type).index == elem.index);
    if (IsStringLike(ik) && keyed && ref_matches) return item;
    if (IsLoose(elem.kind) && IsStringLike(ik)) return item;
    Error(e.args[1]->span,
          "cannot index `" + types_.Name(operand.type) + "` with `" + types_.Name(index.type) + "`")
        .help = keyed || elem.kind != TypeKind::kRecord
                    ? ""
                    : "only lists of records with an `id` are keyed";
    return Typed{types_.Error()};
  }
  if (t.kind == TypeKind::kMap) {
    if (!Assignable(types_, index.type, t.key) &&
        !(IsStringLike(ik) && types_.KindOf(t.key) == TypeKind::kString)) {
      Error(e.args[1]->span, "keys of `" + types_.Name(operand.type) + "` are `" +
                                 types_.Name(t.key) + "`, not `" + types_.Name(index.type) + "`");
    }
    // A computed map of lists of facts (`group`) gives a list of facts.
    return Typed{t.elem, operand.fact, operand.fact || operand.fact_items};
  }
  if (IsLoose(t.kind)) return Typed{operand.type, operand.fact, operand.fact};
  Error(e.span, "cannot index `" + types_.Name(operand.type) + "`");
  return Typed{types_.Error()};
}

Typed ExprChecker::InferCall(Expr& e) {
  // The receiver of `orValue` and `hasValue` is the optional they unwrap.
  bool unwraps = e.is_method && (e.name == "orValue" || e.name == "hasValue");
  std::vector<TypeId> args;
  std::vector<Typed> typed;
  for (auto& arg : e.args) {
    typed.push_back(Infer(*arg, unwraps && args.empty()));
    args.push_back(typed.back().type);
  }
  Typed user;
  if (InferUserCall(e, args, &user)) return user;
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
    return Typed{types_.Error()};
  }
  int given = static_cast<int>(e.args.size());
  if (given > f->arity || given < (f->min_arity > 0 ? f->min_arity : f->arity)) {
    int shown = f->arity - (e.is_method ? 1 : 0);
    int fewest = f->min_arity > 0 ? f->min_arity - (e.is_method ? 1 : 0) : shown;
    std::string count =
        (fewest < shown ? std::to_string(fewest) + " or " : "") + std::to_string(shown);
    Error(e.span, "`" + e.name + "` takes " + count + " argument" +
                      (shown == 1 && fewest == shown ? "" : "s"))
        .help = std::string("signature: ") + f->signature;
    return Typed{types_.Error()};
  }
  tables_->functions[e.id] = f->id;
  std::string error;
  TypeId result = FunctionResult(f->id, args, &types_, &error);
  if (!error.empty()) Error(e.span, error).help = std::string("signature: ") + f->signature;
  return Typed{result, false, KeepsFactItems(f->id, typed)};
}

// Whether the items of a call's result (a list, a timeline, the steps of
// one) are the facts its receiver lists.
bool ExprChecker::KeepsFactItems(FunctionId id, const std::vector<Typed>& args) {
  switch (id) {
    case FunctionId::kDistinct:
    case FunctionId::kFlatten:
    case FunctionId::kPeak:
    case FunctionId::kSteps:
    case FunctionId::kOver:
    case FunctionId::kUnder:
      return args[0].fact_items;
    case FunctionId::kPlus:
    case FunctionId::kMinus:
      return args[0].fact_items && args[1].fact_items;
    default:
      return false;
  }
}

Typed ExprChecker::InferCollection(Expr& e) {
  if (e.kind == ExprKind::kMap) {
    TypeId key = types_.Any(), value = types_.Any();
    for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
      key = Unify(key, Infer(*e.args[i]).type, *e.args[i], "map keys");
      value = Unify(value, Infer(*e.args[i + 1]).type, *e.args[i + 1], "map values");
    }
    TypeKind k = types_.KindOf(key);
    if (!e.args.empty() && k != TypeKind::kString && k != TypeKind::kEnum && !IsLoose(k)) {
      Error(e.args[0]->span,
            "map keys must be strings or enum members, not `" + types_.Name(key) + "`");
    }
    return Typed{types_.Map(e.args.empty() ? types_.Primitive(TypeKind::kString) : key, value)};
  }
  TypeId elem = types_.Any();
  bool facts = !e.args.empty();
  for (auto& arg : e.args) {
    Typed t = Infer(*arg);
    elem = Unify(elem, t.type, *arg, e.kind == ExprKind::kSet ? "set elements" : "list elements");
    facts = facts && t.fact;
  }
  return Typed{types_.List(elem, e.kind == ExprKind::kSet), false, facts};
}

// `x if c`: `c` guards `x` as the condition of `?:` guards its `then`.
Typed ExprChecker::InferListIf(Expr& e) {
  Typed cond = Infer(*e.args[1]);
  ExpectBool(cond, *e.args[1], "the condition of a list element");
  std::set<std::string> saved = guards_;
  Collect(*e.args[1], false, &guards_);
  Typed value = Infer(*e.args[0]);
  guards_ = std::move(saved);
  return value;
}

Typed ExprChecker::InferUnary(Expr& e) {
  Typed operand = Infer(*e.args[0]);
  TypeKind k = types_.KindOf(operand.type);
  if (e.unary_op == syntax::UnaryOp::kNot) {
    ExpectBool(operand, *e.args[0], "the operand of `!`");
    return Typed{types_.Primitive(TypeKind::kBool)};
  }
  if (!IsNumber(k) && !IsUnit(k) && !IsLoose(k)) {
    Error(e.span,
          "`-` needs a number, duration or quantity, not `" + types_.Name(operand.type) + "`");
    return Typed{types_.Error()};
  }
  return Typed{operand.type};
}

Typed ExprChecker::InferBinary(Expr& e) {
  if (e.binary_op == BinaryOp::kAnd || e.binary_op == BinaryOp::kOr) return InferLogical(e);
  Typed lhs = Infer(*e.args[0]);
  Typed rhs = Infer(*e.args[1]);
  std::string error, help;
  TypeId result = BinaryResult(e.binary_op, lhs.type, rhs.type, &types_, &error, &help);
  if (!error.empty()) Error(e.span, error).help = help;
  return Typed{result};
}

Typed ExprChecker::InferLogical(Expr& e) {
  Typed lhs = Infer(*e.args[0]);
  ExpectBool(lhs, *e.args[0],
             e.binary_op == BinaryOp::kAnd ? "the left side of `&&`" : "the left side of `||`");
  std::set<std::string> saved = guards_;
  Collect(*e.args[0], e.binary_op == BinaryOp::kOr, &guards_);
  Typed rhs = Infer(*e.args[1]);
  guards_ = std::move(saved);
  ExpectBool(rhs, *e.args[1],
             e.binary_op == BinaryOp::kAnd ? "the right side of `&&`" : "the right side of `||`");
  return Typed{types_.Primitive(TypeKind::kBool)};
}

Typed ExprChecker::InferConditional(Expr& e, bool may_be_optional) {
  Typed cond = Infer(*e.args[0]);
  ExpectBool(cond, *e.args[0], "the condition of `?:`");
  std::set<std::string> saved = guards_;
  Collect(*e.args[0], false, &guards_);
  Typed then = Infer(*e.args[1], may_be_optional);
  guards_ = saved;
  Collect(*e.args[0], true, &guards_);
  Typed otherwise = Infer(*e.args[2], may_be_optional);
  guards_ = std::move(saved);
  TypeId type = Unify(then.type, otherwise.type, e, "the branches of `?:` are");
  return Typed{type, then.fact && otherwise.fact, then.fact_items && otherwise.fact_items};
}

// `let x = v; body`: `x` has v's type (an optional too), and is a fact
// where v is one; the let is its body's value.
Typed ExprChecker::InferLet(Expr& e, bool may_be_optional) {
  Typed value = Infer(*e.args[0], true);
  size_t depth = locals_.size();
  tables_->slots[e.id] = Bind(e.name, e.span, value);
  Typed body = Infer(*e.args[1], may_be_optional);
  locals_.resize(depth);
  return body;
}

Typed ExprChecker::InferMacro(Expr& e) {
  Typed range = Infer(*e.args[0]);
  const Type t = types_.Get(range.type);
  Typed var{types_.Any(), range.fact_items, range.fact_items};
  if (t.kind == TypeKind::kList) {
    var = Typed{t.elem, range.fact_items, range.fact_items};
  } else if (t.kind == TypeKind::kMap) {
    var = Typed{t.key};
  } else if (!IsLoose(t.kind)) {
    Error(e.args[0]->span, "`" + std::string(syntax::MacroName(e.macro)) +
                               "` needs a list or a map, not `" + types_.Name(range.type) + "`");
  }
  size_t depth = locals_.size();
  std::set<std::string> saved = guards_;
  tables_->slots[e.id] = Bind(e.name, e.span, var);
  Typed body = Infer(*e.args[1]);
  Typed result{types_.Primitive(TypeKind::kBool)};
  switch (e.macro) {
    case syntax::MacroKind::kMap:
      if (e.args.size() == 3) {
        ExpectBool(body, *e.args[1], "the filter of `map`");
        Collect(*e.args[1], false, &guards_);
        body = Infer(*e.args[2]);
      }
      result = Typed{types_.List(body.type), false, body.fact};
      break;
    case syntax::MacroKind::kFilter:
      ExpectBool(body, *e.args[1], "the condition of `filter`");
      result = Typed{types_.List(t.kind == TypeKind::kList ? t.elem : var.type), false, var.fact};
      break;
    case syntax::MacroKind::kGroup:
      result = InferGroup(e, body, var);
      break;
    case syntax::MacroKind::kTimeline:
      result = InferTimeline(e, body, var);
      break;
    default:
      ExpectBool(body, *e.args[1],
                 ("the condition of `" + std::string(syntax::MacroName(e.macro)) + "`").c_str());
  }
  guards_ = std::move(saved);
  locals_.resize(depth);
  return result;
}

// `xs.group(x, key)`: a map from each key to the items that have it.
Typed ExprChecker::InferGroup(Expr& e, const Typed& key, const Typed& item) {
  TypeKind k = types_.KindOf(key.type);
  if (k != TypeKind::kString && k != TypeKind::kRef && k != TypeKind::kEnum && !IsLoose(k)) {
    Error(e.args[1]->span, "the key of `group` must be a string, an id or an enum member, not `" +
                               types_.Name(key.type) + "`");
  }
  TypeId key_type = k == TypeKind::kEnum ? key.type : types_.Primitive(TypeKind::kString);
  return Typed{types_.Map(key_type, types_.List(item.type)), false, item.fact};
}

// `xs.timeline(x, windows, amount)`: each item holds its amount in its
// windows (a window, or a list of them: none means at all times).
Typed ExprChecker::InferTimeline(Expr& e, const Typed& windows, const Typed& item) {
  const Type w = types_.Get(windows.type);
  bool ok =
      IsLoose(w.kind) || IsInterval(types_, windows.type) ||
      (w.kind == TypeKind::kList && (IsInterval(types_, w.elem) || IsLoose(types_.KindOf(w.elem))));
  if (!ok) {
    Error(e.args[1]->span,
          "the windows of `timeline` must be a window or a list of windows, not `" +
              types_.Name(windows.type) + "`");
  }
  Typed amount = Infer(*e.args[2]);
  TypeKind k = types_.KindOf(amount.type);
  if (!IsMeasured(k) && !IsLoose(k)) {
    Error(e.args[2]->span,
          "the amount of `timeline` must be a number, a duration or a quantity, not `" +
              types_.Name(amount.type) + "`");
  }
  return Typed{
      types_.Timeline(item.type, IsLoose(k) ? types_.Primitive(TypeKind::kInt) : amount.type),
      false, item.fact};
}

Typed ExprChecker::InferHas(Expr& e) {
  Expr& select = *e.args[0];
  if (select.kind != ExprKind::kSelect) return Typed{types_.Primitive(TypeKind::kBool)};
  Typed operand = Infer(*select.args[0]);
  const Type t = types_.Get(operand.type);
  if (t.kind == TypeKind::kRecord) {
    FieldOf(types_.records[t.index], select);
  } else if (t.kind != TypeKind::kMap && !IsLoose(t.kind)) {
    Error(select.span, "`has` needs a record or a map, not `" + types_.Name(operand.type) + "`");
  }
  tables_->types[select.id] = types_.Any();
  return Typed{types_.Primitive(TypeKind::kBool)};
}

}  // namespace capops::check::internal
