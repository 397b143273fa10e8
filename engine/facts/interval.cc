// SPDX-License-Identifier: Apache-2.0
// The consistency check of interval records (see interval.h); called by the
// Validator of validate.cc on every record IsIntervalRecord accepts.
#include "engine/facts/interval.h"

#include <cstdint>

#include "engine/common/units.h"

namespace capops::facts {

namespace {

constexpr int64_t kDay = DateTime::kSecondsPerDay;  // seconds
constexpr int64_t kHour = 3600;

std::string Tick(const std::string& text) {
  return "`" + text + "`";
}

// The value of `key` in `fields` when it is of `kind`, else nullptr.
const Value* FieldOf(MapView fields, const Key& key, ValueKind kind) {
  for (const auto& [k, v] : fields) {
    if (k == key) return v.is(kind) ? &v : nullptr;
  }
  return nullptr;
}

bool FieldIs(const RecordDef& def, const char* name, const TypeTable& schema, TypeKind kind) {
  const FieldDef* f = def.Find(name);
  return f != nullptr && schema.Get(f->type).kind == kind;
}

}  // namespace

bool IsIntervalRecord(const TypeTable& schema, const RecordDef& def) {
  return FieldIs(def, "start", schema, TypeKind::kDate) &&
         (FieldIs(def, "end", schema, TypeKind::kDate) ||
          FieldIs(def, "duration", schema, TypeKind::kDuration));
}

std::vector<IntervalProblem> CheckInterval(MapView fields) {
  static const Key kStart("start"), kEnd("end"), kDuration("duration");
  std::vector<IntervalProblem> problems;
  const Value* start = FieldOf(fields, kStart, ValueKind::kDate);
  if (start == nullptr) return problems;
  const Value* end = FieldOf(fields, kEnd, ValueKind::kDate);
  const Value* duration = FieldOf(fields, kDuration, ValueKind::kDuration);
  DateTime from = start->date_value();
  bool end_ok = true, duration_ok = true;
  if (end != nullptr && end->date_value().seconds <= from.seconds) {
    end_ok = false;
    // The shortest window in the unit it is written in: a day from a plain
    // date, an hour from a date-time.
    bool days = from.date_only();
    DateTime next{from.seconds + (days ? kDay : kHour), from.offset};
    problems.push_back(
        {end->loc(),
         "`end` " + Tick(end->ToString()) + " is not after `start` " + Tick(start->ToString()),
         "`end` is exclusive: a window of one " + std::string(days ? "day" : "hour") + " from " +
             Tick(start->ToString()) + " ends " + (days ? "on " : "at ") +
             Tick(FormatDateTime(next))});
  }
  if (duration != nullptr && duration->int_value() <= 0) {
    duration_ok = false;
    problems.push_back({duration->loc(),
                        "`duration` " + Tick(FormatDuration(duration->int_value())) +
                            " is not positive: the window holds no time",
                        "give its length, such as `5d`, or leave `duration` out for a window "
                        "that runs on from its start"});
  }
  if (end != nullptr && duration != nullptr && end_ok && duration_ok &&
      end->date_value().seconds - from.seconds != duration->int_value()) {
    std::string span = FormatDuration(end->date_value().seconds - from.seconds);
    problems.push_back({duration->loc(),
                        "`duration` " + Tick(FormatDuration(duration->int_value())) +
                            " disagrees with `end` " + Tick(end->ToString()) + ", which is " +
                            Tick(span) + " after `start` " + Tick(start->ToString()),
                        "give either `end` or `duration`: rules read `end` when both are given"});
  }
  return problems;
}

}  // namespace capops::facts
