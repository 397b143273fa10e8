// SPDX-License-Identifier: Apache-2.0
// The built-in functions of CPL: names, call forms and arities.
//
// The checker resolves every call to a FunctionId so the evaluator dispatches
// on an enum, never on a name. CEL's string functions keep CEL's names and
// forms (`s.startsWith(t)`, `size(x)` or `x.size()`); CPL adds aggregates
// over lists (`sum`, `count`, `min`, `max`, as functions or methods),
// `distinct`, `flatten`, CEL's `orValue` and `hasValue` on optionals
// (`a.?b`), and the methods of intervals and timelines. `contains` is
// also an interval's: `w.contains(date | interval)`.
#pragma once

#include <string_view>
#include <vector>

namespace capops::check {

enum class FunctionId {
  kSize,
  kContains,
  kStartsWith,
  kEndsWith,
  kMatches,
  kLowerAscii,
  kUpperAscii,
  kJoin,
  kSum,
  kCount,
  kMin,
  kMax,
  kInt,
  kDouble,
  kString,
  kDistinct,
  kFlatten,
  // intervals (a `Window`, or any record with a `start` and an `end` date)
  kInterval,
  kOverlaps,
  kIntersect,
  kStart,
  kEnd,
  kDuration,
  // timelines
  kPeak,
  kSteps,
  kAt,
  kOver,
  kUnder,
  kPlus,
  kMinus,
  kOrValue,
  kHasValue,
};

struct FunctionInfo {
  const char* name;
  FunctionId id;
  bool global;            // callable as f(x, …)
  bool method;            // callable as x.f(…)
  int arity;              // arguments including the receiver of a method call
  const char* signature;  // for messages: "size(list | map | string) -> int"
  int min_arity = 0;      // when set, the last arguments down to this many may be left out
};

/// The function called `name` in the given form, or nullptr.
const FunctionInfo* FindFunction(std::string_view name, bool as_method);
/// Every built-in, for did-you-mean and documentation.
const std::vector<FunctionInfo>& AllFunctions();

}  // namespace capops::check
