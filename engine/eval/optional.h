// SPDX-License-Identifier: Apache-2.0
// Optional values at run time (internal to engine/eval): what `a.?b`
// evaluates to, and what `orValue` and `hasValue` take apart.
//
// An optional is a list of at most one item: `[v]` when present, `[]` when
// none. Value keeps its kinds, and nothing mistakes one for a list, because
// the checker gives every optional expression the type `optional<T>` and
// lets it reach only `.?`, `orValue`, `hasValue`, `let` and the branches of
// `?:`; the evaluator knows a node yields an optional from that static type.
//
//   Value some = OptionalOf(Value::Int(4));   // [4]
//   OptionalValue(some)->int_value() == 4;
//   OptionalValue(OptionalNone()) == nullptr;
#pragma once

#include <string>
#include <utility>

#include "engine/common/value.h"

namespace capops::eval {

inline Value OptionalOf(Value v) {
  return Value::List({std::move(v)});
}
inline Value OptionalNone() {
  return Value::List({});
}

/// True when `v` has an optional's shape (a list of at most one item).
inline bool IsOptional(const Value& v) {
  return v.is(ValueKind::kList) && v.items().size() <= 1;
}

/// The value an optional holds, or nullptr when it is none (or no optional).
inline const Value* OptionalValue(const Value& v) {
  return IsOptional(v) && v.items().size() == 1 ? &v.items()[0] : nullptr;
}

/// An optional as CEL writes it, `optional.of(4)` or `optional.none()`,
/// its value shown by `text`; an error as `text` shows it.
inline std::string OptionalText(const Value& v, std::string (*text)(const Value&)) {
  if (v.is_error()) return text(v);
  const Value* inner = OptionalValue(v);
  return inner != nullptr ? "optional.of(" + text(*inner) + ")" : "optional.none()";
}

}  // namespace capops::eval
