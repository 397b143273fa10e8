// SPDX-License-Identifier: Apache-2.0
// Schema: the types of facts and expressions, shared by check and facts.
//
// The schema is written in CPL (`record`, `document`, `enum` declarations in
// stdlib/) and built by the checker into a TypeTable; the fact validator
// (engine/facts) checks YAML values against it, and the type checker checks
// rules against it. Types are interned: a TypeId names one type for the life
// of the table, so comparing types is comparing ids.
//
//   TypeTable t;
//   TypeId pools = t.List(t.Record(pool_record));
//   t.Name(pools)                          // "list<Pool>"
//   t.Get(pools).elem == t.Record(pool_record)
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/common/source.h"
#include "engine/common/units.h"
#include "engine/common/value.h"

namespace capops {

using TypeId = uint32_t;

enum class TypeKind : uint8_t {
  kAny,    // unknown statically (dyn); checked at run time
  kError,  // the type of an expression that already failed to check
  kNull,
  kBool,
  kInt,
  kDouble,
  kString,
  kDate,
  kDuration,
  kBytes,      // quantity of dimension bytes
  kBandwidth,  // quantity of dimension bytes/s
  kEnum,
  kRef,  // the id of a record kept in a keyed list
  kRecord,
  kList,  // also sets: a set is a list without repeats
  kMap,
  kTimeline,  // a step function of an amount over time, made of items
  kOptional,  // `a.?b`: a value or none; only expressions have it, no schema field
};

struct Type {
  TypeKind kind = TypeKind::kAny;
  TypeId elem = 0;      // kList: element; kMap: value; kTimeline: item; kOptional: the value's type
  TypeId key = 0;       // kMap: key (string or an enum); kTimeline: amount
  uint32_t index = 0;   // kEnum, kRecord, kRef: enum or record index
  bool is_set = false;  // kList written as set<T>
};

struct EnumDef {
  std::string name;
  std::vector<std::string> members;  // as CPL writes them: `production_replacement`
  Span span;

  /// The member's YAML spelling: `production_replacement` → "production-replacement".
  static std::string FactSpelling(std::string_view member);
  /// Index of a member given its YAML spelling, or -1. `_` and `-` are
  /// interchangeable, so keys written like fields (`completion_window`) match.
  int FindFact(std::string_view spelling) const;
};

/// The values a number field allows, `in 0.0..1.0`: both bounds included,
/// a null bound open (`in 1..`). Bounds are ints for an `int` field and
/// doubles for a `double` one.
struct NumberRange {
  Value low, high;

  /// True when either side is bounded.
  bool bounded() const { return !low.is(ValueKind::kNull) || !high.is(ValueKind::kNull); }
  /// Whether the number `v` (an int or a double) lies within; other values do.
  bool Holds(const Value& v) const;
  /// As CPL writes it: "0.0..1.0", "1..", "..100".
  std::string Text() const;
  /// For people, after a noun ("a value …"): "from 0.0 to 1.0", "of at
  /// least 1", "of at most 100".
  std::string Phrase() const;
};

/// A value as its text, a double always showing it is one: `1.0`, not `1`.
std::string NumberText(const Value& v);

struct FieldDef {
  std::string name;
  Key key;  // `name` as a map key (set with it)
  TypeId type = 0;
  bool optional = false;  // may be absent (written `name?: T`)
  bool has_default = false;
  Value default_value;  // filled in when absent, if has_default
  NumberRange range;    // `name: int in 1..`; unbounded when not written
  Span span;
};

struct RecordDef {
  /// Records the language makes itself rather than the schema declares.
  enum class Builtin : uint8_t { kNone, kInterval, kSegment };

  std::string name;
  std::vector<FieldDef> fields;
  bool is_document = false;  // a top-level `kind`
  Builtin builtin = Builtin::kNone;
  Span span;

  const FieldDef* Find(std::string_view field) const;
  /// The same by interned key: an address compared per field, not a text.
  const FieldDef* FindKey(Key field) const;
  /// True when the record has a required string `id`: lists of it are keyed.
  bool keyed() const;
};

class TypeTable {
 public:
  TypeTable();

  TypeId Any() const { return 0; }
  TypeId Error() const { return 1; }
  TypeId Primitive(TypeKind kind);  // kNull … kBandwidth
  TypeId List(TypeId elem, bool is_set = false);
  TypeId Map(TypeId key, TypeId value);
  TypeId Enum(uint32_t index);
  TypeId Record(uint32_t index);
  TypeId Ref(uint32_t record_index);
  /// A timeline of `amount` made of items of type `item`.
  TypeId Timeline(TypeId item, TypeId amount);
  /// The built-in record `Interval {start?: date, end?: date}`: a span of
  /// time from `start` (inclusive) to `end` (exclusive), open where absent.
  TypeId Interval();
  /// The record of one step or stretch of a timeline: `{window: Interval,
  /// amount, items: list<item>, worst: Interval}`, named
  /// "Segment<item, amount>".
  TypeId Segment(TypeId timeline);
  TypeId Optional(TypeId value);
  /// The type of a quantity of dimension `d`.
  TypeId Quantity(Dimension d) {
    return Primitive(d == Dimension::kBytes ? TypeKind::kBytes : TypeKind::kBandwidth);
  }

  const Type& Get(TypeId id) const { return types_[id]; }
  TypeKind KindOf(TypeId id) const { return types_[id].kind; }
  /// As a user writes it: "int", "list<Pool>", "ref Pool", "map<string, bytes>",
  /// "optional<int>".
  std::string Name(TypeId id) const;
  /// A field's type as it is declared, with its range: "int in 1..", "list<Pool>".
  std::string DeclaredType(const FieldDef& field) const;

  std::vector<EnumDef> enums;
  std::vector<RecordDef> records;
  std::map<std::string, uint32_t, std::less<>> record_by_name;
  std::map<std::string, uint32_t, std::less<>> enum_by_name;

  /// The document record named `kind`, or nullptr.
  const RecordDef* Document(std::string_view kind) const;
  /// The fields of `holder` that are lists of records of index `record`: where
  /// a record of that kind is written, and a reference to one is looked up.
  std::vector<const FieldDef*> ListsOf(const RecordDef& holder, uint32_t record) const;

 private:
  TypeId Intern(const Type& t);
  TypeId Indexed(TypeKind kind, uint32_t index);
  TypeId BuiltinRecord(const std::string& name, RecordDef::Builtin builtin,
                       std::vector<FieldDef> fields);
  std::vector<Type> types_;
};

}  // namespace capops
