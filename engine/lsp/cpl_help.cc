// SPDX-License-Identifier: Apache-2.0
// Hover and go-to-definition in `.cpl` files, resolved through the checker's
// side tables (cpl_help.h). Entry points: CplHover, CplDefinition.
#include "engine/lsp/cpl_help.h"

#include <optional>
#include <vector>

#include "engine/check/schema_decls.h"
#include "engine/lsp/position.h"
#include "engine/lsp/server.h"

namespace capops::lsp {

using Json = nlohmann::json;

namespace {

bool Contains(const Span& span, uint32_t offset) {
  return span.valid() && span.begin <= offset && offset <= span.end;
}

// What is at a place of a module, narrowest first.
struct Found {
  const syntax::Module* module = nullptr;
  const check::ModuleTables* tables = nullptr;
  const syntax::Rule* rule = nullptr;     // the cursor is on a rule's name or annotation
  const syntax::Expr* expr = nullptr;     // an identifier, a call or a field access
  const syntax::TypeRef* type = nullptr;  // a type named in a declaration
  Span span;                              // what the cursor is on
};

void FindType(const syntax::TypeRef& t, uint32_t offset, Found* found) {
  if (!Contains(t.span, offset)) return;
  for (const syntax::TypeRef& arg : t.args) FindType(arg, offset, found);
  if (found->type == nullptr) {
    found->type = &t;
    found->span = t.span;
  }
}

std::optional<Found> FindAt(const Engine& engine, const std::string& path, uint32_t line,
                            uint32_t column) {
  const check::Program* program = engine.program();
  if (program == nullptr) return std::nullopt;
  for (size_t m = 0; m < program->modules.size(); ++m) {
    const syntax::Module& module = *program->modules[m];
    if (engine.sources().Path(module.file) != path) continue;
    const SourceFile& file = engine.sources().file(module.file);
    std::optional<std::string> text = file.ReadText();
    if (!text) return std::nullopt;
    std::optional<size_t> at = TextOffset(*text, line, column);
    if (!at) return std::nullopt;
    uint32_t offset = static_cast<uint32_t>(*at);
    Found found;
    found.module = &module;
    found.tables = &program->tables[m];
    for (const syntax::Rule& r : module.rules) {
      bool on = Contains(r.name_span, offset);
      for (const syntax::Annotation& a : r.annotations) on |= Contains(a.span, offset);
      if (on) {
        found.rule = &r;
        found.span = r.name_span;
        return found;
      }
    }
    syntax::ForEachExpr(module, [&](const syntax::Expr& e) {
      if (e.kind != syntax::ExprKind::kIdent && e.kind != syntax::ExprKind::kSelect &&
          e.kind != syntax::ExprKind::kCall)
        return;
      if (!Contains(e.span, offset)) return;
      if (found.expr == nullptr ||
          e.span.end - e.span.begin < found.expr->span.end - found.expr->span.begin) {
        found.expr = &e;
        found.span = e.span;
      }
    });
    if (found.expr != nullptr) return found;
    for (const syntax::RecordDecl& r : module.records) {
      for (const syntax::FieldDecl& f : r.fields) FindType(f.type, offset, &found);
    }
    for (const syntax::Param& p : module.params) FindType(p.type, offset, &found);
    for (const syntax::FunctionDecl& f : module.functions) {
      for (const syntax::FunctionDecl::Param& p : f.params) FindType(p.type, offset, &found);
      FindType(f.result, offset, &found);
    }
    if (found.type != nullptr) return found;
    return std::nullopt;
  }
  return std::nullopt;
}

Json LocationOf(const SourceManager& sources, const Span& span) {
  const SourceFile& file = sources.file(span.file);
  std::string text = file.ReadText().value_or(std::string());
  SourceLoc begin = sources.Resolve(Span{span.file, span.begin, span.begin});
  SourceLoc end = sources.Resolve(Span{span.file, span.end, span.end});
  return {{"uri", UriOfPath(std::string(sources.Path(span.file)))},
          {"range",
           {{"start", PositionIn(text, begin.line, begin.column)},
            {"end", PositionIn(text, end.line, end.column)}}}};
}

std::string Code(const std::string& s) {
  return "`" + s + "`";
}

// A declaration a name at the place resolves to: where, and what to say.
struct Declaration {
  Span span;
  std::string markdown;
};

std::string WithDoc(std::string head, const std::string& doc) {
  return doc.empty() ? head : head + "\n\n" + doc;
}

std::optional<Declaration> Resolve(const Engine& engine, const Found& found) {
  const check::Program& program = *engine.program();
  const TypeTable& schema = program.schema;
  if (found.rule != nullptr) {
    for (const check::RuleInfo& info : program.rules) {
      if (info.rule != found.rule) continue;
      const char* severity = info.severity == Severity::kError     ? "error"
                             : info.severity == Severity::kWarning ? "warning"
                                                                   : "info";
      std::string out = "**" + info.id + "** " + Code(found.rule->name) + " · " + severity;
      if (!info.owner.empty()) out += " · owner " + Code(info.owner);
      if (!found.rule->doc.empty()) out += "\n\n" + found.rule->doc;
      for (const syntax::Emit& e : found.rule->emits) {
        if (!e.because.empty()) out += "\n\n**because** " + e.because;
        if (!e.fix.empty()) out += "\n\n**fix** " + e.fix;
      }
      if (!info.cost.empty()) out += "\n\ncost " + Code(info.cost);
      return Declaration{found.rule->name_span, out};
    }
    return std::nullopt;
  }
  if (found.type != nullptr) {
    if (const syntax::RecordDecl* r = check::SchemaDecls(program).Find(found.type->name)) {
      return Declaration{
          r->name_span,
          WithDoc(std::string(r->is_document ? "document " : "record ") + Code(r->name), r->doc)};
    }
    for (const auto& module : program.modules) {
      for (const syntax::EnumDecl& e : module->enums) {
        if (e.name != found.type->name) continue;
        std::string members;
        for (const auto& m : e.members) members += (members.empty() ? "" : ", ") + Code(m.name);
        return Declaration{e.name_span, WithDoc("enum " + Code(e.name) + ": " + members, e.doc)};
      }
    }
    return std::nullopt;
  }
  const syntax::Expr& e = *found.expr;
  const check::ModuleTables& tables = *found.tables;
  if (e.kind == syntax::ExprKind::kSelect && !e.args.empty() &&
      e.args[0]->id < tables.types.size()) {
    const Type& owner = schema.Get(tables.types[e.args[0]->id]);
    if (owner.kind != TypeKind::kRecord) return std::nullopt;
    const RecordDef& record = schema.records[owner.index];
    const FieldDef* field = record.Find(e.name);
    if (field == nullptr) return std::nullopt;
    return Declaration{
        field->span,
        WithDoc(Code(record.name + "." + field->name) + ": " + Code(schema.DeclaredType(*field)),
                check::SchemaDecls(program).FieldDoc(record.name, e.name))};
  }
  if (e.id >= tables.symbols.size()) return std::nullopt;
  const check::Symbol& symbol = tables.symbols[e.id];
  if (symbol.kind == check::SymbolKind::kParam && e.kind == syntax::ExprKind::kIdent) {
    const check::ParamInfo& p = program.params[symbol.index];
    std::string value =
        symbol.index < engine.params().size() ? engine.params()[symbol.index].ToString() : "";
    std::string head = "param " + Code(p.decl->name) + ": " + Code(schema.Name(p.type));
    if (!value.empty()) head += " = " + Code(value);
    return Declaration{p.decl->name_span, WithDoc(head, p.decl->doc)};
  }
  if (symbol.kind == check::SymbolKind::kFunction && e.kind == syntax::ExprKind::kCall) {
    const check::UserFunction& f = program.functions[symbol.index];
    std::string signature = "fn " + f.decl->name + "(";
    for (size_t i = 0; i < f.decl->params.size(); ++i) {
      signature += (i == 0 ? "" : ", ") + f.decl->params[i].name + ": " + schema.Name(f.params[i]);
    }
    signature += "): " + schema.Name(f.result);
    return Declaration{f.decl->name_span, WithDoc(Code(signature), f.decl->doc)};
  }
  return std::nullopt;
}

}  // namespace

Json CplHover(const Engine& engine, const std::string& path, uint32_t line, uint32_t column) {
  std::optional<Found> found = FindAt(engine, path, line, column);
  if (!found) return nullptr;
  std::optional<Declaration> d = Resolve(engine, *found);
  if (!d) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", d->markdown}}},
          {"range", LocationOf(engine.sources(), found->span)["range"]}};
}

Json CplDefinition(const Engine& engine, const std::string& path, uint32_t line, uint32_t column) {
  std::optional<Found> found = FindAt(engine, path, line, column);
  if (!found || found->rule != nullptr) return nullptr;
  std::optional<Declaration> d = Resolve(engine, *found);
  if (!d || !d->span.valid()) return nullptr;
  return Json::array({LocationOf(engine.sources(), d->span)});
}

}  // namespace capops::lsp
