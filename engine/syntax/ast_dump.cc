// SPDX-License-Identifier: Apache-2.0
// Text dumps of the AST: S-expression-like and stable, so tests compare them.
//
//   a.pool == "x" && !b   →   (&& (== (. a pool) "x") (! b))
#include <string>

#include "engine/syntax/ast.h"

namespace capops::syntax {

namespace {

void DumpInto(const Expr& e, std::string* out);

void DumpArgs(const Expr& e, size_t from, std::string* out) {
  for (size_t i = from; i < e.args.size(); ++i) {
    *out += ' ';
    DumpInto(*e.args[i], out);
  }
}

void DumpInto(const Expr& e, std::string* out) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      *out += e.literal.ToLiteral();
      if (e.literal.is(ValueKind::kDate) || e.literal.is(ValueKind::kDuration) ||
          e.literal.is(ValueKind::kQuantity)) {
        *out += std::string(":") + KindName(e.literal.kind());
      }
      return;
    case ExprKind::kIdent:
      *out += e.name;
      return;
    case ExprKind::kSelect:
      *out += "(. ";
      DumpInto(*e.args[0], out);
      *out += ' ' + e.name + ')';
      return;
    case ExprKind::kOptSelect:
      *out += "(.? ";
      DumpInto(*e.args[0], out);
      *out += ' ' + e.name + ')';
      return;
    case ExprKind::kListIf:
      *out += "(if";
      break;
    case ExprKind::kIndex:
      *out += "([]";
      break;
    case ExprKind::kCall:
      *out += (e.is_method ? "(call ." : "(call ") + e.name;
      break;
    case ExprKind::kList:
      *out += "(list";
      break;
    case ExprKind::kMap:
      *out += "(map";
      break;
    case ExprKind::kSet:
      *out += "(set";
      break;
    case ExprKind::kUnary:
      *out += std::string("(") + UnaryOpText(e.unary_op);
      break;
    case ExprKind::kBinary:
      *out += std::string("(") + BinaryOpText(e.binary_op);
      break;
    case ExprKind::kConditional:
      *out += "(?:";
      break;
    case ExprKind::kMacro:
      *out += std::string("(") + MacroName(e.macro) + ' ' + e.name;
      break;
    case ExprKind::kHas:
      *out += "(has";
      break;
    case ExprKind::kLet:
      *out += "(let " + e.name;
      break;
  }
  DumpArgs(e, 0, out);
  *out += ')';
}

void DumpTemplate(const Template& t, std::string* out) {
  *out += '"';
  for (const Template::Part& part : t.parts) {
    if (part.expr) {
      *out += '{' + DumpExpr(*part.expr) + '}';
    } else {
      *out += part.text;
    }
  }
  *out += '"';
}

void DumpType(const TypeRef& t, std::string* out) {
  if (t.is_ref) *out += "ref ";
  *out += t.name;
  if (t.args.empty()) return;
  *out += '<';
  for (size_t i = 0; i < t.args.size(); ++i) {
    if (i > 0) *out += ", ";
    DumpType(t.args[i], out);
  }
  *out += '>';
}

void DumpRule(const Rule& rule, std::string* out) {
  for (const Annotation& a : rule.annotations) {
    *out += '@' + a.name;
    for (size_t i = 0; i < a.args.size(); ++i) *out += (i == 0 ? "(" : ", ") + a.args[i];
    *out += a.args.empty() ? " " : ") ";
  }
  *out += "rule " + rule.name + '\n';
  for (const Clause& c : rule.clauses) {
    const char* kw = c.kind == ClauseKind::kFor   ? "for "
                     : c.kind == ClauseKind::kLet ? "let "
                                                  : "where";
    *out += std::string("  ") + kw + c.var + (c.kind == ClauseKind::kWhere ? " " : " = ");
    *out += DumpExpr(*c.expr) + '\n';
  }
  for (const Emit& e : rule.emits) {
    *out += e.is_warn ? "  warn" : "  deny";
    if (e.when) *out += " when " + DumpExpr(*e.when);
    if (e.at) *out += " at " + DumpExpr(*e.at);
    *out += ' ';
    DumpTemplate(e.message, out);
    if (!e.because.empty()) *out += " because \"" + e.because + '"';
    if (!e.fix.empty()) *out += " fix \"" + e.fix + '"';
    *out += '\n';
  }
}

}  // namespace

std::string DumpExpr(const Expr& expr) {
  std::string out;
  DumpInto(expr, &out);
  return out;
}

std::string DumpModule(const Module& module) {
  std::string out;
  if (!module.package.empty()) out += "package " + module.package + '\n';
  for (const Import& i : module.imports) out += "import " + i.package + '\n';
  for (const RecordDecl& r : module.records) {
    out += (r.is_document ? "document " : "record ") + r.name + " {";
    for (size_t i = 0; i < r.fields.size(); ++i) {
      const FieldDecl& f = r.fields[i];
      out += (i == 0 ? "" : ",") + std::string(" ") + f.name + (f.optional ? "?: " : ": ");
      DumpType(f.type, &out);
      if (f.range) out += " in " + f.range->bounds.Text();
      if (f.default_value) out += " = " + DumpExpr(*f.default_value);
    }
    out += " }\n";
  }
  for (const EnumDecl& e : module.enums) {
    out += "enum " + e.name + " {";
    for (size_t i = 0; i < e.members.size(); ++i) out += (i == 0 ? "" : ", ") + e.members[i].name;
    out += "}\n";
  }
  for (const FunctionDecl& f : module.functions) {
    out += "fn " + f.name + "(";
    for (size_t i = 0; i < f.params.size(); ++i) {
      out += (i == 0 ? "" : ", ") + f.params[i].name + ": ";
      DumpType(f.params[i].type, &out);
    }
    out += "): ";
    DumpType(f.result, &out);
    out += " = " + DumpExpr(*f.body) + '\n';
  }
  for (const Param& p : module.params) {
    out += "param " + p.name + ": ";
    DumpType(p.type, &out);
    out += " = " + DumpExpr(*p.default_value) + '\n';
  }
  for (const Rule& r : module.rules) DumpRule(r, &out);
  return out;
}

}  // namespace capops::syntax
