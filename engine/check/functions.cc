// The table of built-in functions.
#include "engine/check/functions.h"

namespace capops::check {

const std::vector<FunctionInfo>& AllFunctions() {
  static const std::vector<FunctionInfo> kFunctions = {
      {"size", FunctionId::kSize, true, true, 1, "size(list | map | string) -> int"},
      {"contains", FunctionId::kContains, false, true, 2, "string.contains(string) -> bool"},
      {"startsWith", FunctionId::kStartsWith, false, true, 2, "string.startsWith(string) -> bool"},
      {"endsWith", FunctionId::kEndsWith, false, true, 2, "string.endsWith(string) -> bool"},
      {"matches", FunctionId::kMatches, true, true, 2, "string.matches(regex) -> bool"},
      {"lowerAscii", FunctionId::kLowerAscii, false, true, 1, "string.lowerAscii() -> string"},
      {"upperAscii", FunctionId::kUpperAscii, false, true, 1, "string.upperAscii() -> string"},
      {"join", FunctionId::kJoin, false, true, 2, "list.join(separator) -> string"},
      {"sum", FunctionId::kSum, true, true, 1, "sum(list) -> number | duration | quantity"},
      {"count", FunctionId::kCount, true, true, 1, "count(list) -> int"},
      {"min", FunctionId::kMin, true, true, 1, "min(list) -> element"},
      {"max", FunctionId::kMax, true, true, 1, "max(list) -> element"},
      {"int", FunctionId::kInt, true, false, 1, "int(number | string) -> int"},
      {"double", FunctionId::kDouble, true, false, 1, "double(number | string) -> double"},
      {"string", FunctionId::kString, true, false, 1, "string(value) -> string"},
  };
  return kFunctions;
}

const FunctionInfo* FindFunction(std::string_view name, bool as_method) {
  for (const FunctionInfo& f : AllFunctions()) {
    if (f.name == name && (as_method ? f.method : f.global)) return &f;
  }
  return nullptr;
}

}  // namespace capops::check
