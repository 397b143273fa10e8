// Value: the engine's one representation of data, for facts and results.
//
// A Value is a small handle: scalars are held inline, strings, lists and maps
// are shared immutable heap data, so copying a Value never copies a tree.
// Values read from YAML carry the location of their text; computed values
// have none. A list whose items are all maps with a string `id` is *keyed*:
// FindById() looks an item up in O(1).
//
// Errors are values too (kind kError), as in CEL: evaluation carries them
// through `&&`, `||` and the macros, and the evaluator reports them with the
// rule that produced them instead of treating them as false.
//
//   Value pools = Value::List({pool_a, pool_b});      // keyed if both have ids
//   const Value* p = pools.FindById("train-eu");
//   std::string s = Value::Int(4).ToString();         // "4"
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/common/source.h"
#include "engine/common/units.h"

namespace capops {

enum class ValueKind : uint8_t {
  kNull,
  kBool,
  kInt,
  kDouble,
  kString,
  kDate,      // days since 1970-01-01
  kDuration,  // seconds
  kQuantity,  // amount in base units + dimension
  kList,
  kMap,
  kError,
};

/// A user-facing name of a kind: "int", "string", "list", "bytes" …
const char* KindName(ValueKind kind);

class Value;
using MapEntries = std::vector<std::pair<std::string, Value>>;

class Value {
 public:
  Value() = default;  // null

  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Int(int64_t i);
  static Value Double(double d);
  static Value String(std::string s);
  static Value Date(int64_t days);
  static Value Duration(int64_t seconds);
  static Value Quantity(capops::Quantity q);
  /// Indexes the items by `id` when every item is a map with a string `id`
  /// and no id repeats.
  static Value List(std::vector<Value> items);
  /// Keys keep their order; a repeated key keeps its first value.
  static Value Map(MapEntries entries);
  /// An evaluation error; `fact` is where in the facts it arose, if anywhere.
  static Value Error(std::string message, SourceLoc fact = {});

  ValueKind kind() const { return kind_; }
  bool is(ValueKind k) const { return kind_ == k; }
  bool is_error() const { return kind_ == ValueKind::kError; }
  /// Where the value was read from; invalid for computed values.
  const SourceLoc& loc() const { return loc_; }
  Value& set_loc(SourceLoc loc) {
    loc_ = loc;
    return *this;
  }

  bool bool_value() const { return scalar_.b; }
  int64_t int_value() const { return scalar_.i; }  // also days and seconds
  double double_value() const { return scalar_.d; }
  capops::Quantity quantity_value() const { return {scalar_.i, dimension_}; }
  const std::string& string_value() const;  // kString and kError (the message)
  const std::vector<Value>& items() const;  // kList
  const MapEntries& entries() const;        // kMap

  /// Map field by name, or nullptr.
  const Value* Field(std::string_view name) const;
  /// Keyed list item by id, or nullptr (also for a list that is not keyed).
  const Value* FindById(std::string_view id) const;
  bool keyed() const;
  /// The `id` of a map, or "".
  std::string_view Id() const;

  /// Text for messages: strings bare, quantities with units, lists as [a, b].
  std::string ToString() const;
  /// Like ToString, but strings quoted (for evidence and traces).
  std::string ToLiteral() const;
  /// At most `max_chars` (> 3) of it, cut with "..." and without rendering
  /// the rest, so a list of 100k facts costs no more than a short one.
  std::string ToLiteral(size_t max_chars) const;

  /// Same identity means same value (not conversely): the shared heap
  /// object of a string, list or map, else the kind and the bits. Valid
  /// while the value lives.
  std::pair<uint64_t, uint64_t> Identity() const {
    if (heap_) return {static_cast<uint64_t>(kind_), reinterpret_cast<uintptr_t>(heap_.get())};
    return {static_cast<uint64_t>(kind_) | static_cast<uint64_t>(dimension_) << 8, static_cast<uint64_t>(scalar_.i)};
  }

  /// Structural equality across kinds of the same family (int == double
  /// compares numerically); locations are ignored.
  friend bool operator==(const Value& a, const Value& b);

 private:
  struct ListData;
  struct MapData;

  ValueKind kind_ = ValueKind::kNull;
  Dimension dimension_ = Dimension::kBytes;
  SourceLoc loc_;
  union Scalar {
    bool b;
    int64_t i;
    double d;
  } scalar_{.i = 0};
  std::shared_ptr<const void> heap_;  // std::string, ListData or MapData
};

}  // namespace capops
