// SPDX-License-Identifier: Apache-2.0
// Schema validation of fact documents (ValidateDocument) and of references
// across them (CheckReferences).
//
// Both walk a located Value tree guided by its type in the TypeTable. The
// Validator rebuilds only what changes (maps given defaults, scalars
// normalized, and the collections above them, re-keyed) and shares every
// untouched subtree with its input, so a valid document costs one pass and
// few allocations; the RefChecker only reads, and skips every subtree whose
// type cannot hold a `ref`. Each recurses once per level of nesting,
// bounded by ValidateOptions::max_depth; the loader's own limit is lower.
#include "engine/facts/validate.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "engine/common/escape.h"
#include "engine/facts/interval.h"
#include "engine/facts/scalar.h"

namespace capops::facts {

namespace {

constexpr const char* kCode = "schema";
constexpr size_t kShownChars = 60;        // user text quoted in a message is cut here
constexpr size_t kMatchedPastCap = 1000;  // see Validator::UnknownField
constexpr size_t kListedIds = 5;          // ids in a "known ids" help (fields and members: all)
constexpr const char* kSizeUnits = "B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB";

// Counts problems and keeps at most `cap` of them; the rest become one
// "N more problems not shown" at the end.
class Reporter {
 public:
  Reporter(Diagnostics* diags, size_t cap) : diags_(diags), cap_(cap) {}

  /// The diagnostic to fill in; a scratch one, dropped, once the cap is reached.
  Diagnostic& Error(SourceLoc loc, std::string message) {
    if (full()) {
      ++hidden_;
      scratch_ = Diagnostic{};
      return scratch_;
    }
    ++shown_;
    Diagnostic& d = diags_->Error(loc, std::move(message));
    d.code = kCode;
    return d;
  }

  /// True once further problems are only counted: helps need not be computed.
  bool full() const { return shown_ >= cap_; }

  void Finish(SourceLoc loc) {
    if (hidden_ == 0) return;
    std::string message = std::to_string(hidden_) +
                          (hidden_ == 1 ? " more problem not shown" : " more problems not shown");
    diags_->Error(loc, std::move(message)).code = kCode;
  }

 private:
  Diagnostics* diags_;
  size_t cap_;
  size_t shown_ = 0;
  size_t hidden_ = 0;
  Diagnostic scratch_;
};

// User text for a message: cut when long, so a hostile value cannot flood the report.
std::string Shown(std::string_view text) {
  if (text.size() <= kShownChars) return std::string(text);
  size_t cut = kShownChars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

std::string Tick(std::string_view text) {
  return "`" + Shown(text) + "`";
}

// What was found instead: "string `four`", "`16.5`", "a list", "a mapping", "null".
std::string Got(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kString:
      return "string " + Tick(v.string_value());
    case ValueKind::kList:
      return "a list";
    case ValueKind::kMap:
      return "a mapping";
    case ValueKind::kNull:
      return "null";
    default:
      return Tick(NumberText(v));
  }
}

bool IsScalar(const Value& v) {
  return !v.is(ValueKind::kList) && !v.is(ValueKind::kMap) && !v.is(ValueKind::kNull);
}

// "`a`, `b`, `c`": every name, since a field or member left out of the list
// is one the user cannot find (a schema has tens of them, not thousands).
std::string ListNames(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += Tick(names[i]);
  }
  return out;
}

// The first `limit` of `total` ids, then "and N more": ids may be thousands.
std::string ListSome(const std::vector<std::string>& names, size_t limit, size_t total) {
  std::vector<std::string> shown(names.begin(), names.begin() + std::min(limit, names.size()));
  std::string out = ListNames(shown);
  if (total > shown.size()) out += " and " + std::to_string(total - shown.size()) + " more";
  return out;
}

// "did you mean `x`? " when a candidate is close, else "".
std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates) {
  std::string closest = ClosestName(name, candidates);
  return closest.empty() ? "" : "did you mean " + Tick(closest) + "? ";
}

// Text shaped like a number, so a failed quantity was meant as one: `80Gb`, `5 GB`.
bool LooksNumeric(std::string_view text) {
  size_t i = !text.empty() && (text[0] == '+' || text[0] == '-' || text[0] == '.') ? 1 : 0;
  return i < text.size() && text[i] >= '0' && text[i] <= '9';
}

// The int a number stands for where an int is expected: an int, or a
// double with no fraction that fits 64 bits (`4.0`, `1e3`). JSON, and so
// JSON Schema's `integer`, makes no difference between `4.0` and `4`.
bool IntegralNumber(const Value& v, int64_t* out) {
  if (v.is(ValueKind::kInt)) {
    *out = v.int_value();
    return true;
  }
  if (!v.is(ValueKind::kDouble)) return false;
  double d = v.double_value();
  constexpr double kLimit = 9223372036854775808.0;  // 2^63
  if (!std::isfinite(d) || d != std::trunc(d) || d < -kLimit || d >= kLimit) return false;
  *out = static_cast<int64_t>(d);
  return true;
}

// The help for a quoted literal where its type is expected (`"2027-04-12"`
// where a date is): "" unless the text, unquoted, would be a `want` (an
// int also serves where a double is, a quantity only in dimension `dim`).
std::string QuotedHint(const Value& v, ValueKind want, const char* noun,
                       Dimension dim = Dimension::kBytes) {
  if (!v.is(ValueKind::kString)) return "";
  std::string error;
  Value typed = TypePlainScalar(v.string_value(), &error);
  int64_t integral = 0;
  bool fits = error.empty() &&
              (typed.is(want) || (want == ValueKind::kDouble && typed.is(ValueKind::kInt)) ||
               (want == ValueKind::kInt && IntegralNumber(typed, &integral)));
  if (fits && typed.is(ValueKind::kDouble)) fits = std::isfinite(typed.double_value());
  if (fits && typed.is(ValueKind::kQuantity)) fits = typed.quantity_value().dimension == dim;
  return fits ? std::string("quoted: remove the quotes to make it ") + noun : "";
}

// The help where a date is expected and `v` is not one: QuotedHint's, or,
// for a date and a time apart (`2027-04-20 09:00Z`), the same joined by `T`.
std::string DateHint(const Value& v) {
  std::string quoted = QuotedHint(v, ValueKind::kDate, "a date");
  if (!quoted.empty() || !v.is(ValueKind::kString)) return quoted;
  std::string text(v.string_value());
  DateTime t;
  std::string error;
  if (text.size() < 12 || text[10] != ' ') return "";
  text[10] = 'T';
  if (!ParseDateTime(text, &t, &error)) return "";
  return "write `T` between the date and the time: " + Tick(text);
}

// The value of `key` among `entries`, or nullptr.
const Value* Find(MapView entries, Key key) {
  for (const auto& entry : entries) {
    if (entry.first == key) return &entry.second;
  }
  return nullptr;
}

// The record's name for a message, with its id when it has one: "`Allocation` `a-train`".
std::string RecordName(const RecordDef& def, MapView fields) {
  std::string name = Tick(def.name);
  const Value* id = Find(fields, Key("id"));
  if (id != nullptr && IsScalar(*id)) name += " " + Tick(id->ToString());
  return name;
}

// Checks one document's values against their types and returns them
// normalized. Maps and lists that only the value given holds are taken apart
// (Value::TakeEntries) rather than copied, so a document being replaced by
// its validated form is not held twice.
class Validator {
 public:
  Validator(const TypeTable& schema, const ValidateOptions& options, Reporter* out,
            std::vector<uint32_t>* unlisted = nullptr)
      : schema_(schema), options_(options), out_(out), unlisted_(unlisted) {}

  Value Document(const RecordDef& def, Value root) { return Record(def, std::move(root), 0, true); }
  Value Of(TypeId type, const Value& v) { return Check(type, v, "", 0); }
  Value Untyped(Value root) { return ByText(std::move(root), 0); }

 private:
  Value Check(TypeId type, Value v, std::string_view field, size_t depth);
  Value TypeText(TypeKind kind, const Value& v);
  Value TypedByText(const Value& v);
  Value ByText(Value v, size_t depth);
  Value TooDeep(const Value& v);
  Value Record(const RecordDef& def, Value v, size_t depth, bool document);
  bool FillAbsent(const RecordDef& def, MapView given, SourceLoc loc,
                  const std::vector<const FieldDef*>& meant, MapEntries* out);
  const FieldDef* UnknownField(const RecordDef& def, const std::string& key, const Value& value,
                               bool document);
  SourceLoc KeyOf(const Value& value, SourceLoc fallback) const;
  Value List(const Type& t, Value v, std::string_view field, size_t depth);
  void Unique(const Value& item, bool keyed, std::string_view field,
              std::unordered_map<std::string, SourceLoc>* seen);
  Value Map(const Type& t, Value v, size_t depth);
  Value Scalar(TypeKind kind, const Value& v);
  Value Quantity(TypeKind kind, const Value& v);
  Value Enum(const EnumDef& def, const Value& v);
  void UnknownMember(const EnumDef& def, std::string_view text, SourceLoc loc, bool as_key);
  Value Text(const Type& t, const Value& v);
  void Consistent(const RecordDef& def, MapView fields);
  void InRange(const FieldDef& field, const Value& v);

  // A record's working vectors, one pair per depth (a record's fields are
  // checked one level down), kept for the next record at that depth: a
  // document's thousands of records reuse a few buffers.
  struct Buffers {
    MapEntries taken, entries;
  };
  Buffers& BuffersAt(size_t depth) {
    while (buffers_.size() <= depth) buffers_.emplace_back();
    return buffers_[depth];
  }

  // A new value in place of `original`, at its location. Counted, so that a
  // collection none of whose items changed is returned as it was, shared.
  Value Rebuilt(Value value, const Value& original) {
    return Rebuilt(std::move(value), original.loc());
  }
  Value Rebuilt(Value value, SourceLoc loc) {
    ++edits_;
    value.set_loc(loc);
    return value;
  }

  const TypeTable& schema_;
  const ValidateOptions& options_;
  Reporter* out_;
  std::vector<uint32_t>* unlisted_;  // may be null
  size_t unmatched_ = 0;             // unknown document keys seen past the cap
  size_t edits_ = 0;
  std::deque<Buffers> buffers_;  // by depth; a deque keeps references to them valid
  bool too_deep_ = false;
  std::vector<signed char> interval_;  // by record index: IsIntervalRecord, -1 not yet asked
};

// A tree deeper than the limit is not followed, so it cannot be typed: it
// is left out (null at its place), and the document is invalid anyway.
Value Validator::TooDeep(const Value& v) {
  if (!too_deep_) {
    out_->Error(v.loc(), "nesting deeper than " + std::to_string(options_.max_depth) + " levels");
  }
  too_deep_ = true;
  return Rebuilt(Value(), v);
}

// Every value given to Check comes back typed: a plain scalar's text
// (Value::PlainText) is typed for the type expected first, and a
// collection where none is expected, or where no one type is, is typed by
// its texts (ByText). So no PlainText outlives validation, whatever errors
// there are, and rules only ever see typed values.
Value Validator::Check(TypeId type, Value v, std::string_view field, size_t depth) {
  if (depth > options_.max_depth) return TooDeep(v);
  const Type& t = schema_.Get(type);
  if (v.plain()) v = TypeText(t.kind, v);
  // Where a scalar is expected, a collection is reported as it is, typed.
  bool composite =
      t.kind == TypeKind::kRecord || t.kind == TypeKind::kList || t.kind == TypeKind::kMap;
  if (!composite && (v.is(ValueKind::kList) || v.is(ValueKind::kMap)))
    v = ByText(std::move(v), depth);
  switch (t.kind) {
    case TypeKind::kAny:
    case TypeKind::kError:
    case TypeKind::kNull:
    case TypeKind::kTimeline:  // computed by rules, never a fact's type
    case TypeKind::kOptional:  // an expression's type, never a field's
      return ByText(std::move(v), depth);
    case TypeKind::kBool:
    case TypeKind::kInt:
    case TypeKind::kDouble:
    case TypeKind::kDate:
    case TypeKind::kDuration:
      return Scalar(t.kind, v);
    case TypeKind::kString:
    case TypeKind::kRef:
      return Text(t, v);
    case TypeKind::kBytes:
    case TypeKind::kBandwidth:
      return Quantity(t.kind, v);
    case TypeKind::kEnum:
      return Enum(schema_.enums[t.index], v);
    case TypeKind::kRecord:
      return Record(schema_.records[t.index], std::move(v), depth, false);
    case TypeKind::kList:
      return List(t, std::move(v), field, depth);
    case TypeKind::kMap:
      return Map(t, std::move(v), depth);
  }
  return v;
}

// A plain scalar's text where a `kind` is expected: the text as written
// where a string, a ref or an enum member is (`007` stays "007"), else the
// value it denotes (TypePlainScalar), which the checks of `kind` then judge
// as any other value (`007` is 7 where an int is).
Value Validator::TypeText(TypeKind kind, const Value& v) {
  if (kind == TypeKind::kString || kind == TypeKind::kRef || kind == TypeKind::kEnum) {
    Value text = v;
    return Rebuilt(std::move(text.set_plain(false)), v);
  }
  return TypedByText(v);
}

// A plain scalar's text typed by its shape alone (TypePlainScalar): a
// number out of range or an impossible date is reported as the loader of
// the tool's own files reports it, and kept as a string.
Value Validator::TypedByText(const Value& v) {
  std::string_view text = v.string_value();
  std::string error;
  Value typed = TypePlainScalar(text, &error);
  if (!error.empty()) {
    Diagnostic& d = out_->Error(v.loc(), std::move(error));
    d.code = "yaml";
    d.length = static_cast<uint32_t>(std::count_if(text.begin(), text.end(), [](char c) {
      return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
  }
  return Rebuilt(std::move(typed), v);
}

// A value where no one type is expected (`any`, or a collection already
// reported as the wrong shape): its plain scalars typed by their text
// alone, at any depth, and its collections rebuilt when one was.
Value Validator::ByText(Value v, size_t depth) {
  if (depth > options_.max_depth) return TooDeep(v);
  if (v.plain()) return TypedByText(v);
  size_t edits = edits_;
  if (v.is(ValueKind::kMap)) {
    MapEntries taken;
    bool owned = v.TakeEntries(&taken);
    MapView given = owned ? MapView(taken) : v.entries();
    MapEntries entries;
    entries.reserve(given.size());
    for (size_t i = 0; i < given.size(); ++i) {
      const auto& [key, value] = given[i];
      entries.emplace_back(key, ByText(owned ? std::move(taken[i].second) : value, depth + 1));
    }
    if (!owned && edits_ == edits) return v;
    return Rebuilt(Value::Map(std::move(entries)), v.loc());
  }
  if (v.is(ValueKind::kList)) {
    std::vector<Value> taken;
    bool owned = v.TakeItems(&taken);
    std::vector<Value> items;
    items.reserve(owned ? taken.size() : v.items().size());
    if (owned) {
      for (Value& item : taken) items.push_back(ByText(std::move(item), depth + 1));
    } else {
      for (const Value& item : v.items()) items.push_back(ByText(item, depth + 1));
    }
    if (!owned && edits_ == edits) return v;
    return Rebuilt(Value::List(std::move(items)), v.loc());
  }
  return v;
}

Value Validator::Record(const RecordDef& def, Value v, size_t depth, bool document) {
  if (!v.is(ValueKind::kMap)) {
    out_->Error(v.loc(), "expected a " + Tick(def.name) + " mapping, got " + Got(v));
    return ByText(std::move(v), depth);
  }
  size_t edits = edits_;
  bool dropped = false;
  Buffers& buffers = BuffersAt(depth);
  MapEntries& taken = buffers.taken;
  bool owned = v.TakeEntries(&taken);
  MapView given = owned ? MapView(taken) : v.entries();
  MapEntries& entries = buffers.entries;
  entries.clear();
  entries.reserve(given.size() + def.fields.size());
  std::vector<const FieldDef*> meant;  // fields that unknown keys were taken for
  for (size_t i = 0; i < given.size(); ++i) {
    const auto& [key, value] = given[i];
    const FieldDef* field = def.FindKey(key);
    if (field == nullptr && document && (key == "apiVersion" || key == "kind")) {
      entries.emplace_back(key, ByText(value, depth + 1));  // the loader checked them
    } else if (field == nullptr) {
      if (const FieldDef* guess = UnknownField(def, key, value, document)) meant.push_back(guess);
      dropped = true;
    } else if (value.is(ValueKind::kNull)) {
      // An explicit null is an absent value: FillAbsent gives it its default.
      if (!field->optional && !field->has_default) {
        out_->Error(value.loc(), "missing value for " + Tick(key)).help =
            "give " + Tick(key) + " a value of type " + Tick(schema_.Name(field->type));
      }
      dropped = true;
    } else {
      entries.emplace_back(
          key, Check(field->type, owned ? std::move(taken[i].second) : value, key, depth + 1));
      if (field->range.bounded()) InRange(*field, entries.back().second);
    }
  }
  bool filled = FillAbsent(def, given, v.loc(), meant, &entries);
  Consistent(def, entries);
  Value result = !owned && !dropped && !filled && edits_ == edits
                     ? v
                     : Rebuilt(Value::MapFrom(&entries), v.loc());
  entries.clear();
  taken.clear();  // the values given, moved from or still shared
  return result;
}

// Reports a number outside its field's range (`utilization_target: double
// in 0.0..1.0`); a value of another kind was reported by its type's check.
void Validator::InRange(const FieldDef& field, const Value& v) {
  if (field.range.Holds(v)) return;
  out_->Error(v.loc(), Tick(field.name) + " is " + Tick(NumberText(v)) + ", outside its range " +
                           Tick(field.range.Text()))
      .help = "give a value " + field.range.Phrase();
}

// Checks across the fields of a record whose fields are typed: the schema
// types fields one by one, so an interval that ends before it starts is
// caught here (see interval.h).
void Validator::Consistent(const RecordDef& def, MapView fields) {
  const RecordDef* first = schema_.records.data();
  if (std::less<>()(&def, first) || !std::less<>()(&def, first + schema_.records.size())) return;
  size_t index = static_cast<size_t>(&def - first);
  if (interval_.size() != schema_.records.size()) interval_.assign(schema_.records.size(), -1);
  if (interval_[index] < 0) interval_[index] = IsIntervalRecord(schema_, def) ? 1 : 0;
  if (interval_[index] == 0) return;
  for (IntervalProblem& problem : CheckInterval(fields)) {
    out_->Error(problem.loc, std::move(problem.message)).help = std::move(problem.help);
  }
}

// Adds the defaults of absent fields and reports the missing required ones;
// true if a default was added. `out` holds the fields given a value so far;
// `given` the record's keys as read (their values may have been moved).
// A required field that an unknown key was taken for (`demandz:` for
// `demands:`) is not reported again: that key's error says it.
bool Validator::FillAbsent(const RecordDef& def, MapView given, SourceLoc loc,
                           const std::vector<const FieldDef*>& meant, MapEntries* out) {
  bool filled = false;
  for (const FieldDef& field : def.fields) {
    if (Find(*out, field.key) != nullptr) continue;
    if (field.has_default) {
      Value value = field.default_value;
      value.set_loc(loc);
      out->emplace_back(field.name, std::move(value));
      filled = true;
    } else if (!field.optional && Find(given, field.key) == nullptr &&
               std::find(meant.begin(), meant.end(), &field) == meant.end()) {
      out_->Error(loc, "missing field " + Tick(field.name) + " in " + RecordName(def, *out)).help =
          "add " + Tick(field.name + ":") + " with a value of type " +
          Tick(schema_.Name(field.type));
    }
  }
  return filled;
}

// Map keys carry no location of their own: ValidateOptions::key_at finds
// the key from its value's place, else the value (or `fallback`, for a
// value without one) stands in for it.
SourceLoc Validator::KeyOf(const Value& value, SourceLoc fallback) const {
  SourceLoc at = value.loc().valid() ? value.loc() : fallback;
  if (!options_.key_at || !at.valid()) return at;
  SourceLoc key = options_.key_at(at);
  return key.valid() ? key : at;
}

// Reports a key that names no field of `def`; returns the field it was
// probably meant as, or nullptr. In a document, a key meant as a list of
// records also hides those records' ids: that is said here once, and
// CheckReferences is told (via `unlisted_`) not to report each reference.
const FieldDef* Validator::UnknownField(const RecordDef& def, const std::string& key,
                                        const Value& value, bool document) {
  SourceLoc at = KeyOf(value, SourceLoc{});
  Diagnostic& d = out_->Error(at, "unknown field " + Tick(key) + " in " + Tick(def.name));
  if (at != value.loc())
    d.length = static_cast<uint32_t>(CodePoints(key));  // the key, not its value
  // Past the cap only a document's keys are still matched (they may hide
  // ids), and only so many: a flood of keys costs no more than a few.
  if (out_->full() && (!document || ++unmatched_ >= kMatchedPastCap)) return nullptr;
  std::vector<std::string> names;
  for (const FieldDef& f : def.fields) names.push_back(f.name);
  std::string closest = ClosestName(key, names);
  const FieldDef* meant = closest.empty() ? nullptr : def.Find(closest);
  const Type* list = meant != nullptr ? &schema_.Get(meant->type) : nullptr;
  const Type* elem =
      list != nullptr && list->kind == TypeKind::kList ? &schema_.Get(list->elem) : nullptr;
  // An empty list (`allocation: []`) hid no ids.
  bool hides_ids = document && elem != nullptr && elem->kind == TypeKind::kRecord &&
                   !(value.is(ValueKind::kList) && value.items().empty());
  if (hides_ids && unlisted_ != nullptr) unlisted_->push_back(elem->index);
  if (out_->full()) return meant;
  if (meant == nullptr) {
    d.help = Tick(def.name) + " has fields " + ListNames(names);
  } else {
    d.help = "did you mean " + Tick(closest) + "?";
    if (hides_ids) {
      d.help += " references to " + Tick(schema_.records[elem->index].name) +
                " are not checked until this is fixed";
    }
  }
  return meant;
}

Value Validator::List(const Type& t, Value v, std::string_view field, size_t depth) {
  if (!v.is(ValueKind::kList)) {
    Diagnostic& d = out_->Error(v.loc(), "expected a list, got " + Got(v));
    if (IsScalar(v)) d.help = "write " + Tick("[" + v.ToString() + "]") + " for a list of one";
    return ByText(std::move(v), depth);
  }
  size_t edits = edits_;
  std::vector<Value> taken;
  bool owned = v.TakeItems(&taken);
  std::vector<Value> items;
  items.reserve(owned ? taken.size() : v.items().size());
  if (owned) {
    for (Value& item : taken) items.push_back(Check(t.elem, std::move(item), field, depth + 1));
  } else {
    for (const Value& item : v.items()) items.push_back(Check(t.elem, item, field, depth + 1));
  }
  Value result = !owned && edits_ == edits ? v : Rebuilt(Value::List(std::move(items)), v.loc());
  // Value::List keys a list whose ids are distinct: only an unkeyed one can repeat an id.
  const Type& elem = schema_.Get(t.elem);
  bool keyed = elem.kind == TypeKind::kRecord && schema_.records[elem.index].keyed();
  if (t.is_set || (keyed && !result.keyed())) {
    std::unordered_map<std::string, SourceLoc> seen;  // ids, or items of a set
    for (const Value& item : result.items()) Unique(item, keyed, field, &seen);
  }
  return result;
}

// Reports an item whose id (keyed list) or value (set) came before.
void Validator::Unique(const Value& item, bool keyed, std::string_view field,
                       std::unordered_map<std::string, SourceLoc>* seen) {
  const Value* id = keyed ? item.Field("id") : &item;
  if (id == nullptr || (keyed && !id->is(ValueKind::kString))) return;
  // A set's items are compared by kind and literal text: 1 and "1" differ.
  std::string key = keyed ? std::string(id->string_value())
                          : std::string(KindName(id->kind())) + ":" + id->ToLiteral();
  auto [first, inserted] = seen->try_emplace(std::move(key), id->loc());
  if (inserted) return;
  std::string text = id->ToString();
  std::string message = keyed ? "duplicate id " + Tick(text) + " in " + Tick(field)
                              : Tick(text) + " is listed twice in " + Tick(field);
  Diagnostic& d = out_->Error(id->loc(), std::move(message));
  d.related.push_back({first->second, "the first " + Tick(text) + " is here"});
}

Value Validator::Map(const Type& t, Value v, size_t depth) {
  if (!v.is(ValueKind::kMap)) {
    out_->Error(v.loc(), "expected a mapping, got " + Got(v));
    return ByText(std::move(v), depth);
  }
  const Type& key = schema_.Get(t.key);
  const EnumDef* members = key.kind == TypeKind::kEnum ? &schema_.enums[key.index] : nullptr;
  size_t edits = edits_;
  bool dropped = false;
  MapEntries taken;
  bool owned = v.TakeEntries(&taken);
  MapView given = owned ? MapView(taken) : v.entries();
  MapEntries entries;
  entries.reserve(given.size());
  std::vector<size_t> spelt;  // enum keys: the entry that gave each member, +1; 0 when none yet
  if (members != nullptr) spelt.assign(members->members.size(), 0);
  for (size_t i = 0; i < given.size(); ++i) {
    const auto& [name, value] = given[i];
    int member = members != nullptr ? members->FindFact(name) : 0;
    if (member < 0) {
      UnknownMember(*members, name, KeyOf(value, v.loc()), true);
      dropped = true;
      continue;
    }
    // `completion_window:` and `completion-window:` are one key to the
    // rules: the YAML reader saw two, so say it here, not keep both.
    if (members != nullptr && spelt[member] != 0) {
      const auto& first = given[spelt[member] - 1];
      Diagnostic& d = out_->Error(KeyOf(value, v.loc()), "duplicate key " + Tick(name));
      d.related.push_back({KeyOf(first.second, v.loc()),
                           "the same key is first written " + Tick(first.first) + " here"});
      d.help = "`_` and `-` are the same in a key; keep one of them";
      dropped = true;
      continue;
    }
    if (members != nullptr) spelt[member] = i + 1;
    // Enum keys are stored in their canonical spelling, as rules compare them.
    std::string key = members != nullptr ? EnumDef::FactSpelling(members->members[member]) : name;
    dropped = dropped || key != name;
    entries.emplace_back(
        std::move(key), Check(t.elem, owned ? std::move(taken[i].second) : value, name, depth + 1));
  }
  if (!owned && !dropped && edits_ == edits) return v;
  return Rebuilt(Value::Map(std::move(entries)), v.loc());
}

Value Validator::Scalar(TypeKind kind, const Value& v) {
  switch (kind) {
    case TypeKind::kInt: {
      int64_t n = 0;
      if (v.is(ValueKind::kInt)) return v;
      if (IntegralNumber(v, &n)) return Rebuilt(Value::Int(n), v);
      out_->Error(v.loc(), "expected an integer, got " + Got(v)).help =
          QuotedHint(v, ValueKind::kInt, "an integer");
      return v;
    }
    case TypeKind::kDouble:
      // YAML's `.nan` and `.inf` are numbers, but no rule can compare them
      // meaningfully: a NaN fails every `>` and `<` and so passes silently.
      if (v.is(ValueKind::kDouble) && !std::isfinite(v.double_value())) {
        double d = v.double_value();
        out_->Error(v.loc(), std::string("expected a finite number, got `") +
                                 (std::isnan(d) ? ".nan"
                                  : d < 0       ? "-.inf"
                                                : ".inf") +
                                 "`");
        return v;
      }
      if (v.is(ValueKind::kDouble)) return v;
      if (v.is(ValueKind::kInt)) {
        return Rebuilt(Value::Double(static_cast<double>(v.int_value())), v);
      }
      out_->Error(v.loc(), "expected a number, got " + Got(v)).help =
          QuotedHint(v, ValueKind::kDouble, "a number");
      return v;
    case TypeKind::kBool:
      if (!v.is(ValueKind::kBool)) {
        out_->Error(v.loc(), "expected `true` or `false`, got " + Got(v)).help =
            QuotedHint(v, ValueKind::kBool, "a boolean");
      }
      return v;
    case TypeKind::kDate:
      if (!v.is(ValueKind::kDate)) {
        out_->Error(v.loc(), "expected a date such as `2027-04-12`, got " + Got(v)).help =
            DateHint(v);
      }
      return v;
    default: {
      if (v.is(ValueKind::kDuration)) return v;
      Diagnostic& d =
          out_->Error(v.loc(), "expected a duration such as `8h` or `5d`, got " + Got(v));
      if (v.is(ValueKind::kInt)) {
        std::string n = v.ToString();
        d.help = "add a unit (w, d, h, m, s), e.g. " + Tick(n + "h") + " or " + Tick(n + "d");
      } else {
        d.help = QuotedHint(v, ValueKind::kDuration, "a duration");
      }
      return v;
    }
  }
}

Value Validator::Quantity(TypeKind kind, const Value& v) {
  bool bytes = kind == TypeKind::kBytes;
  Dimension want = bytes ? Dimension::kBytes : Dimension::kBytesPerSecond;
  std::string noun = bytes ? "a size" : "a bandwidth";
  std::string example = bytes ? "`80GiB`" : "`5GB/s`";
  if (v.is(ValueKind::kQuantity)) {
    Dimension got = v.quantity_value().dimension;
    if (got != want) {
      out_->Error(v.loc(), std::string("expected ") + DimensionName(want) + ", got " +
                               DimensionName(got) + " " + Tick(v.ToString()));
    }
    return v;
  }
  std::string text = v.ToString();
  if (v.is(ValueKind::kInt) || v.is(ValueKind::kDouble)) {
    out_->Error(v.loc(),
                Tick(NumberText(v)) + " has no unit; expected " + noun + " such as " + example);
  } else if (v.is(ValueKind::kString) && LooksNumeric(text)) {
    Diagnostic& d = out_->Error(v.loc(), Tick(text) + " is not " + noun);
    std::string squeezed = text;
    squeezed.erase(std::remove(squeezed.begin(), squeezed.end(), ' '), squeezed.end());
    capops::Quantity q;
    std::string quoted =
        QuotedHint(v, ValueKind::kQuantity, bytes ? "a size" : "a bandwidth", want);
    if (!quoted.empty()) {
      d.help = std::move(quoted);
    } else if (squeezed != text && ParseQuantity(squeezed, &q) && q.dimension == want) {
      d.help = "write it without spaces: " + Tick(squeezed);
    } else if (bytes) {
      d.help = std::string("units are ") + kSizeUnits;
    } else {
      d.help = std::string("units are ") + kSizeUnits + ", each followed by `/s`";
    }
  } else {
    out_->Error(v.loc(), "expected " + noun + " such as " + example + ", got " + Got(v));
  }
  return v;
}

Value Validator::Enum(const EnumDef& def, const Value& v) {
  if (!IsScalar(v)) {
    std::vector<std::string> spellings;
    for (const std::string& m : def.members) spellings.push_back(EnumDef::FactSpelling(m));
    out_->Error(v.loc(), "expected a " + def.name + ", got " + Got(v)).help =
        "expected one of " + ListNames(spellings);
    return v;
  }
  std::string text = v.ToString();
  int member = def.FindFact(text);
  if (member < 0) {
    UnknownMember(def, text, v.loc(), false);
    return v;
  }
  std::string canonical = EnumDef::FactSpelling(def.members[member]);
  return v.is(ValueKind::kString) && text == canonical ? v : Rebuilt(Value::String(canonical), v);
}

void Validator::UnknownMember(const EnumDef& def, std::string_view text, SourceLoc loc,
                              bool as_key) {
  std::string message =
      as_key ? "unknown key " + Tick(text) : "unknown " + def.name + " " + Tick(text);
  Diagnostic& d = out_->Error(loc, std::move(message));
  if (out_->full()) return;
  std::vector<std::string> spellings;
  for (const std::string& m : def.members) spellings.push_back(EnumDef::FactSpelling(m));
  std::string expected = as_key ? "keys are " + def.name + " values: " : "expected one of ";
  d.help = DidYouMean(text, spellings) + expected + ListNames(spellings);
}

// A string or a ref: a string, or a scalar read as one (`id: 8h`, `name: 2027`).
Value Validator::Text(const Type& t, const Value& v) {
  if (v.is(ValueKind::kString)) return v;
  if (IsScalar(v) && !v.is_error()) return Rebuilt(Value::String(v.ToString()), v);
  std::string expected = t.kind == TypeKind::kRef
                             ? "the id of a " + Tick(schema_.records[t.index].name)
                             : std::string("a string");
  out_->Error(v.loc(), "expected " + expected + ", got " + Got(v));
  return v;
}

// Where the records of one type are listed, across all roots.
struct Targets {
  bool held = false;      // some root's document declares a list of them
  bool reported = false;  // "no document holds…" was said
  std::vector<const Value*> keyed_lists;
  std::unordered_set<std::string_view> other_ids;  // from lists that are not keyed
  std::vector<std::string> candidates;             // for did-you-mean, filled on demand
  bool candidates_ready = false;
};

// Follows the schema under each root to every `ref` value and looks it up.
class RefChecker {
 public:
  RefChecker(const TypeTable& schema, const std::vector<ValidatedRoot>& roots,
             const ValidateOptions& options, Reporter* out);

  void Run();

 private:
  bool HasRef(TypeId type) const;
  void Walk(TypeId type, const Value& v, size_t depth);
  void WalkRecord(const RecordDef& def, const Value& v, size_t depth);
  void Check(uint32_t record, const Value& v);
  Targets& TargetsOf(uint32_t record);
  void Dangling(uint32_t record, Targets* targets, const Value& v);
  void Unheld(uint32_t record, Targets* targets, const Value& v);
  const std::vector<std::string>& Candidates(Targets* targets);
  static size_t IdCount(const Targets& targets);

  const TypeTable& schema_;
  const std::vector<ValidatedRoot>& roots_;
  const ValidateOptions& options_;
  Reporter* out_;
  std::vector<bool> record_has_ref_;
  std::vector<bool> unlisted_;  // by record: some root's list of them was misspelt
  std::unordered_map<uint32_t, Targets> targets_;
  size_t dangling_ = 0;
};

RefChecker::RefChecker(const TypeTable& schema, const std::vector<ValidatedRoot>& roots,
                       const ValidateOptions& options, Reporter* out)
    : schema_(schema), roots_(roots), options_(options), out_(out) {
  // Records may nest each other, even cyclically: iterate to a fixed point.
  record_has_ref_.assign(schema.records.size(), false);
  unlisted_.assign(schema.records.size(), false);
  for (const ValidatedRoot& root : roots) {
    for (uint32_t record : root.unlisted) {
      if (record < unlisted_.size()) unlisted_[record] = true;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t r = 0; r < schema.records.size(); ++r) {
      if (record_has_ref_[r]) continue;
      for (const FieldDef& f : schema.records[r].fields) {
        if (HasRef(f.type)) {
          record_has_ref_[r] = true;
          changed = true;
          break;
        }
      }
    }
  }
}

bool RefChecker::HasRef(TypeId type) const {
  const Type& t = schema_.Get(type);
  switch (t.kind) {
    case TypeKind::kRef:
      return true;
    case TypeKind::kList:
    case TypeKind::kMap:
      return HasRef(t.elem);
    case TypeKind::kRecord:
      return record_has_ref_[t.index];
    default:
      return false;
  }
}

void RefChecker::Run() {
  for (const ValidatedRoot& root : roots_) {
    if (root.record != nullptr) WalkRecord(*root.record, root.value, 0);
  }
}

void RefChecker::Walk(TypeId type, const Value& v, size_t depth) {
  if (depth > options_.max_depth || !HasRef(type)) return;
  const Type& t = schema_.Get(type);
  switch (t.kind) {
    case TypeKind::kRef:
      return Check(t.index, v);
    case TypeKind::kRecord:
      return WalkRecord(schema_.records[t.index], v, depth);
    case TypeKind::kList:
      for (const Value& item : v.items()) Walk(t.elem, item, depth + 1);
      return;
    case TypeKind::kMap:
      for (const auto& [key, value] : v.entries()) Walk(t.elem, value, depth + 1);
      return;
    default:
      return;
  }
}

void RefChecker::WalkRecord(const RecordDef& def, const Value& v, size_t depth) {
  for (const FieldDef& f : def.fields) {
    if (!HasRef(f.type)) continue;
    const Value* value = v.Field(f.key);
    if (value != nullptr) Walk(f.type, *value, depth + 1);
  }
}

void RefChecker::Check(uint32_t record, const Value& v) {
  if (!v.is(ValueKind::kString)) return;  // ValidateDocument said why
  if (unlisted_[record]) return;          // so did the misspelt key of their list
  Targets& targets = TargetsOf(record);
  if (!targets.held) return Unheld(record, &targets, v);
  for (const Value* list : targets.keyed_lists) {
    if (list->FindById(v.string_value()) != nullptr) return;
  }
  if (targets.other_ids.count(v.string_value()) != 0) return;
  Dangling(record, &targets, v);
}

Targets& RefChecker::TargetsOf(uint32_t record) {
  auto [it, inserted] = targets_.try_emplace(record);
  Targets& targets = it->second;
  if (!inserted) return targets;
  for (const ValidatedRoot& root : roots_) {
    if (root.record == nullptr) continue;
    for (const FieldDef* f : schema_.ListsOf(*root.record, record)) {
      targets.held = true;
      const Value* list = root.value.Field(f->key);
      if (list == nullptr) continue;
      if (list->keyed()) {
        targets.keyed_lists.push_back(list);
        continue;
      }
      // Repeated ids leave a list unkeyed (already reported): index it here.
      for (const Value& item : list->items()) {
        if (!item.Id().empty()) targets.other_ids.insert(item.Id());
      }
    }
  }
  return targets;
}

const std::vector<std::string>& RefChecker::Candidates(Targets* targets) {
  if (targets->candidates_ready) return targets->candidates;
  targets->candidates_ready = true;
  std::vector<std::string>& out = targets->candidates;
  for (const Value* list : targets->keyed_lists) {
    for (const Value& item : list->items()) {
      if (out.size() >= options_.max_candidates) return out;
      out.emplace_back(item.Id());
    }
  }
  // A hash set has no useful order: sort its part so the help is deterministic.
  std::vector<std::string> others(targets->other_ids.begin(), targets->other_ids.end());
  std::sort(others.begin(), others.end());
  for (std::string& id : others) {
    if (out.size() >= options_.max_candidates) break;
    out.push_back(std::move(id));
  }
  return out;
}

size_t RefChecker::IdCount(const Targets& targets) {
  size_t n = targets.other_ids.size();
  for (const Value* list : targets.keyed_lists) n += list->items().size();
  return n;
}

void RefChecker::Dangling(uint32_t record, Targets* targets, const Value& v) {
  const std::string& type = schema_.records[record].name;
  std::string id(v.string_value());
  Diagnostic& d = out_->Error(v.loc(), "no " + Tick(type) + " with id " + Tick(id));
  // Suggestions cost a pass over the ids: only the first few dangling refs get one.
  if (out_->full() || dangling_++ >= options_.max_suggestions) return;
  const std::vector<std::string>& ids = Candidates(targets);
  std::string closest = ClosestName(id, ids);
  if (!closest.empty()) {
    d.help = "did you mean " + Tick(closest) + "?";
  } else if (ids.empty()) {
    d.help = "no " + Tick(type) + " is listed in any document";
  } else {
    d.help = "known ids: " + ListSome(ids, kListedIds, IdCount(*targets));
  }
}

// No root declares a list of the referenced records: say so once, with the
// document that would, if the schema has one.
void RefChecker::Unheld(uint32_t record, Targets* targets, const Value& v) {
  if (targets->reported) return;
  targets->reported = true;
  const std::string& type = schema_.records[record].name;
  Diagnostic& d = out_->Error(v.loc(), "no document holds a list of " + Tick(type));
  for (const RecordDef& doc : schema_.records) {
    if (!doc.is_document) continue;
    for (const FieldDef& f : doc.fields) {
      const Type& t = schema_.Get(f.type);
      if (t.kind == TypeKind::kList && schema_.Get(t.elem).kind == TypeKind::kRecord &&
          schema_.Get(t.elem).index == record) {
        d.help = Tick(type) + " records are listed in " + Tick(f.name) + " of " + Tick(doc.name) +
                 " documents, and none was given";
        return;
      }
    }
  }
  d.help = "the schema has no document with a " + Tick("list<" + type + ">") + " field";
}

}  // namespace

Value ValidateDocument(const TypeTable& schema, const Document& doc, Diagnostics* diags,
                       const ValidateOptions& options, std::vector<uint32_t>* unlisted) {
  return ValidateDocument(schema, Document(doc), diags, options, unlisted);
}

Value ValidateDocument(const TypeTable& schema, Document&& doc, Diagnostics* diags,
                       const ValidateOptions& options, std::vector<uint32_t>* unlisted) {
  Reporter out(diags, options.max_diagnostics);
  const char* kind = DocumentKindName(doc.kind);
  const RecordDef* record = schema.Document(kind);
  if (record == nullptr) {
    out.Error(doc.loc, "the schema declares no " + Tick(kind) + " document").help =
        "declare `document " + std::string(kind) + " { … }` in the schema";
    Value root = Validator(schema, options, &out).Untyped(std::move(doc.root));
    out.Finish(doc.loc);
    return root;
  }
  Validator validator(schema, options, &out, unlisted);
  Value root = validator.Document(*record, std::move(doc.root));
  out.Finish(doc.loc);
  return root;
}

Value ValidateValue(const TypeTable& schema, TypeId type, const Value& value, Diagnostics* diags,
                    const ValidateOptions& options) {
  Reporter out(diags, options.max_diagnostics);
  Value result = Validator(schema, options, &out).Of(type, value);
  out.Finish(value.loc());
  return result;
}

Value TypeByText(Value root, Diagnostics* diags, const ValidateOptions& options) {
  Reporter out(diags, options.max_diagnostics);
  SourceLoc loc = root.loc();
  TypeTable none;
  Value result = Validator(none, options, &out).Untyped(std::move(root));
  out.Finish(loc);
  return result;
}

void CheckReferences(const TypeTable& schema, const std::vector<ValidatedRoot>& roots,
                     Diagnostics* diags, const ValidateOptions& options) {
  Reporter out(diags, options.max_diagnostics);
  RefChecker checker(schema, roots, options, &out);
  checker.Run();
  SourceLoc loc = roots.empty() ? SourceLoc{} : roots[0].value.loc();
  out.Finish(loc);
}

}  // namespace capops::facts
