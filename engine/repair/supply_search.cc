// SPDX-License-Identifier: Apache-2.0
// CAP-SUP-005's repair search (repair.h lists its alternatives): cite a
// record (a), move the window (c), shrink (b).
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "engine/common/units.h"
#include "engine/repair/plan_edits.h"
#include "engine/repair/repair.h"
#include "engine/repair/search.h"

namespace capops::repair {

namespace {

// CAP-SUP-005's alternative (c) for allocation `a` on `pool`: its own
// dated window moved, its duration kept, to the earliest start inside its
// demand `d`'s window where the records it cites that back the pool hold
// its GPUs beyond what the other allocations citing them take
// (EarliestFit). None when `a` has no dated window, `d` none with a start,
// or no start fits but the one it has.
std::optional<Fix> MoveCandidate(const Target& t, const eval::Facts& facts, const Value& a,
                                 const Value& pool, const Value* d, FileId file,
                                 std::string_view text) {
  const Value* window = a.Field("window");
  const Value* start = window && window->is(ValueKind::kMap) ? window->Field("start") : nullptr;
  if (start == nullptr || !start->is(ValueKind::kDate) || d == nullptr) return std::nullopt;
  auto [from, to] = Span(window);
  auto [business_from, business_to] = Span(d->Field("window"));
  int64_t gpus = Int(a.Field("gpus"), 0);
  if (to == INT64_MAX || business_from == INT64_MIN || gpus <= 0) return std::nullopt;
  const Value* supply = facts.inventory.Field("supply");
  if (supply == nullptr || !supply->is(ValueKind::kList)) return std::nullopt;
  std::map<std::string, int64_t> backing;  // the cited records that back the pool: their GPUs
  std::vector<Held> held, taken;
  for (const std::string& id : Cited(a)) {
    const Value* s = supply->FindById(id);
    int64_t g = s ? Backs(*s, pool) : 0;
    if (g <= 0) continue;
    backing[id] = g;
    auto [held_from, held_to] = Span(s->Field("window"));
    held.push_back({held_from, held_to, g});
  }
  if (held.empty()) return std::nullopt;
  // Another allocation citing some of them takes at most what they hold,
  // over its window (its own, else its demand's, else all time).
  const Value* allocations = facts.plan.Field("allocations");
  const Value* demands = facts.plan.Field("demands");
  for (const Value& b : allocations->items()) {
    if (&b == &a || Text(b.Field("id")) == t.allocation) continue;
    int64_t shared = 0;
    for (const std::string& id : Cited(b)) {
      if (auto it = backing.find(id); it != backing.end()) shared += it->second;
    }
    if (shared == 0) continue;
    auto [b_from, b_to] = HeldOver(b, demands);
    taken.push_back({b_from, b_to, std::clamp(Int(b.Field("gpus"), 0), int64_t{0}, shared)});
  }
  std::optional<int64_t> at = EarliestFit(held, taken, gpus, to - from, business_from, business_to);
  if (!at || *at == from) return std::nullopt;
  DateTime new_start{*at, start->date_value().offset};
  std::optional<Replacement> r = ReplaceScalar(file, text, *start, FormatDateTime(new_start));
  if (!r) return std::nullopt;
  Fix fix{"move `" + t.allocation + "` to start " + FormatDateTime(new_start) +
              " (the first window where its cited supply has " + std::to_string(gpus) +
              " GPUs free)",
          {std::move(*r)}};
  if (const Value* end = window->Field("end"); end && end->is(ValueKind::kDate)) {
    std::optional<Replacement> e = ReplaceScalar(
        file, text, *end, FormatDateTime({*at + (to - from), end->date_value().offset}));
    if (!e) return std::nullopt;
    fix.replacements.push_back(std::move(*e));
  }
  return fix;
}

// Whether supply record `s` (holding `held` GPUs for the pool) still has
// `need` GPUs over [from, to) beyond what the allocations other than `a`
// that cite it take (each at most its GPUs and what `s` holds, over its
// window): citing a record they already fill would break CAP-SUP-006. A
// window open on either side is not judged (true).
bool HasRoom(const Value& s, int64_t held, const Value& a, const Value& allocations,
             const Value* demands, int64_t need, int64_t from, int64_t to) {
  if (from == INT64_MIN || to == INT64_MAX) return true;
  std::string id = Text(s.Field("id"));
  auto [held_from, held_to] = Span(s.Field("window"));
  std::vector<Held> taken;
  for (const Value& b : allocations.items()) {
    const Value* evidence = b.Field("evidence");
    if (&b == &a || evidence == nullptr || !evidence->is(ValueKind::kList)) continue;
    bool cites = std::any_of(evidence->items().begin(), evidence->items().end(),
                             [&id](const Value& e) { return Text(&e) == id; });
    if (!cites) continue;
    auto [b_from, b_to] = HeldOver(b, demands);
    taken.push_back({b_from, b_to, std::clamp(Int(b.Field("gpus"), 0), int64_t{0}, held)});
  }
  return EarliestFit({{held_from, held_to, held}}, taken, need, to - from, from, to) == from;
}

// Records judged for room (HasRoom) per allocation, in rank order: each
// judgement reads every allocation.
constexpr size_t kRoomChecks = 8;

}  // namespace

std::vector<Fix> SupplySearch(const Target& t, const eval::Facts& facts, FileId file,
                              std::string_view text, size_t max_tries) {
  std::vector<Fix> out;
  if (t.short_by <= 0) return out;
  const Value* allocations = facts.plan.Field("allocations");
  const Value* a = allocations ? allocations->FindById(t.allocation) : nullptr;
  const Value* pools = facts.inventory.Field("pools");
  const Value* pool = a && pools ? pools->FindById(Text(a->Field("pool"))) : nullptr;
  if (a == nullptr || pool == nullptr) return out;
  std::string accelerator = Text(pool->Field("accelerator"));
  const Value* demands = facts.plan.Field("demands");
  const Value* d = demands ? demands->FindById(Text(a->Field("demand"))) : nullptr;
  auto [from, to] = HeldOver(*a, demands);
  std::set<std::string> cited = Cited(*a);
  std::vector<std::pair<std::tuple<bool, int64_t, std::string>, const Value*>> records;
  if (const Value* supply = facts.inventory.Field("supply");
      supply && supply->is(ValueKind::kList)) {
    for (const Value& s : supply->items()) {
      std::string id = Text(s.Field("id"));
      if (id.empty() || cited.count(id) != 0) continue;
      int64_t gpus = Backs(s, *pool);
      auto [held_from, held_to] = Span(s.Field("window"));
      if (gpus <= 0 || held_from > from || held_to < to) continue;  // not the whole window
      records.push_back({{gpus < t.short_by, gpus, id}, &s});
    }
  }
  std::sort(records.begin(), records.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  // Those with room for what it lacks first, judged in rank order until
  // enough are found.
  std::vector<size_t> order, later;
  for (size_t i = 0, judged = 0; i < records.size(); ++i) {
    if (order.size() >= max_tries || judged == kRoomChecks) {
      later.push_back(i);
      continue;
    }
    ++judged;
    bool room = HasRoom(*records[i].second, std::get<1>(records[i].first), *a, *allocations,
                        demands, t.short_by, from, to);
    (room ? order : later).push_back(i);
  }
  order.insert(order.end(), later.begin(), later.end());
  std::optional<Fix> move = MoveCandidate(t, facts, *a, *pool, d, file, text);
  for (size_t i : order) {
    const auto& [rank, s] = records[i];
    // One try kept for shrinking, one for moving.
    if (out.size() + 1 + (move ? 1 : 0) >= max_tries) break;
    std::string id = std::get<2>(rank);
    std::optional<std::vector<Replacement>> edit = AddToList(file, text, *a, "evidence", id);
    if (!edit) continue;
    out.push_back({"cite `" + id + "` (" + Text(s->Field("kind")) + " of " +
                       std::to_string(std::get<1>(rank)) + " GPUs of `" + accelerator + "`) in `" +
                       t.allocation + "`'s evidence",
                   std::move(*edit)});
  }
  if (move) out.push_back(std::move(*move));
  int64_t gpus = Int(a->Field("gpus"), 0);
  int64_t covered = gpus - t.short_by;
  const Value* minimum = d ? d->Field("minimum_viable") : nullptr;
  int64_t floor = minimum ? Int(minimum->Field("gpus"), INT64_MAX) : 1;
  bool training = d && Member(Text(d->Field("slice"))) == "training";
  if (covered >= 1 && covered < gpus && covered >= floor && (minimum || !training)) {
    if (std::optional<Replacement> r =
            ReplaceScalar(file, text, *a->Field("gpus"), std::to_string(covered))) {
      std::string why = minimum ? ", not below its minimum viable " + std::to_string(floor) : "";
      out.push_back({"shrink `" + t.allocation + "` to " + std::to_string(covered) +
                         " GPUs, what its cited supply covers" + why,
                     {std::move(*r)}});
    }
  }
  return out;
}

}  // namespace capops::repair
