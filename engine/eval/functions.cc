// Built-in functions: CEL's string functions, conversions, CPL's aggregates,
// and regular expressions through RE2 (linear time: no catastrophic
// backtracking on hostile patterns or input).
#include <re2/re2.h>

#include <cmath>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "engine/eval/builtins.h"
#include "engine/eval/evaluator.h"
#include "engine/eval/operators.h"

namespace capops::eval {

namespace {

using check::FunctionId;

Value NeedString(const char* fn, const Value& v) {
  return Value::Error("`" + std::string(fn) + "` needs a string, not " + DescribeKind(v));
}

// Patterns are compiled once and shared; RE2 objects are thread-safe.
const re2::RE2* CompiledPattern(const std::string& pattern, std::string* error) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::unique_ptr<re2::RE2>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(pattern);
  if (it == cache.end()) {
    re2::RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(8 << 20);
    auto re = std::make_unique<re2::RE2>(pattern, options);
    if (cache.size() > 1024) cache.clear();
    it = cache.emplace(pattern, std::move(re)).first;
  }
  if (!it->second->ok()) {
    *error = "invalid regular expression `" + pattern + "`: " + it->second->error();
    return nullptr;
  }
  return it->second.get();
}

Value Size(const Value& v) {
  if (v.is(ValueKind::kList)) return Value::Int(static_cast<int64_t>(v.items().size()));
  if (v.is(ValueKind::kMap)) return Value::Int(static_cast<int64_t>(v.entries().size()));
  if (v.is(ValueKind::kString)) {
    int64_t n = 0;
    for (char c : v.string_value()) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return Value::Int(n);
  }
  return Value::Error("`size` needs a list, map or string, not " + DescribeKind(v));
}

Value StringTest(FunctionId id, const Value& s, const Value& t) {
  const char* name = id == FunctionId::kContains ? "contains"
                     : id == FunctionId::kStartsWith ? "startsWith"
                                                     : "endsWith";
  if (!s.is(ValueKind::kString)) return NeedString(name, s);
  if (!t.is(ValueKind::kString)) return NeedString(name, t);
  std::string_view a = s.string_value();
  std::string_view b = t.string_value();
  bool r = id == FunctionId::kContains ? a.find(b) != std::string::npos
           : id == FunctionId::kStartsWith ? a.compare(0, b.size(), b) == 0
                                           : a.size() >= b.size() && a.compare(a.size() - b.size(), b.size(), b) == 0;
  return Value::Bool(r);
}

Value Matches(const Value& s, const Value& pattern) {
  if (!s.is(ValueKind::kString)) return NeedString("matches", s);
  if (!pattern.is(ValueKind::kString)) return NeedString("matches", pattern);
  std::string error;
  const re2::RE2* re = CompiledPattern(std::string(pattern.string_value()), &error);
  if (re == nullptr) return Value::Error(error);
  return Value::Bool(re2::RE2::PartialMatch(s.string_value(), *re));
}

Value ChangeCase(const Value& s, bool upper) {
  if (!s.is(ValueKind::kString)) return NeedString(upper ? "upperAscii" : "lowerAscii", s);
  std::string out(s.string_value());
  for (char& c : out) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return Value::String(std::move(out));
}

Value Join(const Value& list, const Value& separator) {
  if (!list.is(ValueKind::kList)) return Value::Error("`join` needs a list, not " + DescribeKind(list));
  if (!separator.is(ValueKind::kString)) return NeedString("join", separator);
  std::string out;
  for (size_t i = 0; i < list.items().size(); ++i) {
    if (i > 0) out += separator.string_value();
    out += list.items()[i].ToString();
  }
  return Value::String(std::move(out));
}

Value Sum(const Value& list) {
  if (!list.is(ValueKind::kList)) return Value::Error("`sum` needs a list, not " + DescribeKind(list));
  if (list.items().empty()) return Value::Int(0);
  Value total = list.items()[0];
  if (!(total.is(ValueKind::kInt) || total.is(ValueKind::kDouble) || total.is(ValueKind::kDuration) ||
        total.is(ValueKind::kQuantity))) {
    return Value::Error("`sum` needs numbers, durations or quantities, not " + DescribeKind(total));
  }
  for (size_t i = 1; i < list.items().size() && !total.is_error(); ++i) {
    total = ApplyBinary(syntax::BinaryOp::kAdd, total, list.items()[i]);
  }
  return total;
}

Value Extreme(const Value& list, bool want_max) {
  const char* name = want_max ? "max" : "min";
  if (!list.is(ValueKind::kList)) return Value::Error("`" + std::string(name) + "` needs a list, not " + DescribeKind(list));
  if (list.items().empty()) return Value::Error("`" + std::string(name) + "` of an empty list");
  const Value* best = &list.items()[0];
  for (const Value& v : list.items()) {
    int order = 0;
    std::string error;
    if (!Compare(v, *best, &order, &error)) return Value::Error(error);
    if (want_max ? order > 0 : order < 0) best = &v;
  }
  return *best;
}

Value ToInt(const Value& v) {
  if (v.is(ValueKind::kInt)) return v;
  if (v.is(ValueKind::kDouble)) {
    double d = std::trunc(v.double_value());
    if (!(d >= -9.2e18 && d <= 9.2e18)) return Value::Error("`int` of " + v.ToString() + " is out of range");
    return Value::Int(static_cast<int64_t>(d));
  }
  if (v.is(ValueKind::kDuration) || v.is(ValueKind::kQuantity)) return Value::Int(v.int_value());
  if (v.is(ValueKind::kString)) {
    std::string s(v.string_value());
    char* end = nullptr;
    errno = 0;
    long long n = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno == ERANGE) return Value::Error("`int` cannot read `" + s + "`");
    return Value::Int(n);
  }
  return Value::Error("`int` cannot convert " + DescribeKind(v));
}

Value ToDouble(const Value& v) {
  if (v.is(ValueKind::kDouble)) return v;
  if (v.is(ValueKind::kInt)) return Value::Double(static_cast<double>(v.int_value()));
  if (v.is(ValueKind::kString)) {
    std::string s(v.string_value());
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') return Value::Error("`double` cannot read `" + s + "`");
    return Value::Double(d);
  }
  return Value::Error("`double` cannot convert " + DescribeKind(v));
}

}  // namespace

std::string CheckRegex(const std::string& pattern) {
  std::string error;
  CompiledPattern(pattern, &error);
  return error;
}

Value CallBuiltin(FunctionId id, const std::vector<Value>& args) {
  switch (id) {
    case FunctionId::kSize: return Size(args[0]);
    case FunctionId::kContains:
    case FunctionId::kStartsWith:
    case FunctionId::kEndsWith: return StringTest(id, args[0], args[1]);
    case FunctionId::kMatches: return Matches(args[0], args[1]);
    case FunctionId::kLowerAscii: return ChangeCase(args[0], false);
    case FunctionId::kUpperAscii: return ChangeCase(args[0], true);
    case FunctionId::kJoin: return Join(args[0], args[1]);
    case FunctionId::kSum: return Sum(args[0]);
    case FunctionId::kCount:
      if (!args[0].is(ValueKind::kList)) return Value::Error("`count` needs a list, not " + DescribeKind(args[0]));
      return Size(args[0]);
    case FunctionId::kMin: return Extreme(args[0], false);
    case FunctionId::kMax: return Extreme(args[0], true);
    case FunctionId::kInt: return ToInt(args[0]);
    case FunctionId::kDouble: return ToDouble(args[0]);
    case FunctionId::kString: return Value::String(args[0].ToString());
  }
  return Value::Error("unknown function");
}

}  // namespace capops::eval
