// SPDX-License-Identifier: Apache-2.0
// Plain-scalar typing for the YAML loader and for validation (TypePlainScalar).
#include "engine/facts/scalar.h"

#include <charconv>
#include <cstdint>
#include <limits>
#include <system_error>

namespace capops::facts {

namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}
bool IsHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsOctalDigit(char c) {
  return c >= '0' && c <= '7';
}

// Length of the run of characters from `i` that satisfy `pred`.
template <typename Pred>
size_t Run(std::string_view text, size_t i, Pred pred) {
  size_t start = i;
  while (i < text.size() && pred(text[i])) ++i;
  return i - start;
}

std::string_view StripSign(std::string_view text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  return text;
}

bool IsDecimalInt(std::string_view text) {
  std::string_view digits = StripSign(text);
  return !digits.empty() && Run(digits, 0, IsDigit) == digits.size();
}

// YAML 1.2 core float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool IsDecimalFloat(std::string_view text) {
  std::string_view s = StripSign(text);
  size_t i = Run(s, 0, IsDigit);
  bool has_int = i > 0;
  if (i < s.size() && s[i] == '.') {
    size_t frac = Run(s, i + 1, IsDigit);
    if (!has_int && frac == 0) return false;
    i += 1 + frac;
  } else if (!has_int) {
    return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    size_t exp = Run(s, i, IsDigit);
    if (exp == 0) return false;
    i += exp;
  }
  return i == s.size();
}

bool IsTrue(std::string_view t) {
  return t == "true" || t == "True" || t == "TRUE";
}
bool IsFalse(std::string_view t) {
  return t == "false" || t == "False" || t == "FALSE";
}

// `.inf`, `-.inf`, `.nan` in the spellings YAML 1.2 allows.
bool SpecialFloat(std::string_view text, double* out) {
  std::string_view s = StripSign(text);
  bool negative = !text.empty() && text[0] == '-';
  if (s == ".inf" || s == ".Inf" || s == ".INF") {
    *out = negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
    return true;
  }
  if (s.size() == text.size() && (s == ".nan" || s == ".NaN" || s == ".NAN")) {
    *out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  return false;
}

// `digits` (no sign, no prefix) in `base`; false when it does not fit an int64.
bool ParseInt(std::string_view digits, bool negative, int base, int64_t* out) {
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return false;
  uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + (negative ? 1 : 0);
  if (magnitude > limit) return false;
  // Two's-complement negation in unsigned arithmetic: INT64_MIN has no positive twin.
  *out = static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
  return true;
}

Value OutOfRange(std::string_view text, const char* what, std::string* error) {
  *error = std::string(what) + " `" + std::string(text) + "` is out of range";
  return Value::String(std::string(text));
}

// Ints and doubles; false if `text` has the shape of neither.
bool TypeNumber(std::string_view text, Value* out, std::string* error) {
  if (IsDecimalInt(text)) {
    int64_t i = 0;
    *out = ParseInt(StripSign(text), text[0] == '-', 10, &i) ? Value::Int(i)
                                                             : OutOfRange(text, "integer", error);
    return true;
  }
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'o')) {
    bool hex = text[1] == 'x';
    std::string_view digits = text.substr(2);
    if (Run(digits, 0, hex ? IsHexDigit : IsOctalDigit) != digits.size()) return false;
    int64_t i = 0;
    *out = ParseInt(digits, false, hex ? 16 : 8, &i) ? Value::Int(i)
                                                     : OutOfRange(text, "integer", error);
    return true;
  }
  double d = 0;
  if (SpecialFloat(text, &d)) {
    *out = Value::Double(d);
    return true;
  }
  if (!IsDecimalFloat(text)) return false;
  // from_chars is locale-independent but rejects a leading '+'.
  std::string_view unsigned_text = text[0] == '+' ? text.substr(1) : text;
  auto [ptr, ec] =
      std::from_chars(unsigned_text.data(), unsigned_text.data() + unsigned_text.size(), d);
  // Overflow (`1e400`) and underflow (`1e-400`) both report out of range.
  *out = ec == std::errc() ? Value::Double(d) : OutOfRange(text, "number", error);
  return true;
}

}  // namespace

Value TypePlainScalar(std::string_view text, std::string* error) {
  if (IsNullText(text)) return Value::Null();
  if (IsTrue(text)) return Value::Bool(true);
  if (IsFalse(text)) return Value::Bool(false);
  Value number;
  if (TypeNumber(text, &number, error)) return number;
  if (LooksLikeDate(text)) {
    DateTime t;
    if (ParseDateTime(text, &t, error)) return Value::Date(t);
    return Value::String(std::string(text));
  }
  int64_t seconds = 0;
  if (ParseDuration(text, &seconds)) return Value::Duration(seconds);
  Quantity quantity;
  if (ParseQuantity(text, &quantity)) return Value::Quantity(quantity);
  return Value::String(std::string(text));
}

bool IsNullText(std::string_view t) {
  return t.empty() || t == "~" || t == "null" || t == "Null" || t == "NULL";
}

Value ScalarValue(std::string_view text, bool plain, bool keep_text, std::string* error) {
  if (!plain) return Value::String(text);
  if (!keep_text) return TypePlainScalar(text, error);
  return IsNullText(text) ? Value::Null() : Value::PlainText(text);
}

}  // namespace capops::facts
