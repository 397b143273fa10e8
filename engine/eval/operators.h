// SPDX-License-Identifier: Apache-2.0
// Operators on Values: arithmetic with units, comparison, membership.
// Internal to engine/eval. Every function returns an error Value (never
// throws) when the operands do not fit, with a message naming their kinds.
#pragma once

#include "engine/common/value.h"
#include "engine/eval/budget.h"
#include "engine/syntax/ast.h"

namespace capops::eval {

/// All binary operators but `&&` and `||`, which short-circuit in the evaluator.
/// What grows with the operands' lengths (a concatenation built, lists
/// compared or searched) is charged to `budget` first; when it would pass
/// the budget, the result is `budget->Error()` and nothing is built.
Value ApplyBinary(syntax::BinaryOp op, const Value& lhs, const Value& rhs, Budget* budget);
Value ApplyUnary(syntax::UnaryOp op, const Value& operand);

/// Orders two values of one comparable kind: -1, 0 or 1. False when the kinds
/// cannot be ordered against each other (`*error` then says why).
bool Compare(const Value& a, const Value& b, int* order, std::string* error);

/// The kind of a value as a user reads it: "int", "bytes/s", "list" …
std::string DescribeKind(const Value& v);

}  // namespace capops::eval
