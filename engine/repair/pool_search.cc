// SPDX-License-Identifier: Apache-2.0
// CAP-ALC-004's and CAP-ALC-001's repair searches (repair.h lists their
// alternatives): the allocation moved in time on its pool, moved to another
// pool with room for it, or shrunk to what its pool has free; and those
// alternatives ranked (PoolAlternatives), which CAP-ALC-003's search shares.
#include <algorithm>
#include <map>
#include <tuple>

#include "engine/repair/plan_edits.h"
#include "engine/repair/repair.h"
#include "engine/repair/search.h"

namespace capops::repair {

std::vector<Held> CapacityOf(const Value& pool) {
  int64_t hosts = std::max(Int(pool.Field("hosts"), 0), int64_t{0});
  int64_t per_host = std::max(Int(pool.Field("gpus_per_host"), 0), int64_t{0});
  int64_t gpus = 0;
  if (__builtin_mul_overflow(hosts, per_host, &gpus)) return {};
  return {{INT64_MIN, INT64_MAX, gpus}};
}

std::map<std::string, std::vector<Held>> TakenByPool(const eval::Facts& facts, const Value& a) {
  std::map<std::string, std::vector<Held>> taken;
  const Value* allocations = facts.plan.Field("allocations");
  const Value* demands = facts.plan.Field("demands");
  if (allocations == nullptr || !allocations->is(ValueKind::kList)) return taken;
  for (const Value& b : allocations->items()) {
    if (&b == &a || Text(b.Field("id")) == Text(a.Field("id"))) continue;
    auto [from, to] = HeldOver(b, demands);
    taken[Text(b.Field("pool"))].push_back(
        {from, to, std::max(Int(b.Field("gpus"), 0), int64_t{0})});
  }
  return taken;
}

namespace {

// Whether an allocation for a demand of `slice`, now on a pool of role
// `now`, may stand on a pool of role `role`. Research (every slice but
// inference) takes research and shared pools only: never a replacement
// pool (CAP-ALC-001), and production headroom only with its service
// owner's approval (CAP-ALC-005), which a planner asks for, not a search.
// Inference stays on pools of the role it has (production on production),
// or, batched on a research or shared pool, on those.
bool MayUse(const std::string& slice, const std::string& now, const std::string& role) {
  bool research_or_shared = role == "research" || role == "shared";
  if (slice != "inference") return research_or_shared;
  return now == "research" || now == "shared" ? research_or_shared : role == now;
}

// The pools of `s.pool`'s accelerator, region and managed service (or none)
// other than it, of a role the allocation may use, that have its GPUs free
// over its whole window after what `taken` puts on them (one LeastFree
// sweep a pool): at most `max` edits of its `pool:`, pools of the role it
// is on first, then the most GPUs free, then by id.
std::vector<Fix> OtherPools(const Target& t, const eval::Facts& facts, const Subject& s,
                            const std::map<std::string, std::vector<Held>>& taken, FileId file,
                            std::string_view text, size_t max) {
  std::vector<Fix> out;
  const Value& a = *s.allocation;
  const Value* pools = facts.inventory.Field("pools");
  int64_t gpus = Int(a.Field("gpus"), 0);
  if (max == 0 || s.demand == nullptr || gpus <= 0 || pools == nullptr ||
      !pools->is(ValueKind::kList))
    return out;
  auto [from, to] = HeldOver(a, facts.plan.Field("demands"));
  std::string slice = Member(Text(s.demand->Field("slice")));
  std::string now = Member(Text(s.pool->Field("role")));
  auto same = [&](const Value& q, const char* field) {
    return Text(q.Field(field)) == Text(s.pool->Field(field));
  };
  std::vector<std::tuple<bool, int64_t, std::string, std::string>> fits;  // other role, -free, id
  for (const Value& q : pools->items()) {
    std::string id = Text(q.Field("id")), role = Member(Text(q.Field("role")));
    if (id.empty() || same(q, "id") || !same(q, "accelerator") || !same(q, "region") ||
        !same(q, "service") || !MayUse(slice, now, role))
      continue;
    auto on = taken.find(id);
    int64_t free =
        LeastFree(CapacityOf(q), on == taken.end() ? std::vector<Held>{} : on->second, from, to);
    if (free >= gpus) fits.push_back({role != now, -free, id, role});
  }
  std::sort(fits.begin(), fits.end());
  for (const auto& [other_role, free, id, role] : fits) {
    if (out.size() == max) break;
    std::optional<Replacement> r = ReplaceScalar(file, text, *a.Field("pool"), YamlScalar(id));
    if (!r) continue;
    out.push_back({"move `" + t.allocation + "` to pool `" + id + "` (" + role + ", `" +
                       Text(s.pool->Field("accelerator")) + "` in `" +
                       Text(s.pool->Field("region")) + "`, " + std::to_string(-free) +
                       " GPUs free over its window)",
                   {std::move(*r)}});
  }
  return out;
}

}  // namespace

std::vector<Fix> PoolAlternatives(const Target& t, const eval::Facts& facts, const Subject& s,
                                  const std::map<std::string, std::vector<Held>>& taken,
                                  const std::vector<Held>& beside, std::string_view where,
                                  std::string_view what, FileId file, std::string_view text,
                                  size_t max_tries) {
  const Value& a = *s.allocation;
  std::vector<Held> capacity = CapacityOf(*s.pool);
  std::optional<Fix> move = MoveToFit(t, a, s.demand, capacity, beside, where, file, text);
  auto [from, to] = HeldOver(a, facts.plan.Field("demands"));
  std::optional<Fix> shrink =
      Shrink(t, a, s.demand, LeastFree(capacity, beside, from, to), what, file, text);
  size_t kept = (move ? 1 : 0) + (shrink ? 1 : 0);
  std::vector<Fix> out;
  if (move) out.push_back(std::move(*move));
  for (Fix& f : OtherPools(t, facts, s, taken, file, text, max_tries > kept ? max_tries - kept : 0))
    out.push_back(std::move(f));
  if (shrink) out.push_back(std::move(*shrink));
  return out;
}

std::vector<Fix> PoolSearch(const Target& t, const eval::Facts& facts, FileId file,
                            std::string_view text, size_t max_tries) {
  Subject s;
  if (!SubjectOf(t, facts, &s)) return {};
  std::string pool = Text(s.pool->Field("id"));
  std::map<std::string, std::vector<Held>> taken = TakenByPool(facts, *s.allocation);
  return PoolAlternatives(t, facts, s, taken, taken[pool], "pool `" + pool + "`",
                          "what pool `" + pool + "` has free beside the others over its window",
                          file, text, max_tries);
}

std::vector<Fix> ReplacementSearch(const Target& t, const eval::Facts& facts, FileId file,
                                   std::string_view text, size_t max_tries) {
  Subject s;
  if (!SubjectOf(t, facts, &s)) return {};
  return OtherPools(t, facts, s, TakenByPool(facts, *s.allocation), file, text, max_tries);
}

}  // namespace capops::repair
