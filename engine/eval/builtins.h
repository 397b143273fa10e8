// Built-in function implementations (internal to engine/eval).
#pragma once

#include <vector>

#include "engine/check/functions.h"
#include "engine/common/value.h"

namespace capops::eval {

/// Calls a built-in on evaluated arguments (receiver first for methods).
/// Argument errors were already propagated by the caller.
Value CallBuiltin(check::FunctionId id, const std::vector<Value>& args);

}  // namespace capops::eval
