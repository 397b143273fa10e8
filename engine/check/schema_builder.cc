// SPDX-License-Identifier: Apache-2.0
// Builds the TypeTable from `enum`, `record` and `document` declarations and
// resolves written types (`list<ref Pool>`) to TypeIds.
#include <algorithm>

#include "engine/check/internal.h"

namespace capops::check::internal {

namespace {

struct Primitive {
  const char* name;
  TypeKind kind;
};

constexpr Primitive kPrimitives[] = {
    {"any", TypeKind::kAny},
    {"bool", TypeKind::kBool},
    {"int", TypeKind::kInt},
    {"double", TypeKind::kDouble},
    {"string", TypeKind::kString},
    {"date", TypeKind::kDate},
    {"duration", TypeKind::kDuration},
    {"bytes", TypeKind::kBytes},
    {"bandwidth", TypeKind::kBandwidth},
};

std::vector<std::string> KnownTypeNames(const TypeTable& types) {
  std::vector<std::string> names = {"list", "set", "map"};
  for (const Primitive& p : kPrimitives) names.push_back(p.name);
  for (const auto& [name, _] : types.record_by_name) names.push_back(name);
  for (const auto& [name, _] : types.enum_by_name) names.push_back(name);
  return names;
}

void UnknownType(const syntax::TypeRef& ref, const TypeTable& types, const SourceManager& sources,
                 Diagnostics* diags) {
  Diagnostic& d = diags->Error(sources, ref.span, "unknown type `" + ref.name + "`");
  std::string guess = ClosestName(ref.name, KnownTypeNames(types));
  if (!guess.empty()) d.help = "did you mean `" + guess + "`?";
}

// The value of a field default: a literal, an enum member, or a list or map
// of those. Anything computed is refused: defaults are data, not code.
bool ConstantValue(const syntax::Expr& e, const Program& program, const Globals& globals,
                   Value* out) {
  switch (e.kind) {
    case syntax::ExprKind::kLiteral:
      *out = e.literal;
      return true;
    case syntax::ExprKind::kIdent: {
      auto it = globals.members.find(e.name);
      if (it == globals.members.end() || it->second.size() != 1) return false;
      *out = program.constants[it->second[0].second];
      return true;
    }
    case syntax::ExprKind::kList:
    case syntax::ExprKind::kSet: {
      std::vector<Value> items;
      for (const auto& arg : e.args) {
        if (!ConstantValue(*arg, program, globals, &items.emplace_back())) return false;
      }
      *out = Value::List(std::move(items));
      return true;
    }
    case syntax::ExprKind::kMap: {
      if (!e.args.empty()) return false;
      *out = Value::Map({});
      return true;
    }
    default:
      return false;
  }
}

// Whether a constant default fits the field's type (what validation would accept).
bool DefaultFits(const Value& v, TypeId type, const TypeTable& types) {
  const Type& t = types.Get(type);
  switch (t.kind) {
    case TypeKind::kAny:
    case TypeKind::kError:
      return true;
    case TypeKind::kBool:
      return v.is(ValueKind::kBool);
    case TypeKind::kInt:
      return v.is(ValueKind::kInt);
    case TypeKind::kDouble:
      return v.is(ValueKind::kInt) || v.is(ValueKind::kDouble);
    case TypeKind::kString:
    case TypeKind::kRef:
      return v.is(ValueKind::kString);
    case TypeKind::kDate:
      return v.is(ValueKind::kDate);
    case TypeKind::kDuration:
      return v.is(ValueKind::kDuration);
    case TypeKind::kBytes:
    case TypeKind::kBandwidth:
      return v.is(ValueKind::kQuantity) &&
             (v.quantity_value().dimension == Dimension::kBytes) == (t.kind == TypeKind::kBytes);
    case TypeKind::kEnum:
      return v.is(ValueKind::kString) && types.enums[t.index].FindFact(v.string_value()) >= 0;
    case TypeKind::kList:
      return v.is(ValueKind::kList) &&
             std::all_of(v.items().begin(), v.items().end(),
                         [&](const Value& x) { return DefaultFits(x, t.elem, types); });
    case TypeKind::kMap:
      return v.is(ValueKind::kMap) && v.entries().empty();
    default:
      return false;
  }
}

// The bounds of a field's `in low..high`, typed for the field: ranges bound
// numbers, an `int` field takes integer bounds and a `double` one any
// number (widened), and an empty range is refused. Each problem is an
// error at its bound, or at the range; the field is then left unbounded.
NumberRange TypedRange(const syntax::FieldDecl& f, TypeId type, const TypeTable& types,
                       const SourceManager& sources, Diagnostics* diags) {
  const syntax::FieldRange& range = *f.range;
  TypeKind kind = types.KindOf(type);
  if (kind == TypeKind::kError) return {};
  if (kind != TypeKind::kInt && kind != TypeKind::kDouble) {
    diags
        ->Error(sources, range.span,
                "a range bounds a number, and `" + f.name + "` is a `" + types.Name(type) + "`")
        .help = "write `in low..high` after `int` or `double`";
    return {};
  }
  bool ok = true;
  auto typed = [&](const Value& bound, const Span& span) {
    if (bound.is(ValueKind::kNull) ||
        bound.is(kind == TypeKind::kInt ? ValueKind::kInt : ValueKind::kDouble)) {
      return bound;
    }
    if (kind == TypeKind::kDouble && bound.is(ValueKind::kInt))
      return Value::Double(static_cast<double>(bound.int_value()));
    ok = false;
    diags->Error(sources, span,
                 "range bound `" + bound.ToLiteral() + "` is not " +
                     (kind == TypeKind::kInt ? "an `int`" : "a number"));
    return Value();
  };
  NumberRange out{typed(range.bounds.low, range.low_span),
                  typed(range.bounds.high, range.high_span)};
  if (!ok) return {};
  if (!out.low.is(ValueKind::kNull) && !out.Holds(out.low)) {  // above the high bound
    diags->Error(sources, range.span,
                 "the range `" + out.Text() + "` is empty: its low bound is above its high one");
    return {};
  }
  return out;
}

void RegisterNames(Program* program, const SourceManager& sources, Globals* globals,
                   Diagnostics* diags) {
  TypeTable& types = program->schema;
  for (const auto& module : program->modules) {
    for (const syntax::EnumDecl& e : module->enums) {
      if (types.enum_by_name.count(e.name) != 0 || types.record_by_name.count(e.name) != 0) {
        diags->Error(sources, e.name_span, "type `" + e.name + "` is declared twice");
        continue;
      }
      uint32_t index = static_cast<uint32_t>(types.enums.size());
      types.enum_by_name.emplace(e.name, index);
      EnumDef& def = types.enums.emplace_back();
      def.name = e.name;
      def.span = e.span;
      for (const auto& member : e.members) {
        if (std::find(def.members.begin(), def.members.end(), member.name) != def.members.end()) {
          diags->Error(sources, member.span,
                       "`" + member.name + "` is listed twice in `" + e.name + "`");
          continue;
        }
        def.members.push_back(member.name);
        uint32_t constant = static_cast<uint32_t>(program->constants.size());
        program->constants.push_back(Value::String(EnumDef::FactSpelling(member.name)));
        globals->members[member.name].emplace_back(index, constant);
        globals->constant_of[e.name + "." + member.name] = constant;
      }
    }
    for (const syntax::RecordDecl& r : module->records) {
      if (types.enum_by_name.count(r.name) != 0 || types.record_by_name.count(r.name) != 0) {
        diags->Error(sources, r.name_span, "type `" + r.name + "` is declared twice");
        continue;
      }
      types.record_by_name.emplace(r.name, static_cast<uint32_t>(types.records.size()));
      RecordDef& def = types.records.emplace_back();
      def.name = r.name;
      def.is_document = r.is_document;
      def.span = r.span;
    }
  }
}

void BuildFields(Program* program, const syntax::RecordDecl& decl, const SourceManager& sources,
                 const Globals& globals, Diagnostics* diags) {
  TypeTable& types = program->schema;
  auto it = types.record_by_name.find(decl.name);
  if (it == types.record_by_name.end() || !types.records[it->second].fields.empty()) return;
  std::vector<FieldDef> fields;
  for (const syntax::FieldDecl& f : decl.fields) {
    if (std::any_of(fields.begin(), fields.end(),
                    [&](const FieldDef& d) { return d.name == f.name; })) {
      diags->Error(sources, f.name_span,
                   "field `" + f.name + "` is declared twice in `" + decl.name + "`");
      continue;
    }
    FieldDef& field = fields.emplace_back();
    field.name = f.name;
    field.key = Key(f.name);
    field.span = f.name_span;
    field.optional = f.optional;
    field.type = ResolveType(f.type, &types, sources, diags);
    if (f.range) field.range = TypedRange(f, field.type, types, sources, diags);
    if (f.default_value) {
      if (f.optional)
        diags->Error(sources, f.name_span, "an optional field cannot also have a default");
      field.has_default = ConstantValue(*f.default_value, *program, globals, &field.default_value);
      if (!field.has_default) {
        diags->Error(sources, f.default_value->span,
                     "a field default must be a literal, an enum member or `[]`");
      } else if (!DefaultFits(field.default_value, field.type, types)) {
        diags->Error(sources, f.default_value->span,
                     "the default of `" + f.name + "` is not a `" + types.Name(field.type) + "`");
        field.has_default = false;
      } else if (!field.range.Holds(field.default_value)) {
        diags->Error(
            sources, f.default_value->span,
            "the default of `" + f.name + "` is outside its range `" + field.range.Text() + "`");
      }
    }
  }
  types.records[it->second].fields = std::move(fields);
}

}  // namespace

TypeId ResolveType(const syntax::TypeRef& ref, TypeTable* types, const SourceManager& sources,
                   Diagnostics* diags) {
  auto arity = [&](size_t n) {
    if (ref.args.size() == n) return true;
    diags->Error(
        sources, ref.span,
        "`" + ref.name + "` takes " + std::to_string(n) + " type argument" + (n == 1 ? "" : "s"));
    return false;
  };
  if (ref.is_ref) {
    auto it = types->record_by_name.find(ref.name);
    if (it == types->record_by_name.end()) {
      UnknownType(ref, *types, sources, diags);
      return types->Error();
    }
    return types->Ref(it->second);
  }
  for (const Primitive& p : kPrimitives) {
    if (ref.name == p.name)
      return arity(0) ? (p.kind == TypeKind::kAny ? types->Any() : types->Primitive(p.kind))
                      : types->Error();
  }
  if (ref.name == "list" || ref.name == "set") {
    if (!arity(1)) return types->Error();
    return types->List(ResolveType(ref.args[0], types, sources, diags), ref.name == "set");
  }
  if (ref.name == "map") {
    if (!arity(2)) return types->Error();
    TypeId key = ResolveType(ref.args[0], types, sources, diags);
    TypeKind k = types->KindOf(key);
    if (k != TypeKind::kString && k != TypeKind::kEnum && k != TypeKind::kError) {
      diags->Error(sources, ref.args[0].span,
                   "map keys must be `string` or an enum, not `" + types->Name(key) + "`");
    }
    return types->Map(key, ResolveType(ref.args[1], types, sources, diags));
  }
  if (auto it = types->enum_by_name.find(ref.name); it != types->enum_by_name.end()) {
    return arity(0) ? types->Enum(it->second) : types->Error();
  }
  if (auto it = types->record_by_name.find(ref.name); it != types->record_by_name.end()) {
    return arity(0) ? types->Record(it->second) : types->Error();
  }
  UnknownType(ref, *types, sources, diags);
  return types->Error();
}

void BuildSchema(Program* program, const SourceManager& sources, Globals* globals,
                 Diagnostics* diags) {
  RegisterNames(program, sources, globals, diags);
  for (const auto& module : program->modules) {
    for (const syntax::RecordDecl& r : module->records)
      BuildFields(program, r, sources, *globals, diags);
  }
  // A reference needs something to look its id up in.
  TypeTable& types = program->schema;
  for (const auto& module : program->modules) {
    for (const syntax::RecordDecl& r : module->records) {
      for (const syntax::FieldDecl& f : r.fields) {
        const syntax::TypeRef* t = &f.type;
        while (!t->is_ref && t->args.size() == 1) t = &t->args[0];
        if (!t->is_ref) continue;
        auto it = types.record_by_name.find(t->name);
        if (it == types.record_by_name.end()) continue;
        const FieldDef* id = types.records[it->second].Find("id");
        if (id == nullptr || id->optional || types.KindOf(id->type) != TypeKind::kString) {
          diags->Error(
              sources, t->span,
              "`ref " + t->name + "` needs `" + t->name + "` to have a field `id: string`");
        }
      }
    }
  }
}

void IndexGlobals(const Program& program, Globals* globals) {
  // Constants were made enum by enum, member by member (RegisterNames).
  uint32_t constant = 0;
  for (uint32_t e = 0; e < program.schema.enums.size(); ++e) {
    const EnumDef& def = program.schema.enums[e];
    for (const std::string& member : def.members) {
      globals->members[member].emplace_back(e, constant);
      globals->constant_of[def.name + "." + member] = constant++;
    }
  }
  for (uint32_t i = 0; i < program.params.size(); ++i) {
    const ParamInfo& p = program.params[i];
    globals->params[p.decl->name].push_back({i, program.modules[p.module]->package});
  }
  for (uint32_t i = 0; i < program.functions.size(); ++i) {
    const UserFunction& f = program.functions[i];
    globals->functions[f.decl->name].push_back({i, program.modules[f.module]->package});
  }
}

bool Assignable(const TypeTable& types, TypeId from, TypeId to) {
  if (from == to) return true;
  const Type& f = types.Get(from);
  const Type& t = types.Get(to);
  if (f.kind == TypeKind::kError || t.kind == TypeKind::kError) return true;
  // An optional stands only where an optional is expected (not even where
  // `any` is): a value that may be none must be unwrapped first.
  if (f.kind == TypeKind::kOptional || t.kind == TypeKind::kOptional) {
    if (f.kind == t.kind) return Assignable(types, f.elem, t.elem);
    return f.kind == TypeKind::kAny;
  }
  if (f.kind == TypeKind::kAny || t.kind == TypeKind::kAny) return true;
  if (f.kind == TypeKind::kInt && t.kind == TypeKind::kDouble) return true;
  if (f.kind == TypeKind::kList && t.kind == TypeKind::kList)
    return Assignable(types, f.elem, t.elem);
  if (f.kind == TypeKind::kMap && t.kind == TypeKind::kMap) {
    return Assignable(types, f.key, t.key) && Assignable(types, f.elem, t.elem);
  }
  return false;
}

}  // namespace capops::check::internal
