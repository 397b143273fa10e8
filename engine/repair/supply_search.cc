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

// `seconds` as a window of `window` writes it: in its start's offset (a
// date stays a date when it falls on one).
std::string WindowDate(int64_t seconds, const Value* window) {
  const Value* start = window && window->is(ValueKind::kMap) ? window->Field("start") : nullptr;
  int16_t offset =
      start && start->is(ValueKind::kDate) ? start->date_value().offset : DateTime::kDateOnly;
  return FormatDateTime({seconds, offset});
}

// When an acquisition is needed, for people: "2027-04-19..04-22" (the
// end exclusive, its year left out when it is the start's), "from
// 2027-04-19, with no end date", or with none at all.
std::string WhenText(const eval::Acquisition& q, const std::string& allocation) {
  if (q.start.empty()) return "with no end date (`" + allocation + "` holds its GPUs at all times)";
  if (q.end.empty()) return "from " + q.start + ", with no end date";
  bool same_year = q.start.size() > 5 && q.end.compare(0, 5, q.start, 0, 5) == 0;
  return q.start + ".." + (same_year ? q.end.substr(5) : q.end);
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

std::optional<Advice> SupplyAdvice(const Target& t, const eval::Facts& facts, FileId file,
                                   std::string_view text) {
  if (t.short_by <= 0) return std::nullopt;
  const Value* allocations = facts.plan.Field("allocations");
  const Value* a = allocations ? allocations->FindById(t.allocation) : nullptr;
  const Value* pools = facts.inventory.Field("pools");
  const Value* pool = a && pools ? pools->FindById(Text(a->Field("pool"))) : nullptr;
  if (a == nullptr || pool == nullptr || Text(pool->Field("accelerator")).empty())
    return std::nullopt;
  const Value* demands = facts.plan.Field("demands");
  const Value* d = demands ? demands->FindById(Text(a->Field("demand"))) : nullptr;
  const Value* window = a->Field("window");
  if (window == nullptr && d != nullptr) window = d->Field("window");
  auto [from, to] = HeldOver(*a, demands);
  eval::Acquisition q;
  q.gpus = t.short_by;
  q.accelerator = Text(pool->Field("accelerator"));
  q.region = Text(pool->Field("region"));
  q.service = Text(pool->Field("service"));
  if (from != eval::Interval::kOpenStart) q.start = WindowDate(from, window);
  if (to != eval::Interval::kOpenEnd) q.end = WindowDate(to, window);
  // The record's id: one no supply record has.
  const Value* supply = facts.inventory.Field("supply");
  std::string id = "acquire-" + t.allocation;
  for (int n = 2; supply && supply->is(ValueKind::kList) && supply->FindById(id); ++n)
    id = "acquire-" + t.allocation + "-" + std::to_string(n);
  std::optional<std::vector<Replacement>> cite = AddToList(file, text, *a, "evidence", id);
  if (!cite) return std::nullopt;
  std::string record =
      "{id: " + YamlScalar(id) + ", kind: reservation, accelerator: " + YamlScalar(q.accelerator);
  if (!q.region.empty()) record += ", region: " + YamlScalar(q.region);
  if (!q.service.empty()) record += ", service: " + YamlScalar(q.service);
  record += ", gpus: " + std::to_string(q.gpus);
  if (!q.start.empty()) {
    record += ", window: {start: " + q.start + (q.end.empty() ? "" : ", end: " + q.end) + "}";
  }
  q.description = "reserve " + std::to_string(q.gpus) + " × " + q.accelerator +
                  (q.region.empty() ? "" : " in " + q.region) +
                  (q.service.empty() ? "" : " with `" + q.service + "`") + ", " +
                  WhenText(q, t.allocation) + ", and cite it in `" + t.allocation + "`'s evidence";
  return Advice{std::move(q),
                "apiVersion: capops.dev/v1\nkind: Inventory\nsupply:\n  - " + record + "}\n",
                std::move(*cite)};
}

std::vector<Fix> SupplySearch(const Target& t, const eval::Facts& facts, FileId file,
                              std::string_view text, size_t max_tries) {
  std::vector<Fix> out;
  if (t.short_by <= 0) return out;
  Subject subject;
  if (!SubjectOf(t, facts, &subject)) return out;
  const Value *a = subject.allocation, *pool = subject.pool, *d = subject.demand;
  std::string accelerator = Text(pool->Field("accelerator"));
  const Value* allocations = facts.plan.Field("allocations");
  const Value* demands = facts.plan.Field("demands");
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
  if (std::optional<Fix> shrink = Shrink(t, *a, d, Int(a->Field("gpus"), 0) - t.short_by,
                                         "what its cited supply covers", file, text))
    out.push_back(std::move(*shrink));
  return out;
}

}  // namespace capops::repair
