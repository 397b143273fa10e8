// SPDX-License-Identifier: Apache-2.0
// The canonical form of a module, hashed into the ruleset digest.
// Entry points: syntax::CanonicalModule, and CanonicalExpr for one expression.
//
// It differs from DumpModule (a form for reading in tests) in being complete
// and unambiguous: every string is quoted and escaped, doubles are written
// with full precision, and every part that changes what a rule set does or
// says (annotations, messages, because and fix, field defaults, enum members)
// is in it. Spans, comments, doc comments and tests are not.
#include <cstdio>
#include <string>

#include "engine/syntax/ast.h"

namespace capops::syntax {

namespace {

std::string Quoted(const std::string& text) {
  return Value::String(text).ToLiteral();
}

// Like DumpExpr, with doubles written with all their digits.
void ExprInto(const Expr& e, std::string* out) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      if (e.literal.is(ValueKind::kDouble)) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g:double", e.literal.double_value());
        *out += buf;
      } else {
        *out += DumpExpr(e);
      }
      return;
    case ExprKind::kIdent:
      *out += e.name;
      return;
    case ExprKind::kSelect:
      *out += "(. " + e.name;
      break;
    case ExprKind::kOptSelect:
      *out += "(.? " + e.name;
      break;
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
  for (const ExprPtr& arg : e.args) {
    *out += ' ';
    ExprInto(*arg, out);
  }
  *out += ')';
}

std::string ExprText(const Expr* e) {
  if (e == nullptr) return "-";
  std::string out;
  ExprInto(*e, &out);
  return out;
}

std::string TypeText(const TypeRef& t) {
  std::string out = (t.is_ref ? "ref " : "") + t.name;
  if (t.args.empty()) return out;
  out += '<';
  for (size_t i = 0; i < t.args.size(); ++i) out += (i == 0 ? "" : ", ") + TypeText(t.args[i]);
  return out + '>';
}

std::string TemplateText(const Template& t) {
  std::string out = "(template";
  for (const Template::Part& part : t.parts)
    out += ' ' + (part.expr ? "{" + ExprText(part.expr.get()) + "}" : Quoted(part.text));
  return out + ')';
}

void RuleInto(const Rule& rule, std::string* out) {
  *out += "rule " + rule.name + '\n';
  for (const Annotation& a : rule.annotations) {
    *out += "  @" + a.name;
    for (const std::string& arg : a.args) *out += ' ' + Quoted(arg);
    *out += '\n';
  }
  for (const Clause& c : rule.clauses) {
    const char* kw = c.kind == ClauseKind::kFor   ? "for "
                     : c.kind == ClauseKind::kLet ? "let "
                                                  : "where ";
    *out += std::string("  ") + kw + c.var + ' ' + ExprText(c.expr.get()) + '\n';
  }
  for (const Emit& e : rule.emits) {
    *out += std::string("  ") + (e.is_warn ? "warn" : "deny") + " when " + ExprText(e.when.get()) +
            " at " + ExprText(e.at.get()) + ' ' + TemplateText(e.message) + " because " +
            Quoted(e.because) + " fix " + Quoted(e.fix) + '\n';
  }
}

}  // namespace

std::string CanonicalExpr(const Expr& expr) {
  return ExprText(&expr);
}

std::string CanonicalModule(const Module& module) {
  std::string out = "package " + module.package + '\n';
  for (const Import& i : module.imports) out += "import " + i.package + '\n';
  for (const EnumDecl& e : module.enums) {
    out += "enum " + e.name;
    for (const EnumDecl::Member& m : e.members) out += ' ' + m.name;
    out += '\n';
  }
  for (const RecordDecl& r : module.records) {
    out += (r.is_document ? "document " : "record ") + r.name + '\n';
    for (const FieldDecl& f : r.fields) {
      out += "  field " + f.name + (f.optional ? "? " : " ") + TypeText(f.type);
      if (f.range) out += " in " + f.range->bounds.Text();
      out += " = " + ExprText(f.default_value.get()) + '\n';
    }
  }
  for (const FunctionDecl& f : module.functions) {
    out += "fn " + f.name;
    for (const FunctionDecl::Param& p : f.params) out += ' ' + p.name + ": " + TypeText(p.type);
    out += " -> " + TypeText(f.result) + " = " + ExprText(f.body.get()) + '\n';
  }
  for (const Param& p : module.params) {
    out += "param " + p.name + ": " + TypeText(p.type) + " = " + ExprText(p.default_value.get()) +
           '\n';
  }
  for (const Rule& r : module.rules) RuleInto(r, &out);
  return out;
}

}  // namespace capops::syntax
