// SPDX-License-Identifier: Apache-2.0
// CAP-ALC-003's repair search (repair.h lists its alternatives): research on
// a production pool moved in time to where the pool has its GPUs free above
// the floors it keeps, moved to a research or shared pool, or shrunk to what
// is left above the floors.
#include <algorithm>

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

}  // namespace

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
