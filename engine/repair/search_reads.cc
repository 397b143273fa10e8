// SPDX-License-Identifier: Apache-2.0
// Reads of the facts the repair searches share (search.h).
#include <algorithm>

#include "engine/eval/timeline.h"
#include "engine/repair/search.h"

namespace capops::repair {

std::string Text(const Value* v) {
  if (v == nullptr || v->is(ValueKind::kNull)) return "";
  if (v->is(ValueKind::kString)) return std::string(v->string_value());
  return v->ToString();
}

int64_t Int(const Value* v, int64_t otherwise) {
  return v != nullptr && v->is(ValueKind::kInt) ? v->int_value() : otherwise;
}

std::string Member(std::string s) {
  std::replace(s.begin(), s.end(), '_', '-');
  return s;
}

std::pair<int64_t, int64_t> Span(const Value* window) {
  eval::Interval i;
  if (window == nullptr || !eval::ToInterval(*window, &i).is(ValueKind::kNull))
    return {eval::Interval::kOpenStart, eval::Interval::kOpenEnd};
  return {i.start, i.end};
}

std::pair<int64_t, int64_t> HeldOver(const Value& a, const Value* demands) {
  if (const Value* w = a.Field("window")) return Span(w);
  const Value* d = demands ? demands->FindById(Text(a.Field("demand"))) : nullptr;
  return Span(d ? d->Field("window") : nullptr);
}

int64_t Backs(const Value& s, const Value& pool) {
  std::string kind = Member(Text(s.Field("kind")));
  if (kind != "reservation" && kind != "physical-confirmation") return 0;
  if (Text(s.Field("accelerator")) != Text(pool.Field("accelerator"))) return 0;
  std::string s_region = Text(s.Field("region")), region = Text(pool.Field("region"));
  if (!s_region.empty() && !region.empty() && s_region != region) return 0;
  std::string s_service = Text(s.Field("service"));
  if (!s_service.empty() && s_service != Text(pool.Field("service"))) return 0;
  return std::max(Int(s.Field("gpus"), 0), int64_t{0});
}

bool SubjectOf(const Target& t, const eval::Facts& facts, Subject* subject) {
  const Value* allocations = facts.plan.Field("allocations");
  const Value* a = allocations ? allocations->FindById(t.allocation) : nullptr;
  const Value* pools = facts.inventory.Field("pools");
  const Value* pool = a && pools ? pools->FindById(Text(a->Field("pool"))) : nullptr;
  if (a == nullptr || pool == nullptr) return false;
  const Value* demands = facts.plan.Field("demands");
  *subject = {a, pool, demands ? demands->FindById(Text(a->Field("demand"))) : nullptr};
  return true;
}

std::set<std::string> Cited(const Value& a) {
  std::set<std::string> cited;
  if (const Value* e = a.Field("evidence"); e && e->is(ValueKind::kList)) {
    for (const Value& id : e->items()) cited.insert(Text(&id));
  }
  return cited;
}

const Value* PlanRecord(const eval::Facts& facts, const char* list, std::string_view id) {
  const Value* records = facts.plan.Field(list);
  return records != nullptr && records->is(ValueKind::kList) ? records->FindById(id) : nullptr;
}

const Value* ParamRead(const Target& t, std::string_view name) {
  if (t.params == nullptr) return nullptr;
  for (const eval::ParamUse& p : *t.params) {
    if (p.name == name) return &p.value;
  }
  return nullptr;
}

}  // namespace capops::repair
