// SPDX-License-Identifier: Apache-2.0
// Built-in function implementations (internal to engine/eval).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/check/functions.h"
#include "engine/common/value.h"
#include "engine/eval/budget.h"
#include "engine/plan/regex.h"

namespace capops::eval {

/// The patterns one evaluation computes (`s.matches("^" + prefix)`),
/// compiled once each. Owned by that evaluation, used on its thread only:
/// it holds at most kMaxPatterns and then forgets them all at once, which
/// no other thread can see. A pointer it returns is valid until its next
/// Find.
class PatternCache {
 public:
  // Each may hold up to 1 MiB (its program and the states matching built).
  static constexpr size_t kMaxPatterns = 64;
  /// `pattern` compiled, with its compilation charged to `budget` the first
  /// time; null with `*error` set when it does not compile (or the budget
  /// is spent: then `*error` is empty).
  const plan::Regex* Find(std::string_view pattern, Budget* budget, std::string* error);

 private:
  struct Compiled {
    std::unique_ptr<const plan::Regex> regex;  // null: `error`
    std::string error;
  };
  struct Hash {
    using is_transparent = void;  // found by a string_view, without a copy
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, Compiled, Hash, std::equal_to<>> compiled_;
};

/// What a built-in uses besides its arguments.
struct BuiltinContext {
  Budget* budget;                        // charged with the work and the values of the call
  PatternCache* patterns;                // for patterns computed at run time
  const plan::Regex* literal = nullptr;  // `matches` of a literal pattern: compiled by the planner
};

/// Calls a built-in on evaluated arguments (receiver first for methods).
/// Argument errors were already propagated by the caller. Once the budget
/// is spent, the result is `context.budget->Error()`.
Value CallBuiltin(check::FunctionId id, const std::vector<Value>& args,
                  const BuiltinContext& context);

}  // namespace capops::eval
