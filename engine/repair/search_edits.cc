// SPDX-License-Identifier: Apache-2.0
// Alternatives more than one rule's search proposes (search.h): an
// allocation's window moved to where it fits (MoveToFit), its GPUs shrunk
// to what fits (Shrink).
#include "engine/common/units.h"
#include "engine/repair/plan_edits.h"
#include "engine/repair/search.h"

namespace capops::repair {

std::optional<Fix> MoveToFit(const Target& t, const Value& a, const Value* d,
                             const std::vector<Held>& held, const std::vector<Held>& taken,
                             std::string_view held_by, FileId file, std::string_view text) {
  const Value* window = a.Field("window");
  const Value* start = window && window->is(ValueKind::kMap) ? window->Field("start") : nullptr;
  if (start == nullptr || !start->is(ValueKind::kDate) || d == nullptr) return std::nullopt;
  auto [from, to] = Span(window);
  auto [business_from, business_to] = Span(d->Field("window"));
  int64_t gpus = Int(a.Field("gpus"), 0);
  if (to == INT64_MAX || business_from == INT64_MIN || gpus <= 0 || held.empty())
    return std::nullopt;
  std::optional<int64_t> at = EarliestFit(held, taken, gpus, to - from, business_from, business_to);
  if (!at || *at == from) return std::nullopt;
  std::optional<std::vector<Replacement>> edits = MoveWindow(file, text, *window, *at);
  if (!edits) return std::nullopt;
  return Fix{"move `" + t.allocation + "` to start " +
                 FormatDateTime({*at, start->date_value().offset}) + " (the first window where " +
                 std::string(held_by) + " has " + std::to_string(gpus) + " GPUs free)",
             std::move(*edits)};
}

std::optional<Fix> Shrink(const Target& t, const Value& a, const Value* d, int64_t fits,
                          std::string_view what, FileId file, std::string_view text) {
  const Value* gpus = a.Field("gpus");
  const Value* minimum = d ? d->Field("minimum_viable") : nullptr;
  int64_t floor = minimum ? Int(minimum->Field("gpus"), INT64_MAX) : 1;
  bool training = d && Member(Text(d->Field("slice"))) == "training";
  if (gpus == nullptr || fits < 1 || fits >= Int(gpus, 0) || fits < floor ||
      (training && minimum == nullptr))
    return std::nullopt;
  std::optional<Replacement> r = ReplaceScalar(file, text, *gpus, std::to_string(fits));
  if (!r) return std::nullopt;
  std::string why = minimum ? ", not below its minimum viable " + std::to_string(floor) : "";
  return Fix{"shrink `" + t.allocation + "` to " + std::to_string(fits) + " GPUs, " +
                 std::string(what) + why,
             {std::move(*r)}};
}

}  // namespace capops::repair
