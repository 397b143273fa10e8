// SPDX-License-Identifier: Apache-2.0
// Built-in functions: CEL's string functions, conversions, CPL's aggregates,
// and regular expressions (plan::Regex: RE2, linear time, no catastrophic
// backtracking on hostile patterns or input). Each charges the budget with
// the work its operands' lengths cause and with the values it builds,
// before doing either.
#include <cmath>
#include <memory>

#include "engine/eval/builtins.h"
#include "engine/eval/evaluator.h"
#include "engine/eval/operators.h"
#include "engine/eval/optional.h"
#include "engine/eval/timeline.h"

namespace capops::eval {

namespace {

using check::FunctionId;

Value NeedString(const char* fn, const Value& v) {
  return Value::Error("`" + std::string(fn) + "` needs a string, not " + DescribeKind(v));
}

// `n * each`, at most UINT64_MAX.
uint64_t Times(uint64_t n, uint64_t each) {
  return n != 0 && each > UINT64_MAX / n ? UINT64_MAX : n * each;
}

// A pattern computed at run time may use less memory than one written in a
// policy: an evaluation holds up to PatternCache::kMaxPatterns of them.
constexpr size_t kRuntimePatternMemory = 1 << 20;
// Compiling a pattern costs about this many steps, and kCompileStepsPerByte
// for each byte of it.
constexpr uint64_t kCompileSteps = 256;
constexpr uint64_t kCompileStepsPerByte = 8;
// Bytes of text times instructions of the pattern's program matched in a step.
constexpr uint64_t kMatchPerStep = 16;

Value Size(const Value& v, Budget* budget) {
  if (v.is(ValueKind::kList)) return Value::Int(static_cast<int64_t>(v.items().size()));
  if (v.is(ValueKind::kMap)) return Value::Int(static_cast<int64_t>(v.entries().size()));
  if (v.is(ValueKind::kString)) {
    if (!budget->Scan(v.string_value().size())) return budget->Error();
    int64_t n = 0;
    for (char c : v.string_value()) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return Value::Int(n);
  }
  return Value::Error("`size` needs a list, map or string, not " + DescribeKind(v));
}

// Whether `text` holds `needle`, in time linear in both whatever they hold
// (std::string_view::find may compare the needle at every position: a
// needle of a million `a`s and a `b` in a text of `a`s). Short needles,
// the usual case, take find's fast path.
bool Holds(std::string_view text, std::string_view needle) {
  constexpr size_t kShortNeedle = 16;
  if (needle.size() <= kShortNeedle) return text.find(needle) != std::string_view::npos;
  if (needle.size() > text.size()) return false;
  // Knuth–Morris–Pratt: border[i] is the longest proper border of needle[0..i].
  std::vector<uint32_t> border(needle.size(), 0);
  for (size_t i = 1, k = 0; i < needle.size(); ++i) {
    while (k > 0 && needle[i] != needle[k]) k = border[k - 1];
    if (needle[i] == needle[k]) ++k;
    border[i] = static_cast<uint32_t>(k);
  }
  for (size_t i = 0, k = 0; i < text.size(); ++i) {
    while (k > 0 && text[i] != needle[k]) k = border[k - 1];
    if (text[i] == needle[k]) ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

Value StringTest(FunctionId id, const Value& s, const Value& t, Budget* budget) {
  const char* name = id == FunctionId::kContains     ? "contains"
                     : id == FunctionId::kStartsWith ? "startsWith"
                                                     : "endsWith";
  if (!s.is(ValueKind::kString)) return NeedString(name, s);
  if (!t.is(ValueKind::kString)) return NeedString(name, t);
  std::string_view a = s.string_value();
  std::string_view b = t.string_value();
  // A short needle's search may compare it at each place; a long one's
  // reads the text once and the needle twice, a few instructions a byte.
  uint64_t work = id != FunctionId::kContains ? b.size()
                  : b.size() <= 16            ? Times(a.size(), b.size() + 1)
                                              : 4 * (uint64_t{a.size()} + 2 * uint64_t{b.size()});
  if (!budget->Scan(work)) return budget->Error();
  bool r = id == FunctionId::kContains ? Holds(a, b)
           : id == FunctionId::kStartsWith
               ? a.compare(0, b.size(), b) == 0
               : a.size() >= b.size() && a.compare(a.size() - b.size(), b.size(), b) == 0;
  return Value::Bool(r);
}

// Matching may cost, per byte of text, a few instructions for each
// instruction of the pattern's program (when RE2's DFA runs out of memory
// and it falls back to its NFA): charged so before it runs.
Value Matches(const Value& s, const Value& pattern, const BuiltinContext& context) {
  if (!s.is(ValueKind::kString)) return NeedString("matches", s);
  if (!pattern.is(ValueKind::kString)) return NeedString("matches", pattern);
  const plan::Regex* re = context.literal;
  if (re == nullptr) {
    std::string error;
    re = context.patterns->Find(pattern.string_value(), context.budget, &error);
    if (re == nullptr) return error.empty() ? context.budget->Error() : Value::Error(error);
  }
  uint64_t steps = Times(s.string_value().size() + 1, re->program_size() + 1) / kMatchPerStep;
  if (!context.budget->Steps(steps)) return context.budget->Error();
  return Value::Bool(re->PartialMatch(s.string_value()));
}

Value ChangeCase(const Value& s, bool upper, Budget* budget) {
  if (!s.is(ValueKind::kString)) return NeedString(upper ? "upperAscii" : "lowerAscii", s);
  if (!budget->Allocate(StringBytes(s.string_value().size()))) return budget->Error();
  std::string out(s.string_value());
  for (char& c : out) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return Value::String(std::move(out));
}

// The first `limit` items (all when null), then " and N more" for the
// rest. The text's length is known (strings) or bounded (Extent) before it
// is built.
Value Join(const Value& list, const Value& separator, const Value& limit, Budget* budget) {
  if (!list.is(ValueKind::kList))
    return Value::Error("`join` needs a list, not " + DescribeKind(list));
  if (!separator.is(ValueKind::kString)) return NeedString("join", separator);
  if (!limit.is(ValueKind::kNull) && (!limit.is(ValueKind::kInt) || limit.int_value() < 0))
    return Value::Error("the limit of `join` must be an int of 0 or more, not " +
                        limit.ToLiteral(40));
  ListView all = list.items();
  size_t shown = limit.is(ValueKind::kNull)
                     ? all.size()
                     : std::min<uint64_t>(all.size(), uint64_t(limit.int_value()));
  std::string more = shown < all.size()
                         ? (shown > 0 ? " and " : "") + std::to_string(all.size() - shown) + " more"
                         : "";
  uint64_t size = Times(shown == 0 ? 0 : shown - 1, separator.string_value().size()) + more.size();
  for (size_t i = 0; i < shown; ++i) {
    if (size > budget->bytes_left()) break;
    size += all[i].is(ValueKind::kString) ? all[i].string_value().size()
                                          : Extent(all[i], budget->bytes_left() - size);
  }
  if (!budget->Allocate(StringBytes(size))) return budget->Error();
  std::string out;
  out.reserve(size);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += separator.string_value();
    if (all[i].is(ValueKind::kString)) {
      out += all[i].string_value();
    } else {
      out += all[i].ToString();
    }
  }
  return Value::String(out + more);
}

Value Sum(const Value& list, Budget* budget) {
  if (!list.is(ValueKind::kList))
    return Value::Error("`sum` needs a list, not " + DescribeKind(list));
  if (!budget->Scan(ListBytes(list.items().size()))) return budget->Error();
  if (list.items().empty()) return Value::Int(0);
  Value total = list.items()[0];
  if (!(total.is(ValueKind::kInt) || total.is(ValueKind::kDouble) ||
        total.is(ValueKind::kDuration) || total.is(ValueKind::kQuantity))) {
    return Value::Error("`sum` needs numbers, durations or quantities, not " + DescribeKind(total));
  }
  for (size_t i = 1; i < list.items().size() && !total.is_error(); ++i) {
    total = ApplyBinary(syntax::BinaryOp::kAdd, total, list.items()[i], budget);
  }
  return total;
}

Value Extreme(const Value& list, bool want_max, Budget* budget) {
  const char* name = want_max ? "max" : "min";
  if (!list.is(ValueKind::kList))
    return Value::Error("`" + std::string(name) + "` needs a list, not " + DescribeKind(list));
  if (!budget->Scan(ListBytes(list.items().size()))) return budget->Error();
  if (list.items().empty()) return Value::Error("`" + std::string(name) + "` of an empty list");
  const Value* best = &list.items()[0];
  for (const Value& v : list.items()) {
    int order = 0;
    std::string error;
    if (!ChargeEquality(v, *best, budget)) return budget->Error();  // strings: as long to order
    if (!Compare(v, *best, &order, &error)) return Value::Error(error);
    if (want_max ? order > 0 : order < 0) best = &v;
  }
  return *best;
}

Value ToInt(const Value& v, Budget* budget) {
  if (v.is(ValueKind::kInt)) return v;
  if (v.is(ValueKind::kDouble)) {
    double d = std::trunc(v.double_value());
    if (!(d >= -9.2e18 && d <= 9.2e18))
      return Value::Error("`int` of " + v.ToString() + " is out of range");
    return Value::Int(static_cast<int64_t>(d));
  }
  if (v.is(ValueKind::kDuration) || v.is(ValueKind::kQuantity)) return Value::Int(v.int_value());
  if (v.is(ValueKind::kString)) {
    if (!budget->Scan(v.string_value().size())) return budget->Error();
    std::string s(v.string_value());
    char* end = nullptr;
    errno = 0;
    long long n = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno == ERANGE)
      return Value::Error("`int` cannot read `" + Shown(s) + "`");
    return Value::Int(n);
  }
  return Value::Error("`int` cannot convert " + DescribeKind(v));
}

Value ToDouble(const Value& v, Budget* budget) {
  if (v.is(ValueKind::kDouble)) return v;
  if (v.is(ValueKind::kInt)) return Value::Double(static_cast<double>(v.int_value()));
  if (v.is(ValueKind::kString)) {
    if (!budget->Scan(v.string_value().size())) return budget->Error();
    std::string s(v.string_value());
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') return Value::Error("`double` cannot read `" + Shown(s) + "`");
    return Value::Double(d);
  }
  return Value::Error("`double` cannot convert " + DescribeKind(v));
}

Value ToText(const Value& v, Budget* budget) {
  std::string text;
  if (!Render(v, budget, &text)) return budget->Error();
  return Value::String(std::move(text));
}

std::string InvalidPattern(std::string_view pattern, const std::string& why) {
  return "invalid regular expression `" + Shown(pattern) + "`: " + why;
}

}  // namespace

std::string CheckRegex(const std::string& pattern) {
  std::string error;
  if (plan::Regex::Compile(pattern, &error) == nullptr) return InvalidPattern(pattern, error);
  return "";
}

const plan::Regex* PatternCache::Find(std::string_view pattern, Budget* budget,
                                      std::string* error) {
  auto it = compiled_.find(pattern);
  if (it == compiled_.end()) {
    if (!budget->Steps(kCompileSteps) ||
        !budget->Steps(Times(pattern.size(), kCompileStepsPerByte)))
      return nullptr;
    // Forgetting every pattern at once is safe here: no pointer into the
    // cache outlives the call that asked for it.
    if (compiled_.size() >= kMaxPatterns) compiled_.clear();
    Compiled c;
    c.regex = plan::Regex::Compile(pattern, &c.error, kRuntimePatternMemory);
    if (c.regex != nullptr &&
        !budget->Allocate(16 * uint64_t{c.regex->program_size()} + pattern.size())) {
      return nullptr;
    }
    it = compiled_.emplace(std::string(pattern), std::move(c)).first;
  }
  if (it->second.regex == nullptr) *error = InvalidPattern(pattern, it->second.error);
  return it->second.regex.get();
}

Value CallBuiltin(FunctionId id, const std::vector<Value>& args, const BuiltinContext& context) {
  Budget* budget = context.budget;
  switch (id) {
    case FunctionId::kSize:
      return Size(args[0], budget);
    case FunctionId::kContains:
      if (args[0].is(ValueKind::kMap)) return CallTimeBuiltin(id, args, budget);  // an interval's
      [[fallthrough]];
    case FunctionId::kStartsWith:
    case FunctionId::kEndsWith:
      return StringTest(id, args[0], args[1], budget);
    case FunctionId::kMatches:
      return Matches(args[0], args[1], context);
    case FunctionId::kLowerAscii:
      return ChangeCase(args[0], false, budget);
    case FunctionId::kUpperAscii:
      return ChangeCase(args[0], true, budget);
    case FunctionId::kJoin:
      return Join(args[0], args.size() > 1 ? args[1] : Value::String(""),
                  args.size() > 2 ? args[2] : Value(), budget);
    case FunctionId::kSum:
      return Sum(args[0], budget);
    case FunctionId::kCount:
      if (!args[0].is(ValueKind::kList))
        return Value::Error("`count` needs a list, not " + DescribeKind(args[0]));
      return Size(args[0], budget);
    case FunctionId::kMin:
      return Extreme(args[0], false, budget);
    case FunctionId::kMax:
      return Extreme(args[0], true, budget);
    case FunctionId::kInt:
      return ToInt(args[0], budget);
    case FunctionId::kDouble:
      return ToDouble(args[0], budget);
    case FunctionId::kString:
      return ToText(args[0], budget);
    case FunctionId::kOrValue:
    case FunctionId::kHasValue: {
      if (!IsOptional(args[0]))
        return Value::Error("`orValue` and `hasValue` need an optional, not " +
                            DescribeKind(args[0]));
      const Value* inner = OptionalValue(args[0]);
      if (id == FunctionId::kHasValue) return Value::Bool(inner != nullptr);
      return inner != nullptr ? *inner : args[1];
    }
    default:
      return CallTimeBuiltin(id, args, budget);
  }
}

}  // namespace capops::eval
