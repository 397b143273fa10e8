// SPDX-License-Identifier: Apache-2.0
// The repair searches of demand rules (repair.h lists their alternatives):
// CAP-DEM-006's (start earlier, raise the minimum viable size) and
// CAP-DEM-003's (reduce to the exploration cap).
#include <algorithm>

#include "engine/common/units.h"
#include "engine/repair/plan_edits.h"
#include "engine/repair/search.h"

namespace capops::repair {

namespace {

// A run of a training demand as CAP-DEM-006 reads it: a window (with a
// dated start, that ends) and the GPUs it is planned on.
struct Run {
  const Value* window;
  std::string allocation;  // "" for the demand's own window
  int64_t from, to, gpus;
  // How long it runs at `minimum` GPUs, as the rule computes it
  // (duration × GPUs ÷ minimum, in whole seconds); -1 when that overflows.
  int64_t At(int64_t minimum) const {
    int64_t work = 0;
    if (__builtin_mul_overflow(to - from, gpus, &work)) return -1;
    return work / minimum;
  }
};

// The run `window` is, or nullopt when it has no dated start or no end.
std::optional<Run> RunOf(const Value* window, std::string allocation, int64_t gpus) {
  const Value* start = window && window->is(ValueKind::kMap) ? window->Field("start") : nullptr;
  if (start == nullptr || !start->is(ValueKind::kDate) || gpus <= 0) return std::nullopt;
  auto [from, to] = Span(window);
  if (to == eval::Interval::kOpenEnd) return std::nullopt;
  return Run{window, std::move(allocation), from, to, gpus};
}

// The GPUs a training demand is planned for (preferred_gpus): its
// `preferred`, else `hosts` × `gpus_per_host`; 0 when neither.
int64_t PreferredGpus(const Value& d) {
  if (const Value* p = d.Field("preferred")) return Int(p->Field("gpus"), 0);
  int64_t hosts = Int(d.Field("hosts"), 0), per_host = Int(d.Field("gpus_per_host"), 0);
  int64_t gpus = 0;
  return __builtin_mul_overflow(hosts, per_host, &gpus) ? 0 : gpus;
}

// The date `seconds`, written as `like` is.
std::string DateLike(const Value& like, int64_t seconds) {
  return FormatDateTime({seconds, like.date_value().offset});
}

// The allocations of demand `id` (fallbacks aside when `primary`).
std::vector<const Value*> AllocationsOf(const eval::Facts& facts, const std::string& id,
                                        bool primary) {
  std::vector<const Value*> out;
  const Value* allocations = facts.plan.Field("allocations");
  if (allocations == nullptr || !allocations->is(ValueKind::kList)) return out;
  for (const Value& a : allocations->items()) {
    if (Text(a.Field("demand")) == id && !(primary && a.Field("alternative_to") != nullptr))
      out.push_back(&a);
  }
  return out;
}

// CAP-DEM-006's start earlier: each late run moved to the latest start from
// which it ends by `end` at `minimum` GPUs; with the demand's own window,
// its allocations' own windows move with it.
std::optional<Fix> StartEarlier(const eval::Facts& facts, const std::string& demand,
                                const std::vector<Run>& runs, int64_t minimum, const Value& end,
                                FileId file, std::string_view text) {
  std::vector<Replacement> edits;
  std::vector<std::string> moved;
  int64_t by = end.date_value().seconds;
  for (const Run& r : runs) {
    int64_t length = r.At(minimum);
    if (length < 0) return std::nullopt;
    if (r.from + length <= by) continue;
    int64_t start = by - length;
    auto add = [&](const Value& window, int64_t at) {
      std::optional<std::vector<Replacement>> e = MoveWindow(file, text, window, at);
      if (e) edits.insert(edits.end(), e->begin(), e->end());
      return e.has_value();
    };
    if (!add(*r.window, start)) return std::nullopt;
    std::string name = r.allocation.empty() ? demand : r.allocation;
    std::string also;
    if (r.allocation.empty()) {
      for (const Value* a : AllocationsOf(facts, demand, /*primary=*/false)) {
        const Value* w = a->Field("window");
        if (w == nullptr) continue;
        auto [from, to] = Span(w);
        if (from == eval::Interval::kOpenStart || !add(*w, from + (start - r.from)))
          return std::nullopt;
        also += (also.empty() ? " (with `" : "`, `") + Text(a->Field("id"));
      }
      if (!also.empty()) also += "`)";
    }
    moved.push_back("`" + name + "`" + also + " on `" + DateLike(*r.window->Field("start"), start) +
                    "` (" + FormatDuration(length) + " at " + std::to_string(minimum) + " GPUs)");
  }
  if (edits.empty()) return std::nullopt;
  std::string list;
  for (const std::string& m : moved) list += (list.empty() ? "" : ", ") + m;
  return Fix{"start " + list + ": the latest start" + (moved.size() > 1 ? "s" : "") +
                 " from which training `" + demand +
                 "` at its minimum viable size ends by its business window end `" +
                 FormatDateTime(end.date_value()) + "`",
             std::move(edits)};
}

// CAP-DEM-006's raise the minimum: the smallest minimum viable size at
// which every run ends by `end`, when it is above `minimum` and not above
// the preferred size (CAP-DEM-011).
std::optional<Fix> RaiseMinimum(const std::string& demand, const std::vector<Run>& runs,
                                const Value& gpus, int64_t minimum, int64_t preferred,
                                const Value& end, FileId file, std::string_view text) {
  int64_t by = end.date_value().seconds, needed = minimum;
  for (const Run& r : runs) {
    // work ÷ m ≤ room (whole seconds) holds from m = work ÷ (room + 1) + 1 on.
    int64_t work = 0, room = by - r.from;
    if (room < 0 || __builtin_mul_overflow(r.to - r.from, r.gpus, &work)) return std::nullopt;
    needed = std::max(needed, work / (room + 1) + 1);
  }
  if (needed <= minimum || needed > preferred) return std::nullopt;
  std::optional<Replacement> r = ReplaceScalar(file, text, gpus, std::to_string(needed));
  if (!r) return std::nullopt;
  return Fix{"raise `" + demand + "`'s minimum viable size to " + std::to_string(needed) +
                 " GPUs, the smallest at which its run ends by its business window end `" +
                 FormatDateTime(end.date_value()) + "` (its preferred size is " +
                 std::to_string(preferred) + ")",
             {std::move(*r)}};
}

}  // namespace

std::vector<Fix> BusinessWindowSearch(const Target& t, const eval::Facts& facts, FileId file,
                                      std::string_view text, size_t max_tries) {
  std::vector<Fix> out;
  const Value* d = PlanRecord(facts, "demands", t.allocation);
  const Value* minimum_viable = d ? d->Field("minimum_viable") : nullptr;
  const Value* gpus = minimum_viable ? minimum_viable->Field("gpus") : nullptr;
  const Value* end = d ? d->Field("business_window_end") : nullptr;
  if (gpus == nullptr || end == nullptr || !end->is(ValueKind::kDate)) return out;
  int64_t minimum = Int(gpus, 0), preferred = PreferredGpus(*d);
  if (minimum <= 0 || preferred <= 0) return out;
  // The runs as planned (the rule's): the demand's window at the preferred
  // size, else each primary allocation's own window at its GPUs.
  std::vector<Run> runs;
  if (std::optional<Run> own = RunOf(d->Field("window"), "", preferred)) {
    runs.push_back(*own);
  } else {
    for (const Value* a : AllocationsOf(facts, t.allocation, /*primary=*/true)) {
      if (auto r = RunOf(a->Field("window"), Text(a->Field("id")), Int(a->Field("gpus"), 0)))
        runs.push_back(*r);
    }
  }
  if (auto fix = StartEarlier(facts, t.allocation, runs, minimum, *end, file, text))
    out.push_back(std::move(*fix));
  if (auto fix = RaiseMinimum(t.allocation, runs, *gpus, minimum, preferred, *end, file, text))
    out.push_back(std::move(*fix));
  if (out.size() > max_tries) out.resize(max_tries);
  return out;
}

std::vector<Fix> ExplorationSearch(const Target& t, const eval::Facts& facts, FileId file,
                                   std::string_view text, size_t max_tries) {
  std::vector<Fix> out;
  const Value* d = PlanRecord(facts, "demands", t.allocation);
  int64_t cap = Int(ParamRead(t, "exploration_cap"), 0);
  if (d == nullptr || cap < 1 || max_tries == 0) return out;
  // The demand's `gpus` and its primary allocations' above the cap: the
  // one answer the rule's cap has. Its other findings (sessions that
  // overlap, schedules, checkpoints) have none a search can choose.
  std::vector<Replacement> edits;
  std::vector<std::string> reduced;
  auto reduce = [&](const Value& owner, const std::string& name) {
    const Value* g = owner.Field("gpus");
    if (Int(g, 0) <= cap) return true;
    std::optional<Replacement> r = ReplaceScalar(file, text, *g, std::to_string(cap));
    if (r) edits.push_back(std::move(*r));
    reduced.push_back(name);
    return r.has_value();
  };
  if (!reduce(*d, "exploration demand `" + t.allocation + "`")) return out;
  for (const Value* a : AllocationsOf(facts, t.allocation, /*primary=*/true)) {
    if (!reduce(*a, "allocation `" + Text(a->Field("id")) + "`")) return out;
  }
  if (edits.empty()) return out;
  std::string list;
  for (size_t i = 0; i < reduced.size(); ++i)
    list += (i == 0 ? "" : i + 1 == reduced.size() ? " and " : ", ") + reduced[i];
  out.push_back({"reduce " + list + " to " + std::to_string(cap) +
                     " accelerators, the exploration cap (`exploration_cap`)",
                 std::move(edits)});
  return out;
}

}  // namespace capops::repair
