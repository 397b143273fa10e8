// SPDX-License-Identifier: Apache-2.0
// Static typing of operators, mirroring engine/eval/operators.cc: units must
// agree (`80GiB + 5d` is an error), `date - date` is a duration, `date +
// duration` a date, `bytes / bytes/s` a duration; enums compare only with
// members of the same enum.
#include "engine/check/internal.h"

namespace capops::check::internal {

namespace {

using syntax::BinaryOp;

// Whether values of the two types can ever be equal.
bool Comparable(const TypeTable& types, TypeId a, TypeId b) {
  const Type x = types.Get(a);
  const Type y = types.Get(b);
  if (a == b || IsLoose(x.kind) || IsLoose(y.kind)) return true;
  if (x.kind == TypeKind::kNull || y.kind == TypeKind::kNull) return true;
  if (IsNumber(x.kind) && IsNumber(y.kind)) return true;
  if (IsStringLike(x.kind) && IsStringLike(y.kind)) {
    return !(x.kind == TypeKind::kRef && y.kind == TypeKind::kRef && x.index != y.index);
  }
  if (x.kind == TypeKind::kList && y.kind == TypeKind::kList)
    return Comparable(types, x.elem, y.elem);
  if (x.kind == TypeKind::kMap && y.kind == TypeKind::kMap)
    return Comparable(types, x.elem, y.elem);
  return false;
}

TypeId Arithmetic(BinaryOp op, TypeId l, TypeId r, TypeTable* types) {
  TypeKind a = types->KindOf(l), b = types->KindOf(r);
  TypeId err = types->Error();
  if (IsLoose(a) || IsLoose(b)) return IsLoose(a) ? l : r;
  if (a == TypeKind::kInt && b == TypeKind::kInt) return l;
  if (IsNumber(a) && IsNumber(b))
    return op == BinaryOp::kMod ? err : types->Primitive(TypeKind::kDouble);
  if (op == BinaryOp::kMod) return err;
  switch (op) {
    case BinaryOp::kAdd:
      if (IsStringLike(a) && IsStringLike(b)) return types->Primitive(TypeKind::kString);
      if (a == TypeKind::kList && b == TypeKind::kList && Comparable(*types, l, r)) return l;
      if (a == TypeKind::kDate && b == TypeKind::kDuration) return l;
      if (a == TypeKind::kDuration && b == TypeKind::kDate) return r;
      return IsUnit(a) && a == b ? l : err;
    case BinaryOp::kSub:
      if (a == TypeKind::kDate && b == TypeKind::kDate)
        return types->Primitive(TypeKind::kDuration);
      if (a == TypeKind::kDate && b == TypeKind::kDuration) return l;
      return IsUnit(a) && a == b ? l : err;
    case BinaryOp::kMul:
      if (IsUnit(a) && b == TypeKind::kInt) return l;
      if (a == TypeKind::kInt && IsUnit(b)) return r;
      return err;
    case BinaryOp::kDiv:
      if (IsUnit(a) && b == TypeKind::kInt) return l;
      if (IsUnit(a) && a == b) return types->Primitive(TypeKind::kDouble);
      if (a == TypeKind::kBytes && b == TypeKind::kBandwidth)
        return types->Primitive(TypeKind::kDuration);
      return err;
    default:
      return err;
  }
}

}  // namespace

TypeId BinaryResult(BinaryOp op, TypeId l, TypeId r, TypeTable* types, std::string* error,
                    std::string* help) {
  TypeId boolean = types->Primitive(TypeKind::kBool);
  const Type x = types->Get(l);
  const Type y = types->Get(r);
  std::string ops = std::string("`") + syntax::BinaryOpText(op) + "`";
  std::string pair = "`" + types->Name(l) + "` and `" + types->Name(r) + "`";
  switch (op) {
    case BinaryOp::kEq:
    case BinaryOp::kNe:
      if (Comparable(*types, l, r)) return boolean;
      *error = ops + " between " + pair + " is always " + (op == BinaryOp::kEq ? "false" : "true");
      if ((x.kind == TypeKind::kEnum && y.kind == TypeKind::kString) ||
          (y.kind == TypeKind::kEnum && x.kind == TypeKind::kString)) {
        *help = "compare with a member of the enum, such as `" +
                types->enums[x.kind == TypeKind::kEnum ? x.index : y.index].members[0] +
                "`, not a string";
      }
      return boolean;
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe: {
      bool ok = IsLoose(x.kind) || IsLoose(y.kind) || (IsNumber(x.kind) && IsNumber(y.kind)) ||
                (x.kind == y.kind &&
                 (IsUnit(x.kind) || x.kind == TypeKind::kDate || x.kind == TypeKind::kString));
      if (!ok) *error = "cannot order " + pair + " with " + ops;
      return boolean;
    }
    case BinaryOp::kIn:
      if (y.kind == TypeKind::kList && !Comparable(*types, l, y.elem)) {
        *error = "`" + types->Name(l) + "` is never in `" + types->Name(r) + "`";
      } else if (y.kind == TypeKind::kMap && !Comparable(*types, l, y.key)) {
        *error = "`" + types->Name(l) + "` is never a key of `" + types->Name(r) + "`";
      } else if (y.kind != TypeKind::kList && y.kind != TypeKind::kMap && !IsLoose(y.kind)) {
        *error = "`in` needs a list, set or map on the right, not `" + types->Name(r) + "`";
      }
      return boolean;
    default: {
      TypeId result = Arithmetic(op, l, r, types);
      if (types->KindOf(result) == TypeKind::kError && !IsLoose(x.kind) && !IsLoose(y.kind)) {
        *error = "no operator " + ops + " for " + pair;
        if (IsUnit(x.kind) && IsUnit(y.kind))
          *help = "quantities combine only with the same dimension";
      }
      return result;
    }
  }
}

}  // namespace capops::check::internal
