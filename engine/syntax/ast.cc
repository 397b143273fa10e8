// SPDX-License-Identifier: Apache-2.0
// Names of operators and macros, and small AST helpers.
#include "engine/syntax/ast.h"

namespace capops::syntax {

const char* UnaryOpText(UnaryOp op) {
  return op == UnaryOp::kNot ? "!" : "-";
}

const char* BinaryOpText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr:
      return "||";
    case BinaryOp::kAnd:
      return "&&";
    case BinaryOp::kEq:
      return "==";
    case BinaryOp::kNe:
      return "!=";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLe:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGe:
      return ">=";
    case BinaryOp::kIn:
      return "in";
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kMod:
      return "%";
  }
  return "?";
}

const char* MacroName(MacroKind kind) {
  switch (kind) {
    case MacroKind::kAll:
      return "all";
    case MacroKind::kExists:
      return "exists";
    case MacroKind::kExistsOne:
      return "exists_one";
    case MacroKind::kMap:
      return "map";
    case MacroKind::kFilter:
      return "filter";
    case MacroKind::kGroup:
      return "group";
    case MacroKind::kTimeline:
      return "timeline";
  }
  return "?";
}

const Annotation* Rule::FindAnnotation(std::string_view name) const {
  for (const Annotation& a : annotations) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

void ForEachExpr(const Module& module, const std::function<void(const Expr&)>& visit) {
  std::vector<const Expr*> stack;
  auto push = [&](const ExprPtr& e) {
    if (e) stack.push_back(e.get());
  };
  for (const Param& p : module.params) push(p.default_value);
  for (const FunctionDecl& f : module.functions) push(f.body);
  for (const RecordDecl& r : module.records) {
    for (const FieldDecl& f : r.fields) push(f.default_value);
  }
  for (const Rule& r : module.rules) {
    for (const Clause& c : r.clauses) push(c.expr);
    for (const Emit& e : r.emits) {
      push(e.when);
      push(e.at);
      for (const Template::Part& part : e.message.parts) push(part.expr);
    }
  }
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    visit(*e);
    for (const ExprPtr& arg : e->args) push(arg);
  }
}

}  // namespace capops::syntax
