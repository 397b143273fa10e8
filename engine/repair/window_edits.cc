// SPDX-License-Identifier: Apache-2.0
// Edits of a window's dates and duration, as it is written (search.h).
// Entry points: MoveWindow, CutWindow.
#include "engine/common/units.h"
#include "engine/repair/plan_edits.h"
#include "engine/repair/search.h"

namespace capops::repair {

namespace {

// The window's dated `start`, or null.
const Value* DatedStart(const Value& window) {
  const Value* start = window.is(ValueKind::kMap) ? window.Field("start") : nullptr;
  return start != nullptr && start->is(ValueKind::kDate) ? start : nullptr;
}

// `date` (a written date) replaced by the instant `seconds`, at its own
// offset; nullopt for an instant no date can be written for (before the
// year 0000, after 9999), which would not read back.
std::optional<Replacement> SetDate(FileId file, std::string_view text, const Value& date,
                                   int64_t seconds) {
  if (seconds < DateTime::kMinSeconds || seconds > DateTime::kMaxSeconds) return std::nullopt;
  std::string written = FormatDateTime({seconds, date.date_value().offset}), error;
  DateTime back;
  if (!ParseDateTime(written, &back, &error) || back.seconds != seconds) return std::nullopt;
  return ReplaceScalar(file, text, date, std::move(written));
}

}  // namespace

std::optional<std::vector<Replacement>> MoveWindow(FileId file, std::string_view text,
                                                   const Value& window, int64_t start) {
  const Value* from = DatedStart(window);
  if (from == nullptr) return std::nullopt;
  std::optional<Replacement> s = SetDate(file, text, *from, start);
  if (!s) return std::nullopt;
  std::vector<Replacement> out{std::move(*s)};
  if (const Value* end = window.Field("end"); end && end->is(ValueKind::kDate)) {
    int64_t length = end->date_value().seconds - from->date_value().seconds;
    std::optional<Replacement> e = SetDate(file, text, *end, start + length);
    if (!e) return std::nullopt;
    out.push_back(std::move(*e));
  }
  return out;
}

std::optional<std::vector<Replacement>> CutWindow(FileId file, std::string_view text,
                                                  const Value& window, int64_t length) {
  const Value* from = DatedStart(window);
  if (from == nullptr || length <= 0) return std::nullopt;
  std::vector<Replacement> out;
  if (const Value* end = window.Field("end"); end && end->is(ValueKind::kDate)) {
    std::optional<Replacement> e = SetDate(file, text, *end, from->date_value().seconds + length);
    if (!e) return std::nullopt;
    out.push_back(std::move(*e));
  }
  if (const Value* duration = window.Field("duration");
      duration && duration->is(ValueKind::kDuration)) {
    std::optional<Replacement> d = ReplaceScalar(file, text, *duration, FormatDuration(length));
    if (!d) return std::nullopt;
    out.push_back(std::move(*d));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

}  // namespace capops::repair
