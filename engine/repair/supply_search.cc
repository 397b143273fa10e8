// SPDX-License-Identifier: Apache-2.0
// CAP-SUP-005's repair search (repair.h lists its alternatives): cite a
// record (a), move the window (c), shrink (b).
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "engine/repair/plan_edits.h"
#include "engine/repair/repair.h"
#include "engine/repair/search.h"

namespace capops::repair {

namespace {

// CAP-SUP-005's alternative (c) for allocation `a` on `pool`: its own
// dated window moved inside its demand `d`'s window to where the records it
// cites that back the pool hold its GPUs beyond what the other allocations
// citing them take (MoveToFit).
std::optional<Fix> MoveCandidate(const Target& t, const eval::Facts& facts, const Value& a,
                                 const Value& pool, const Value* d, FileId file,
                                 std::string_view text) {
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
  return MoveToFit(t, a, d, held, taken, "its cited supply", file, text);
}

}  // namespace

std::vector<Fix> SupplySearch(const Target& t, const eval::Facts& facts, FileId file,
                              std::string_view text, size_t max_tries) {
  std::vector<Fix> out;
  if (t.short_by <= 0) return out;
  Subject subject;
  if (!SubjectOf(t, facts, &subject)) return out;
  const Value *a = subject.allocation, *pool = subject.pool, *d = subject.demand;
  std::string accelerator = Text(pool->Field("accelerator"));
  auto [from, to] = HeldOver(*a, facts.plan.Field("demands"));
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
  std::optional<Fix> move = MoveCandidate(t, facts, *a, *pool, d, file, text);
  for (const auto& [rank, s] : records) {
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
  if (std::optional<Fix> shrink = Shrink(t, *a, d, Int(a->Field("gpus"), 0) - t.short_by,
                                         "what its cited supply covers", file, text))
    out.push_back(std::move(*shrink));
  return out;
}

}  // namespace capops::repair
