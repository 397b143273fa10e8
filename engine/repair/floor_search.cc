// SPDX-License-Identifier: Apache-2.0
// The production floor's repair searches (repair.h lists their
// alternatives). CAP-ALC-003: research on a production pool moved in time
// to where the pool has its GPUs free above the floors it keeps, moved to a
// research or shared pool, or shrunk to what is left above the floors.
// CAP-ALC-002: an allocation that holds a service's floor grown by what the
// floor lacks, on a pool with that room.
#include <algorithm>

#include "engine/repair/plan_edits.h"
#include "engine/repair/search.h"

namespace capops::repair {

namespace {

// Whether a demand of `slice` is research as the rule read it: in
// `research_slices`, by default every slice but inference.
bool Research(const Target& t, const std::string& slice) {
  const Value* slices = ParamRead(t, "research_slices");
  if (slices == nullptr || !slices->is(ValueKind::kList)) return slice != "inference";
  for (const Value& s : slices->items()) {
    if (Member(Text(&s)) == slice) return true;
  }
  return false;
}

// What production pool `pool` keeps and the research beside `a` takes
// there, as CAP-ALC-003 counts them: each inference demand with an
// allocation on the pool keeps what it protects (the larger of its `floor`
// and its `gpus`) over its own window (all time when it has none), once
// however many allocations it has there; each other research allocation
// takes its `gpus` over its window (its own, else its demand's).
std::vector<Held> KeptAndTaken(const Target& t, const eval::Facts& facts, const Value& a,
                               const std::string& pool) {
  std::vector<Held> out;
  const Value* allocations = facts.plan.Field("allocations");
  const Value* demands = facts.plan.Field("demands");
  if (allocations == nullptr || !allocations->is(ValueKind::kList) || demands == nullptr ||
      !demands->is(ValueKind::kList))
    return out;
  std::set<std::string> floors;  // the demands whose floor is counted
  for (const Value& b : allocations->items()) {
    const Value* d = demands->FindById(Text(b.Field("demand")));
    if (d == nullptr || Text(b.Field("pool")) != pool) continue;
    std::string slice = Member(Text(d->Field("slice")));
    if (slice == "inference") {
      int64_t kept = std::max(Int(d->Field("floor"), 0), Int(d->Field("gpus"), 0));
      if (kept <= 0 || !floors.insert(Text(d->Field("id"))).second) continue;
      auto [from, to] = Span(d->Field("window"));
      out.push_back({from, to, kept});
    } else if (Research(t, slice) && &b != &a && Text(b.Field("id")) != Text(a.Field("id"))) {
      auto [from, to] = HeldOver(b, demands);
      out.push_back({from, to, std::max(Int(b.Field("gpus"), 0), int64_t{0})});
    }
  }
  return out;
}

// Whether a flag is set (`interruptible: true`).
bool Set(const Value* flag) {
  return flag != nullptr && flag->is(ValueKind::kBool) && flag->bool_value();
}

}  // namespace

std::vector<Fix> FloorCoverSearch(const Target& t, const eval::Facts& facts, FileId file,
                                  std::string_view text, size_t max_tries) {
  std::vector<Fix> out;
  const Value* d = PlanRecord(facts, "demands", t.allocation);
  const Value* allocations = facts.plan.Field("allocations");
  const Value* pools = facts.inventory.Field("pools");
  if (d == nullptr || t.short_by <= 0 || Set(d->Field("interruptible")) || allocations == nullptr ||
      !allocations->is(ValueKind::kList) || pools == nullptr || !pools->is(ValueKind::kList))
    return out;
  // What holds the floor, as the rule counts it: the demand's
  // uninterruptible allocations on production pools (a scale-out's, on any
  // pool but a replacement one).
  bool scale_out = d->Field("scale_out_of") != nullptr;
  const Value* demands = facts.plan.Field("demands");
  for (const Value& b : allocations->items()) {
    if (out.size() >= max_tries) break;
    if (Text(b.Field("demand")) != t.allocation || Set(b.Field("interruptible"))) continue;
    const Value* pool = pools->FindById(Text(b.Field("pool")));
    const Value* gpus = b.Field("gpus");
    if (pool == nullptr || gpus == nullptr || Int(gpus, -1) < 0) continue;
    std::string role = Member(Text(pool->Field("role")));
    if (scale_out ? role == "production-replacement" : role != "production") continue;
    // Room on its pool for it grown, over the whole of its window, beside
    // every other allocation there.
    std::string id = Text(pool->Field("id"));
    auto [from, to] = HeldOver(b, demands);
    int64_t free = LeastFree(CapacityOf(*pool), TakenByPool(facts, b)[id], from, to);
    int64_t grown = 0;
    if (__builtin_add_overflow(Int(gpus, 0), t.short_by, &grown) || free < grown) continue;
    std::optional<Replacement> r = ReplaceScalar(file, text, *gpus, std::to_string(grown));
    if (!r) continue;
    out.push_back({"grow `" + Text(b.Field("id")) + "` to " + std::to_string(grown) +
                       " GPUs, adding the " + std::to_string(t.short_by) + " demand `" +
                       t.allocation + "` lacks (pool `" + id + "` has " + std::to_string(free) +
                       " free beside the others over its window)",
                   {std::move(*r)}});
  }
  return out;
}

std::vector<Fix> FloorSearch(const Target& t, const eval::Facts& facts, FileId file,
                             std::string_view text, size_t max_tries) {
  Subject s;
  if (!SubjectOf(t, facts, &s)) return {};
  std::string pool = Text(s.pool->Field("id"));
  return PoolAlternatives(
      t, facts, s, TakenByPool(facts, *s.allocation), KeptAndTaken(t, facts, *s.allocation, pool),
      "pool `" + pool + "` above the floors it keeps",
      "what pool `" + pool + "` has left above its floors and the other research over its window",
      file, text, max_tries);
}

}  // namespace capops::repair
