// SPDX-License-Identifier: Apache-2.0
// Binary and unary operators with CPL's unit rules:
//   date ± duration → date (to the second), date − date → duration,
//   quantity ± quantity of one dimension, quantity × int, quantity ÷ int,
//   bytes ÷ bytes/s → duration (transfer time), like ÷ like → double.
// Integer overflow and division by zero are errors, as in CEL.
#include "engine/eval/operators.h"

#include <cmath>

namespace capops::eval {

namespace {

using syntax::BinaryOp;

bool IsNumber(const Value& v) {
  return v.is(ValueKind::kInt) || v.is(ValueKind::kDouble);
}

double AsDouble(const Value& v) {
  return v.is(ValueKind::kInt) ? static_cast<double>(v.int_value()) : v.double_value();
}

Value Mismatch(BinaryOp op, const Value& a, const Value& b) {
  return Value::Error("no operator `" + std::string(syntax::BinaryOpText(op)) + "` for " +
                      DescribeKind(a) + " and " + DescribeKind(b));
}

Value Overflow() {
  return Value::Error("integer overflow");
}

Value IntArithmetic(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
    case BinaryOp::kAdd:
      return __builtin_add_overflow(a, b, &r) ? Overflow() : Value::Int(r);
    case BinaryOp::kSub:
      return __builtin_sub_overflow(a, b, &r) ? Overflow() : Value::Int(r);
    case BinaryOp::kMul:
      return __builtin_mul_overflow(a, b, &r) ? Overflow() : Value::Int(r);
    case BinaryOp::kDiv:
    case BinaryOp::kMod:
      if (b == 0)
        return Value::Error(op == BinaryOp::kDiv ? "division by zero" : "modulus by zero");
      if (a == INT64_MIN && b == -1) return Overflow();
      return Value::Int(op == BinaryOp::kDiv ? a / b : a % b);
    default:
      return Value::Error("not an arithmetic operator");
  }
}

Value DoubleArithmetic(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::kAdd:
      return Value::Double(a + b);
    case BinaryOp::kSub:
      return Value::Double(a - b);
    case BinaryOp::kMul:
      return Value::Double(a * b);
    case BinaryOp::kDiv:
      return Value::Double(a / b);
    default:
      return Value::Error("no operator `%` for double");
  }
}

// Wraps an int result back into the unit-carrying kind of `like`.
Value Rewrap(const Value& result, const Value& like) {
  if (result.is_error()) return result;
  switch (like.kind()) {
    case ValueKind::kDuration:
      return Value::Duration(result.int_value());
    case ValueKind::kQuantity:
      return Value::Quantity({result.int_value(), like.quantity_value().dimension});
    default:
      return result;
  }
}

// Exact to the second; the result is written as the date it moved (a
// plain date moved off midnight UTC prints as a UTC date-time).
Value DateArithmetic(BinaryOp op, const Value& a, const Value& b) {
  if (a.is(ValueKind::kDate) && b.is(ValueKind::kDate) && op == BinaryOp::kSub) {
    // Both within DateTime's range: the difference cannot overflow.
    return Value::Duration(a.date_value().seconds - b.date_value().seconds);
  }
  const Value& date = a.is(ValueKind::kDate) ? a : b;
  const Value& span = a.is(ValueKind::kDate) ? b : a;
  bool ok = span.is(ValueKind::kDuration) &&
            (op == BinaryOp::kAdd || (op == BinaryOp::kSub && a.is(ValueKind::kDate)));
  if (!ok) return Mismatch(op, a, b);
  DateTime t = date.date_value();
  int64_t seconds = 0;
  bool overflow = op == BinaryOp::kAdd
                      ? __builtin_add_overflow(t.seconds, span.int_value(), &seconds)
                      : __builtin_sub_overflow(t.seconds, span.int_value(), &seconds);
  if (overflow || seconds < DateTime::kMinSeconds || seconds > DateTime::kMaxSeconds) {
    return Value::Error("date out of range: " + date.ToString() + " " + syntax::BinaryOpText(op) +
                        " " + span.ToString());
  }
  return Value::Date({seconds, t.offset});
}

// Quantities and durations: like ± like; × and ÷ by an int; like ÷ like.
Value UnitArithmetic(BinaryOp op, const Value& a, const Value& b) {
  bool a_unit = a.is(ValueKind::kQuantity) || a.is(ValueKind::kDuration);
  bool b_unit = b.is(ValueKind::kQuantity) || b.is(ValueKind::kDuration);
  bool same =
      a.kind() == b.kind() &&
      (!a.is(ValueKind::kQuantity) || a.quantity_value().dimension == b.quantity_value().dimension);
  if ((op == BinaryOp::kAdd || op == BinaryOp::kSub) && same) {
    return Rewrap(IntArithmetic(op, a.int_value(), b.int_value()), a);
  }
  if (op == BinaryOp::kMul && b.is(ValueKind::kInt) && a_unit) {
    return Rewrap(IntArithmetic(op, a.int_value(), b.int_value()), a);
  }
  if (op == BinaryOp::kMul && a.is(ValueKind::kInt) && b_unit) {
    return Rewrap(IntArithmetic(op, a.int_value(), b.int_value()), b);
  }
  if (op == BinaryOp::kDiv && a_unit && b.is(ValueKind::kInt)) {
    return Rewrap(IntArithmetic(op, a.int_value(), b.int_value()), a);
  }
  if (op == BinaryOp::kDiv && same) {
    if (b.int_value() == 0) return Value::Error("division by zero");
    return Value::Double(static_cast<double>(a.int_value()) / static_cast<double>(b.int_value()));
  }
  // size ÷ bandwidth: how long a transfer takes, rounded up to a whole second.
  if (op == BinaryOp::kDiv && a.is(ValueKind::kQuantity) && b.is(ValueKind::kQuantity) &&
      a.quantity_value().dimension == Dimension::kBytes &&
      b.quantity_value().dimension == Dimension::kBytesPerSecond) {
    if (b.int_value() <= 0) return Value::Error("division by a bandwidth that is not positive");
    int64_t q = a.int_value() / b.int_value();
    if (a.int_value() % b.int_value() != 0 && a.int_value() > 0) ++q;
    return Value::Duration(q);
  }
  return Mismatch(op, a, b);
}

// Concatenations are charged before they are built: a string doubled in a
// loop of nested calls is refused at the budget, not at the allocator.
Value Arithmetic(BinaryOp op, const Value& a, const Value& b, Budget* budget) {
  if (a.is(ValueKind::kInt) && b.is(ValueKind::kInt))
    return IntArithmetic(op, a.int_value(), b.int_value());
  if (IsNumber(a) && IsNumber(b)) return DoubleArithmetic(op, AsDouble(a), AsDouble(b));
  if (op == BinaryOp::kAdd && a.is(ValueKind::kString) && b.is(ValueKind::kString)) {
    uint64_t size = uint64_t{a.string_value().size()} + b.string_value().size();
    if (!budget->Allocate(StringBytes(size))) return budget->Error();
    std::string text;
    text.reserve(size);
    return Value::String(text.append(a.string_value()).append(b.string_value()));
  }
  if (op == BinaryOp::kAdd && a.is(ValueKind::kList) && b.is(ValueKind::kList)) {
    if (!budget->Allocate(ListBytes(uint64_t{a.items().size()} + b.items().size())))
      return budget->Error();
    std::vector<Value> items;
    items.reserve(a.items().size() + b.items().size());
    items.insert(items.end(), a.items().begin(), a.items().end());
    items.insert(items.end(), b.items().begin(), b.items().end());
    return Value::List(std::move(items));
  }
  if (op == BinaryOp::kMod) return Mismatch(op, a, b);
  if (a.is(ValueKind::kDate) || b.is(ValueKind::kDate)) return DateArithmetic(op, a, b);
  return UnitArithmetic(op, a, b);
}

// A search of a list compares the element with every item: charged as
// that many comparisons of the element, before it starts.
Value In(const Value& element, const Value& container, Budget* budget) {
  if (container.is(ValueKind::kList)) {
    uint64_t n = container.items().size();
    uint64_t each = Budget::kBytesPerStep / 4;  // an item of 16 bytes
    if (element.is(ValueKind::kString)) each += element.string_value().size();
    if (element.is(ValueKind::kList) || element.is(ValueKind::kMap)) {
      uint64_t left = budget->steps_left();
      uint64_t limit =
          left > UINT64_MAX / Budget::kBytesPerStep ? UINT64_MAX : left * Budget::kBytesPerStep;
      uint64_t extent = Extent(element, limit);
      if (extent > limit && !budget->Steps(UINT64_MAX)) return budget->Error();
      each += extent;
    }
    if (n > 0 && each > UINT64_MAX / n) each = UINT64_MAX / n;
    if (!budget->Scan(n * each)) return budget->Error();
    for (const Value& item : container.items()) {
      if (item == element) return Value::Bool(true);
    }
    return Value::Bool(false);
  }
  if (container.is(ValueKind::kMap)) {
    if (!element.is(ValueKind::kString)) return Value::Bool(false);
    return Value::Bool(container.Field(element.string_value()) != nullptr);
  }
  return Value::Error("`in` needs a list or a map on the right, not " + DescribeKind(container));
}

}  // namespace

std::string DescribeKind(const Value& v) {
  if (v.is(ValueKind::kQuantity)) return DimensionName(v.quantity_value().dimension);
  if (const Value::Native* native = v.native()) return native->name();
  return KindName(v.kind());
}

bool Compare(const Value& a, const Value& b, int* order, std::string* error) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (IsNumber(a) && IsNumber(b)) {
    if (a.is(ValueKind::kInt) && b.is(ValueKind::kInt)) {
      *order = sign(a.int_value(), b.int_value());
    } else {
      *order = sign(AsDouble(a), AsDouble(b));
    }
    return true;
  }
  bool same_kind =
      a.kind() == b.kind() &&
      (!a.is(ValueKind::kQuantity) || a.quantity_value().dimension == b.quantity_value().dimension);
  if (same_kind && a.is(ValueKind::kDate)) {
    *order = sign(a.date_value().seconds, b.date_value().seconds);
    return true;
  }
  if (same_kind && (a.is(ValueKind::kDuration) || a.is(ValueKind::kQuantity))) {
    *order = sign(a.int_value(), b.int_value());
    return true;
  }
  if (same_kind && a.is(ValueKind::kString)) {
    *order = sign(a.string_value(), b.string_value());
    return true;
  }
  if (same_kind && a.is(ValueKind::kBool)) {
    *order = sign(a.bool_value(), b.bool_value());
    return true;
  }
  *error = "cannot compare " + DescribeKind(a) + " with " + DescribeKind(b);
  return false;
}

Value ApplyBinary(BinaryOp op, const Value& lhs, const Value& rhs, Budget* budget) {
  switch (op) {
    case BinaryOp::kEq:
    case BinaryOp::kNe:
      if (!ChargeEquality(lhs, rhs, budget)) return budget->Error();
      return Value::Bool((lhs == rhs) == (op == BinaryOp::kEq));
    case BinaryOp::kIn:
      return In(lhs, rhs, budget);
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe: {
      int order = 0;
      std::string error;
      if (!ChargeEquality(lhs, rhs, budget)) return budget->Error();  // strings: as long to order
      if (!Compare(lhs, rhs, &order, &error)) return Value::Error(error);
      bool r = op == BinaryOp::kLt   ? order < 0
               : op == BinaryOp::kLe ? order <= 0
               : op == BinaryOp::kGt ? order > 0
                                     : order >= 0;
      return Value::Bool(r);
    }
    case BinaryOp::kAnd:
    case BinaryOp::kOr:
      return Value::Error("logical operators are evaluated by the evaluator");
    default:
      return Arithmetic(op, lhs, rhs, budget);
  }
}

Value ApplyUnary(syntax::UnaryOp op, const Value& v) {
  if (op == syntax::UnaryOp::kNot) {
    if (!v.is(ValueKind::kBool)) return Value::Error("`!` needs a bool, not " + DescribeKind(v));
    return Value::Bool(!v.bool_value());
  }
  if (v.is(ValueKind::kDouble)) return Value::Double(-v.double_value());
  if (v.is(ValueKind::kInt) || v.is(ValueKind::kDuration) || v.is(ValueKind::kQuantity)) {
    if (v.int_value() == INT64_MIN) return Overflow();
    return Rewrap(Value::Int(-v.int_value()), v);
  }
  return Value::Error("`-` needs a number, duration or quantity, not " + DescribeKind(v));
}

}  // namespace capops::eval
