// SPDX-License-Identifier: Apache-2.0
// CAP-ALC-009's repair search (repair.h lists its alternatives): the window
// an allocation holds its GPUs in, cut to its maximum holding period.
#include "engine/common/units.h"
#include "engine/repair/plan_edits.h"
#include "engine/repair/search.h"

namespace capops::repair {

namespace {

// "3d from `2027-05-01`, ending `2027-05-04`": a hold of `length` seconds
// from `start` (a written date).
std::string HoldText(const Value& start, int64_t length) {
  DateTime from = start.date_value();
  return FormatDuration(length) + " from `" + FormatDateTime(from) + "`, ending `" +
         FormatDateTime({from.seconds + length, from.offset}) + "`";
}

}  // namespace

std::vector<Fix> HoldSearch(const Target& t, const eval::Facts& facts, FileId file,
                            std::string_view text, size_t max_tries) {
  std::vector<Fix> out;
  const Value* a = PlanRecord(facts, "allocations", t.allocation);
  if (a == nullptr || max_tries == 0) return out;
  const Value* d = PlanRecord(facts, "demands", Text(a->Field("demand")));
  const Value* hold = a->Field("max_hold");
  if (hold == nullptr && d != nullptr) hold = d->Field("max_hold");
  if (hold == nullptr || !hold->is(ValueKind::kDuration) || hold->int_value() <= 0) return out;
  int64_t length = hold->int_value();
  // The window the rule read (windows_of): the allocation's own, else its demand's.
  bool own = a->Field("window") != nullptr;
  const Value* window = own ? a->Field("window") : d ? d->Field("window") : nullptr;
  const Value* start = window && window->is(ValueKind::kMap) ? window->Field("start") : nullptr;
  if (start == nullptr || !start->is(ValueKind::kDate)) return out;
  auto [from, to] = Span(window);
  if (to == eval::Interval::kOpenEnd || to - from <= length) return out;
  if (own) {
    std::optional<std::vector<Replacement>> edits = CutWindow(file, text, *window, length);
    if (!edits) return out;
    out.push_back({"cut `" + t.allocation +
                       "`'s window to its maximum holding period: " + HoldText(*start, length),
                   std::move(*edits)});
    return out;
  }
  // Held over its demand's window, which is the demand's to keep: the
  // allocation gets a window of its own, written as the demand's is.
  const Value* end = window->Field("end");
  bool by_end = end && end->is(ValueKind::kDate) && window->Field("duration") == nullptr;
  std::string bound = by_end ? "end: " + FormatDateTime({from + length, end->date_value().offset})
                             : "duration: " + FormatDuration(length);
  std::optional<std::vector<Replacement>> edits =
      AddEntry(file, text, *a, "window",
               "{start: " + FormatDateTime(start->date_value()) + ", " + bound + "}");
  if (!edits) return out;
  out.push_back({"give `" + t.allocation + "` a window of its own, its maximum holding period: " +
                     HoldText(*start, length) + " (from the start of demand `" +
                     Text(d->Field("id")) + "`'s window)",
                 std::move(*edits)});
  return out;
}

}  // namespace capops::repair
