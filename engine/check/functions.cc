// SPDX-License-Identifier: Apache-2.0
// The table of built-in functions, and their static typing.
#include "engine/check/functions.h"

#include "engine/check/internal.h"

namespace capops::check {

const std::vector<FunctionInfo>& AllFunctions() {
  static const std::vector<FunctionInfo> kFunctions = {
      {"size", FunctionId::kSize, true, true, 1, "size(list | map | string) -> int"},
      {"contains", FunctionId::kContains, false, true, 2,
       "string.contains(string) -> bool, interval.contains(date | interval) -> bool"},
      {"startsWith", FunctionId::kStartsWith, false, true, 2, "string.startsWith(string) -> bool"},
      {"endsWith", FunctionId::kEndsWith, false, true, 2, "string.endsWith(string) -> bool"},
      {"matches", FunctionId::kMatches, true, true, 2, "string.matches(regex) -> bool"},
      {"lowerAscii", FunctionId::kLowerAscii, false, true, 1, "string.lowerAscii() -> string"},
      {"upperAscii", FunctionId::kUpperAscii, false, true, 1, "string.upperAscii() -> string"},
      {"join", FunctionId::kJoin, false, true, 3, "list.join([separator[, limit]]) -> string", 1},
      {"sum", FunctionId::kSum, true, true, 1, "sum(list) -> number | duration | quantity"},
      {"count", FunctionId::kCount, true, true, 1, "count(list) -> int"},
      {"min", FunctionId::kMin, true, true, 1, "min(list) -> element"},
      {"max", FunctionId::kMax, true, true, 1, "max(list) -> element"},
      {"int", FunctionId::kInt, true, false, 1, "int(number | string) -> int"},
      {"double", FunctionId::kDouble, true, false, 1, "double(number | string) -> double"},
      {"string", FunctionId::kString, true, false, 1, "string(value) -> string"},
      {"distinct", FunctionId::kDistinct, true, true, 1,
       "list.distinct() -> list (first of each value, in order)"},
      {"flatten", FunctionId::kFlatten, true, true, 1, "list<list<T>>.flatten() -> list<T>"},
      {"overlaps", FunctionId::kOverlaps, false, true, 2, "interval.overlaps(interval) -> bool"},
      {"intersect", FunctionId::kIntersect, false, true, 2,
       "interval.intersect(interval) -> Interval"},
      {"interval", FunctionId::kInterval, true, false, 2,
       "interval(start date, end date) -> Interval"},
      {"start", FunctionId::kStart, false, true, 1, "interval.start() -> date"},
      {"end", FunctionId::kEnd, false, true, 1, "interval.end() -> date (exclusive)"},
      {"duration", FunctionId::kDuration, false, true, 1, "interval.duration() -> duration"},
      {"peak", FunctionId::kPeak, false, true, 1, "timeline.peak() -> Segment"},
      {"steps", FunctionId::kSteps, false, true, 1, "timeline.steps() -> list<Segment>"},
      {"at", FunctionId::kAt, false, true, 2, "timeline.at(date) -> amount"},
      {"over", FunctionId::kOver, false, true, 3,
       "timeline.over(amount[, within interval]) -> list<Segment>", 2},
      {"under", FunctionId::kUnder, false, true, 3,
       "timeline.under(amount[, within interval]) -> list<Segment>", 2},
      {"plus", FunctionId::kPlus, false, true, 2, "timeline.plus(timeline) -> timeline"},
      {"minus", FunctionId::kMinus, false, true, 2, "timeline.minus(timeline) -> timeline"},
      {"orValue", FunctionId::kOrValue, false, true, 2, "optional<T>.orValue(T) -> T"},
      {"hasValue", FunctionId::kHasValue, false, true, 1, "optional<T>.hasValue() -> bool"},
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

// ---------------------------------------------------------------- typing

namespace capops::check::internal {

namespace {

bool Loose(TypeKind k) {
  return k == TypeKind::kAny || k == TypeKind::kError;
}
bool Textual(TypeKind k) {
  return k == TypeKind::kString || k == TypeKind::kRef || Loose(k);
}

// Values a message or `string()` can show: anything but records and maps.
bool Printable(const TypeTable& types, TypeId t) {
  const Type& type = types.Get(t);
  if (type.kind == TypeKind::kList) return Printable(types, type.elem);
  return type.kind != TypeKind::kRecord && type.kind != TypeKind::kMap;
}

// `sum`, `min` and `max` over a list: what its items must be, and the
// result (`sum` of untyped items is untyped).
TypeId AggregateResult(FunctionId id, TypeId list, TypeTable* types, std::string* error) {
  TypeKind kind = types->KindOf(list);
  TypeId elem = kind == TypeKind::kList ? types->Get(list).elem : types->Any();
  TypeKind e = types->KindOf(elem);
  bool sum = id == FunctionId::kSum;
  const char* name = sum ? "`sum` needs" : "`min` and `max` need";
  std::string got = "`" + types->Name(list) + "`";
  bool measured = IsMeasured(e);
  bool ordered = measured || e == TypeKind::kString || e == TypeKind::kDate;
  if (!error->empty()) {
    // an earlier problem is the one said
  } else if (kind != TypeKind::kList && !Loose(kind)) {
    *error = std::string(name) + " a list, not " + got;
  } else if (!Loose(e) && !(sum ? measured : ordered)) {
    *error = std::string(name) +
             (sum ? " numbers, durations or quantities, not " : " ordered values, not ") + got;
  }
  return sum && Loose(e) ? types->Any() : elem;
}

// What the interval and timeline methods give, or the error type with
// `*error` set.
TypeId TimeResult(FunctionId id, const std::vector<TypeId>& args, TypeTable* types,
                  std::string* error) {
  auto got = [&](size_t i) { return "`" + types->Name(args[i]) + "`"; };
  auto need = [&](bool ok, const std::string& what) {
    if (!ok && error->empty()) *error = what;
  };
  auto interval = [&](size_t i) {
    return IsInterval(*types, args[i]) || Loose(types->KindOf(args[i]));
  };
  auto timeline = [&](size_t i) { return types->KindOf(args[i]) == TypeKind::kTimeline; };
  switch (id) {
    case FunctionId::kOverlaps:
    case FunctionId::kIntersect:
      need(interval(0) && interval(1),
           "`" + std::string(id == FunctionId::kOverlaps ? "overlaps" : "intersect") +
               "` needs two intervals (windows), not " + got(0) + " and " + got(1));
      return id == FunctionId::kOverlaps ? types->Primitive(TypeKind::kBool) : types->Interval();
    case FunctionId::kInterval:
      need((types->KindOf(args[0]) == TypeKind::kDate || Loose(types->KindOf(args[0]))) &&
               (types->KindOf(args[1]) == TypeKind::kDate || Loose(types->KindOf(args[1]))),
           "`interval` needs a start and an end date, not " + got(0) + " and " + got(1));
      return types->Interval();
    case FunctionId::kStart:
    case FunctionId::kEnd:
    case FunctionId::kDuration:
      need(interval(0), "this method needs an interval (a window), not " + got(0));
      return types->Primitive(id == FunctionId::kDuration ? TypeKind::kDuration : TypeKind::kDate);
    default:
      break;
  }
  if (!timeline(0)) {
    need(Loose(types->KindOf(args[0])),
         "this method needs a timeline (`xs.timeline(x, windows, amount)`), not " + got(0));
    return id == FunctionId::kAt ? types->Any() : types->Error();
  }
  const Type t = types->Get(args[0]);
  switch (id) {
    case FunctionId::kPeak:
      return types->Segment(args[0]);
    case FunctionId::kSteps:
      return types->List(types->Segment(args[0]));
    case FunctionId::kAt:
      need(types->KindOf(args[1]) == TypeKind::kDate || Loose(types->KindOf(args[1])),
           "`at` needs a date, not " + got(1));
      return t.key;
    case FunctionId::kOver:
    case FunctionId::kUnder:
      need(Assignable(*types, args[1], t.key) || Assignable(*types, t.key, args[1]),
           "the bound of a timeline of " + types->Name(t.key) + " must be a " + types->Name(t.key) +
               ", not " + got(1));
      need(args.size() < 3 || interval(2),
           "a timeline is looked at within an interval (a window), not " +
               (args.size() < 3 ? std::string() : got(2)));
      return types->List(types->Segment(args[0]));
    default: {  // kPlus, kMinus
      bool same = timeline(1) && types->Get(args[1]).key == t.key;
      need(same,
           "a timeline of " + types->Name(t.key) + " combines only with another, not " + got(1));
      TypeId item = timeline(1) && types->Get(args[1]).elem == t.elem ? t.elem : types->Any();
      return types->Timeline(item, t.key);
    }
  }
}

// `x.orValue(d)`: the optional's value type, or the default's when that is
// the wider (an int optional with a double default is a double).
TypeId OrValueResult(const std::vector<TypeId>& args, TypeTable* types, std::string* error) {
  TypeId value =
      types->KindOf(args[0]) == TypeKind::kOptional ? types->Get(args[0]).elem : types->Any();
  if (Loose(types->KindOf(value))) return args[1];
  if (Assignable(*types, args[1], value)) return value;
  if (Assignable(*types, value, args[1])) return args[1];
  if (error->empty()) {
    *error = "the default of `orValue` is `" + types->Name(args[1]) + "`, not `" +
             types->Name(value) + "`";
  }
  return types->Error();
}

}  // namespace

bool IsInterval(const TypeTable& types, TypeId t) {
  if (types.KindOf(t) != TypeKind::kRecord) return false;
  const RecordDef& r = types.records[types.Get(t).index];
  const FieldDef* start = r.Find("start");
  const FieldDef* end = r.Find("end");
  return start != nullptr && end != nullptr && types.KindOf(start->type) == TypeKind::kDate &&
         types.KindOf(end->type) == TypeKind::kDate;
}

bool IsMeasured(TypeKind k) {
  return IsNumber(k) || IsUnit(k);
}

TypeId FunctionResult(FunctionId id, const std::vector<TypeId>& args, TypeTable* types,
                      std::string* error) {
  auto kind = [&](size_t i) { return types->KindOf(args[i]); };
  auto need = [&](bool ok, const std::string& what) {
    if (!ok && error->empty()) *error = what;
  };
  std::string got = args.empty() ? "" : "`" + types->Name(args[0]) + "`";
  switch (id) {
    case FunctionId::kSize:
      need(kind(0) == TypeKind::kList || kind(0) == TypeKind::kMap || Textual(kind(0)),
           "`size` needs a list, map or string, not " + got);
      return types->Primitive(TypeKind::kInt);
    case FunctionId::kContains:
      if (IsInterval(*types, args[0]) ||
          (Loose(kind(0)) && (kind(1) == TypeKind::kDate || IsInterval(*types, args[1])))) {
        need(IsInterval(*types, args[1]) || kind(1) == TypeKind::kDate || Loose(kind(1)),
             "an interval contains a date or an interval, not `" + types->Name(args[1]) + "`");
        return types->Primitive(TypeKind::kBool);
      }
      [[fallthrough]];
    case FunctionId::kStartsWith:
    case FunctionId::kEndsWith:
    case FunctionId::kMatches:
      need(Textual(kind(0)) && Textual(kind(1)),
           "this function needs strings, not " + got + " and `" + types->Name(args[1]) + "`");
      return types->Primitive(TypeKind::kBool);
    case FunctionId::kLowerAscii:
    case FunctionId::kUpperAscii:
      need(Textual(kind(0)), "this function needs a string, not " + got);
      return types->Primitive(TypeKind::kString);
    case FunctionId::kJoin:
      need((kind(0) == TypeKind::kList && Printable(*types, args[0])) || Loose(kind(0)),
           "`join` needs a list of values, not " + got);
      need(args.size() < 2 || Textual(kind(1)), "the separator of `join` must be a string");
      need(args.size() < 3 || kind(2) == TypeKind::kInt || Loose(kind(2)),
           "the limit of `join` must be an int");
      return types->Primitive(TypeKind::kString);
    case FunctionId::kSum:
    case FunctionId::kMin:
    case FunctionId::kMax:
      return AggregateResult(id, args[0], types, error);
    case FunctionId::kCount:
      need(kind(0) == TypeKind::kList || Loose(kind(0)), "`count` needs a list, not " + got);
      return types->Primitive(TypeKind::kInt);
    case FunctionId::kInt:
      need(kind(0) != TypeKind::kRecord && kind(0) != TypeKind::kList && kind(0) != TypeKind::kMap,
           "`int` cannot convert " + got);
      return types->Primitive(TypeKind::kInt);
    case FunctionId::kDouble:
      need(kind(0) == TypeKind::kInt || kind(0) == TypeKind::kDouble || Textual(kind(0)),
           "`double` cannot convert " + got);
      return types->Primitive(TypeKind::kDouble);
    case FunctionId::kString:
      need(Printable(*types, args[0]), "`string` cannot convert " + got);
      return types->Primitive(TypeKind::kString);
    case FunctionId::kOrValue:
    case FunctionId::kHasValue:
      need(kind(0) == TypeKind::kOptional || Loose(kind(0)),
           "`" + std::string(id == FunctionId::kOrValue ? "orValue" : "hasValue") +
               "` needs an optional such as `a.?b`, not " + got);
      if (id == FunctionId::kHasValue) return types->Primitive(TypeKind::kBool);
      return OrValueResult(args, types, error);
    case FunctionId::kDistinct:
      need(kind(0) == TypeKind::kList || Loose(kind(0)), "`distinct` needs a list, not " + got);
      return args[0];
    case FunctionId::kFlatten: {
      const Type& outer = types->Get(args[0]);
      bool nested = outer.kind == TypeKind::kList && types->KindOf(outer.elem) == TypeKind::kList;
      need(nested || Loose(kind(0)) ||
               (outer.kind == TypeKind::kList && Loose(types->KindOf(outer.elem))),
           "`flatten` needs a list of lists, not " + got);
      return nested ? outer.elem : types->List(types->Any());
    }
    default:
      return TimeResult(id, args, types, error);
  }
  return types->Error();
}

}  // namespace capops::check::internal
