// SPDX-License-Identifier: Apache-2.0
// Capacity charts from a plan's facts and its findings: the sweep that
// stacks allocations and the placing of findings. Entry point: BuildPoolCharts.
#include "engine/report/capacity_chart.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "engine/common/units.h"
#include "engine/eval/timeline.h"
#include "engine/report/chart_fields.h"

namespace capops::report {

namespace {

using eval::Interval;
using F = ChartField;
using LocKey = std::tuple<FileId, uint32_t, uint32_t>;

LocKey KeyOf(const SourceLoc& loc) {
  return {loc.file, loc.line, loc.column};
}

std::string Text(const Value* v) {
  return v == nullptr ? std::string() : v->ToString();
}

// The schema's fields are read through the charts' view of it (chart_fields.h).
const Value* Get(const Value& record, ChartField field) {
  return record.Field(FieldName(field));
}

int64_t IntField(const Value& record, ChartField field) {
  const Value* v = Get(record, field);
  return v != nullptr && v->is(ValueKind::kInt) ? v->int_value() : 0;
}

// The window of a record's `window` field (`field`, as its record names it);
// all time when it has none.
std::optional<Interval> WindowOf(const Value* record, ChartField field) {
  const Value* w = record == nullptr ? nullptr : Get(*record, field);
  Interval i;
  if (w == nullptr || eval::ToInterval(*w, &i).is_error()) return std::nullopt;
  return i;
}

// An allocation holds its GPUs in its own window, else its demand's, else always.
Interval HoldingWindow(const Value& allocation, const Value* demand) {
  if (auto own = WindowOf(&allocation, F::kAllocationWindow)) return *own;
  if (auto theirs = WindowOf(demand, F::kDemandWindow)) return *theirs;
  return Interval{};
}

struct Item {
  Interval window;
  int64_t amount = 0;
};

struct Event {
  int64_t at;
  uint32_t item;
  bool starts;
  int16_t offset;  // how the date of `at` was written
};

// One sweep over the sorted window ends of `items`: `on_step(window,
// amount, holding)` for each step, in time order and covering all time,
// `holding` being the items held then in the order they began.
template <typename OnStep>
void Sweep(const std::vector<Item>& items, OnStep on_step) {
  std::vector<Event> events;
  events.reserve(items.size() * 2);
  for (uint32_t k = 0; k < items.size(); ++k) {
    const Interval& w = items[k].window;
    if (w.start >= w.end) continue;
    events.push_back({w.start, k, true, w.start_offset});
    if (w.end != Interval::kOpenEnd) events.push_back({w.end, k, false, w.end_offset});
  }
  // Ends first: windows are half-open. Then by item, so that the form a
  // moment is printed in (its first event's) does not depend on the sort.
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.starts != b.starts) return a.starts < b.starts;
    return a.item != b.item ? a.item < b.item : a.offset < b.offset;
  });
  std::vector<uint32_t> holding;
  int64_t amount = 0;
  Interval step;  // from the last change on
  for (size_t i = 0; i < events.size();) {
    int64_t at = events[i].at;
    int16_t offset = events[i].offset;
    if (at != step.start)
      on_step(Interval{step.start, at, step.start_offset, offset}, amount, holding);
    for (; i < events.size() && events[i].at == at; ++i) {
      const Event& e = events[i];
      if (e.starts) {
        holding.push_back(e.item);
        amount += items[e.item].amount;
      } else {
        holding.erase(std::find(holding.begin(), holding.end(), e.item));
        amount -= items[e.item].amount;
      }
    }
    step = Interval{at, Interval::kOpenEnd, offset};
  }
  on_step(step, amount, holding);
}

// The usage, peak and stacked segments of a chart's bands.
void Stack(const ChartOptions& options, PoolChart* chart) {
  std::vector<Item> items;
  for (const Band& b : chart->bands) items.push_back({b.window, b.gpus});
  std::vector<size_t> last(items.size(), SIZE_MAX);  // each band's latest segment
  Sweep(items, [&](const Interval& window, int64_t amount, const std::vector<uint32_t>& holding) {
    chart->usage.push_back({window, amount});
    chart->peak = std::max(chart->peak, amount);
    int64_t base = 0;
    for (uint32_t k : holding) {
      size_t& l = last[k];
      if (l != SIZE_MAX && chart->segments[l].base == base &&
          chart->segments[l].window.end == window.start) {
        chart->segments[l].window.end = window.end;  // the band goes on at the same height
      } else if (chart->segments.size() < options.max_segments) {
        l = chart->segments.size();
        chart->segments.push_back({k, window, base});
      } else {
        chart->segments_capped = true;
      }
      base += items[k].amount;
    }
  });
  if (chart->segments_capped) chart->segments.clear();
}

// What a plan's facts say about where findings go.
struct Places {
  std::map<LocKey, size_t> pools;          // pool record → pool index
  std::map<LocKey, size_t> allocations;    // allocation record or field → allocation index
  std::map<LocKey, std::string> demands;   // demand record → demand id
  std::map<LocKey, std::string> supplies;  // supply record or field → supply id
};

// The files a finding is located in: where it is reported and what it bound.
bool BelongsTo(const eval::Violation& v, FileId plan_file, const std::set<FileId>& plan_files) {
  bool elsewhere = false;
  auto see = [&](const SourceLoc& loc) {
    if (loc.file == plan_file) return true;
    if (plan_files.count(loc.file) != 0) elsewhere = true;
    return false;
  };
  if (see(v.loc)) return true;
  for (const eval::Evidence& e : v.evidence) {
    if (see(e.loc)) return true;
  }
  return !elsewhere;  // located in no plan at all: an inventory finding
}

// How long `run` takes at `minimum` GPUs rather than `preferred`, rounded
// up: to a whole day for a run of whole days from a plain date, else to a
// second.
int64_t StretchedLength(const Interval& run, int64_t preferred, int64_t minimum) {
  bool days = run.Start().date_only() && run.End().date_only();
  __int128 unit = days ? DateTime::kSecondsPerDay : 1;
  __int128 units = (run.end - run.start) / unit;
  __int128 stretched = (units * preferred + minimum - 1) / minimum * unit;
  return static_cast<int64_t>(std::min<__int128>(stretched, DateTime::kMaxSeconds - run.start));
}

// A training demand's strip, when it has a window and both sizes.
std::optional<TrainingStrip> StripOf(const Value& d) {
  const Value* minimum = Get(d, F::kDemandMinimumViable);
  const Value* preferred = Get(d, F::kDemandPreferred);
  std::optional<Interval> run = WindowOf(&d, F::kDemandWindow);
  if (Text(Get(d, F::kDemandSlice)) != MemberSpelling(ChartMember::kSliceTraining) ||
      minimum == nullptr || !run || run->start == Interval::kOpenStart ||
      run->end == Interval::kOpenEnd) {
    return std::nullopt;
  }
  TrainingStrip t;
  t.demand = std::string(d.Id());
  t.minimum_gpus = IntField(*minimum, F::kGroupSizeGpus);
  t.preferred_gpus = preferred != nullptr
                         ? IntField(*preferred, F::kGroupSizeGpus)
                         : IntField(d, F::kDemandHosts) * IntField(d, F::kDemandGpusPerHost);
  if (t.minimum_gpus <= 0 || t.preferred_gpus <= 0) return std::nullopt;
  t.preferred_run = *run;
  t.minimum_run = *run;
  t.minimum_run.end = run->start + StretchedLength(*run, t.preferred_gpus, t.minimum_gpus);
  if (const Value* end = Get(d, F::kDemandBusinessWindowEnd);
      end != nullptr && end->is(ValueKind::kDate)) {
    t.business_end = end->date_value();
  }
  return t;
}

// An allocation as a band, its window its own else its demand's (among
// `demands`, which may be null).
Band BandOf(const Value& a, const Value* demands) {
  const Value* demand =
      demands == nullptr ? nullptr : demands->FindById(Text(Get(a, F::kAllocationDemand)));
  Band band;
  band.allocation = std::string(a.Id());
  band.demand = Text(Get(a, F::kAllocationDemand));
  band.slice = demand == nullptr ? std::string() : Text(Get(*demand, F::kDemandSlice));
  band.gpus = IntField(a, F::kAllocationGpus);
  band.window = HoldingWindow(a, demand);
  band.alternative = Get(a, F::kAllocationAlternativeTo) != nullptr;
  if (const Value* evidence = Get(a, F::kAllocationEvidence);
      evidence != nullptr && evidence->is(ValueKind::kList)) {
    for (const Value& e : evidence->items()) band.evidence.push_back(Text(&e));
  }
  return band;
}

// Whether a band is drawn elsewhere or otherwise in `after` than in `before`.
bool Moved(const Band& before, const std::string& pool_before, const Band& after,
           const std::string& pool_after) {
  return pool_before != pool_after || before.gpus != after.gpus ||
         before.window.start != after.window.start || before.window.end != after.window.end;
}

class ChartBuilder {
 public:
  ChartBuilder(const PlanFacts& plan, const ChartOptions& options)
      : plan_(plan), options_(options) {}

  std::vector<PoolChart> Build(const std::vector<eval::Violation>& violations,
                               const std::vector<FileId>& plan_files);

 private:
  void AddPools();
  void AddAllocations();
  void AddFloors();
  void AddSupply();
  void AddGhosts(const std::vector<eval::Violation>& violations);
  bool Confirmed(const std::string& kind) const {
    return std::find(options_.confirmed_supply.begin(), options_.confirmed_supply.end(), kind) !=
           options_.confirmed_supply.end();
  }
  void Place(size_t finding, const eval::Violation& v);
  void MarkPool(size_t pool, size_t finding, const Interval& window, bool from_step);

  const PlanFacts& plan_;
  const ChartOptions& options_;
  std::vector<PoolChart> charts_;                            // one per pool of the inventory
  std::vector<std::pair<size_t, size_t>> allocation_bands_;  // per allocation: chart, band
  Places places_;
};

void ChartBuilder::AddPools() {
  const Value* pools = Get(plan_.facts.inventory, F::kInventoryPools);
  if (pools == nullptr || !pools->is(ValueKind::kList)) return;
  for (const Value& p : pools->items()) {
    PoolChart chart;
    chart.pool = std::string(p.Id());
    chart.role = Text(Get(p, F::kPoolRole));
    chart.accelerator = Text(Get(p, F::kPoolAccelerator));
    chart.region = Text(Get(p, F::kPoolRegion));
    chart.capacity = IntField(p, F::kPoolHosts) * IntField(p, F::kPoolGpusPerHost);
    places_.pools.emplace(KeyOf(p.loc()), charts_.size());
    charts_.push_back(std::move(chart));
  }
}

void ChartBuilder::AddAllocations() {
  const Value* allocations = Get(plan_.facts.plan, F::kPlanAllocations);
  const Value* demands = Get(plan_.facts.plan, F::kPlanDemands);
  const Value* pools = Get(plan_.facts.inventory, F::kInventoryPools);
  if (demands != nullptr && demands->is(ValueKind::kList)) {
    for (const Value& d : demands->items())
      places_.demands.emplace(KeyOf(d.loc()), std::string(d.Id()));
  }
  if (allocations == nullptr || !allocations->is(ValueKind::kList) || pools == nullptr) return;
  for (const Value& a : allocations->items()) {
    size_t index = allocation_bands_.size();
    allocation_bands_.emplace_back(SIZE_MAX, SIZE_MAX);
    places_.allocations.emplace(KeyOf(a.loc()), index);
    for (const auto& [key, field] : a.entries())
      places_.allocations.emplace(KeyOf(field.loc()), index);
    const Value* pool = pools->FindById(Text(Get(a, F::kAllocationPool)));
    auto chart = pool == nullptr ? places_.pools.end() : places_.pools.find(KeyOf(pool->loc()));
    if (chart == places_.pools.end()) continue;
    std::vector<Band>& bands = charts_[chart->second].bands;
    allocation_bands_.back() = {chart->second, bands.size()};
    bands.push_back(BandOf(a, demands));
  }
}

// A production pool keeps the floor of each inference demand it serves,
// while that demand runs (the reading of CAP-ALC-003).
void ChartBuilder::AddFloors() {
  const Value* demands = Get(plan_.facts.plan, F::kPlanDemands);
  for (PoolChart& chart : charts_) {
    if (chart.role != MemberSpelling(ChartMember::kRoleProduction) || demands == nullptr) continue;
    std::vector<Item> floors;
    std::set<std::string> seen;
    for (const Band& b : chart.bands) {
      const Value* d = demands->FindById(b.demand);
      if (d == nullptr || b.slice != MemberSpelling(ChartMember::kSliceInference) ||
          Get(*d, F::kDemandFloor) == nullptr || !seen.insert(b.demand).second) {
        continue;
      }
      floors.push_back(
          {WindowOf(d, F::kDemandWindow).value_or(Interval{}), IntField(*d, F::kDemandFloor)});
    }
    if (floors.empty()) continue;
    Sweep(floors, [&](const Interval& window, int64_t amount, const std::vector<uint32_t>&) {
      chart.floor.push_back({window, amount});
    });
  }
}

void ChartBuilder::AddSupply() {
  const Value* supply = Get(plan_.facts.inventory, F::kInventorySupply);
  if (supply == nullptr || !supply->is(ValueKind::kList)) return;
  for (const Value& s : supply->items()) {
    places_.supplies.emplace(KeyOf(s.loc()), std::string(s.Id()));
    for (const auto& [key, field] : s.entries())
      places_.supplies.emplace(KeyOf(field.loc()), std::string(s.Id()));
  }
  for (PoolChart& chart : charts_) {
    std::vector<Item> held;
    std::set<std::string> seen;
    for (const Band& b : chart.bands) {
      for (const std::string& id : b.evidence) {
        const Value* s = supply->FindById(id);
        if (s == nullptr || !seen.insert(id).second || !Confirmed(Text(Get(*s, F::kSupplyKind))) ||
            Text(Get(*s, F::kSupplyAccelerator)) != chart.accelerator) {
          continue;
        }
        const Value* region = Get(*s, F::kSupplyRegion);
        if (region != nullptr && Text(region) != chart.region) continue;
        held.push_back({WindowOf(s, F::kSupplyWindow).value_or(Interval{}),
                        IntField(*s, F::kSupplyGpus)});  // no window: always
      }
    }
    if (held.empty()) continue;
    Sweep(held, [&](const Interval& window, int64_t amount, const std::vector<uint32_t>&) {
      chart.supply.push_back({window, amount});
    });
  }
}

void ChartBuilder::MarkPool(size_t pool, size_t finding, const Interval& window, bool from_step) {
  for (const Mark& m : charts_[pool].marks) {
    if (m.finding == finding) return;
  }
  charts_[pool].marks.push_back({finding, window, from_step});
}

// The allocation (else pool, else supply record, else demand) a finding is
// about, innermost binding first, and the interval to mark (capacity_chart.h).
void ChartBuilder::Place(size_t finding, const eval::Violation& v) {
  std::optional<size_t> pool, allocation;
  std::string demand;
  bool from_step = v.interval.has_value();
  if (auto it = places_.allocations.find(KeyOf(v.loc)); it != places_.allocations.end())
    allocation = it->second;
  for (auto e = v.evidence.rbegin(); e != v.evidence.rend(); ++e) {
    LocKey key = KeyOf(e->loc);
    if (auto it = places_.pools.find(key); !pool && it != places_.pools.end()) pool = it->second;
    if (auto it = places_.allocations.find(key); !allocation && it != places_.allocations.end())
      allocation = it->second;
    if (auto it = places_.demands.find(key); demand.empty() && it != places_.demands.end())
      demand = it->second;
  }
  if (allocation) {
    auto [chart, band] = allocation_bands_[*allocation];
    if (chart == SIZE_MAX) return;
    Interval when = from_step ? *v.interval : charts_[chart].bands[band].window;
    return MarkPool(pool.value_or(chart), finding, when, from_step);
  }
  if (pool) return MarkPool(*pool, finding, v.interval.value_or(Interval{}), from_step);
  if (auto it = places_.supplies.find(KeyOf(v.loc));
      demand.empty() && it != places_.supplies.end()) {
    // Reported at a supply record: on each pool, over each allocation citing it.
    for (size_t c = 0; c < charts_.size(); ++c) {
      for (const Band& b : charts_[c].bands) {
        if (std::find(b.evidence.begin(), b.evidence.end(), it->second) != b.evidence.end())
          MarkPool(c, finding, from_step ? *v.interval : b.window, from_step);
      }
    }
    return;
  }
  if (demand.empty()) return;
  // About a demand: on each pool it is allocated on, over its bands' windows.
  for (size_t c = 0; c < charts_.size(); ++c) {
    for (const Band& b : charts_[c].bands) {
      if (b.demand == demand) MarkPool(c, finding, from_step ? *v.interval : b.window, from_step);
    }
  }
}

// The allocations each finding's first fix moves, shrinks or adds, as ghosts
// on the charts of the pools they would be on; once per fix and allocation.
void ChartBuilder::AddGhosts(const std::vector<eval::Violation>& violations) {
  if (options_.first_fix_facts == nullptr) return;
  std::map<std::string, size_t> chart_of;  // pool id → chart
  for (size_t c = 0; c < charts_.size(); ++c) chart_of.emplace(charts_[c].pool, c);
  const Value* before = Get(plan_.facts.plan, F::kPlanAllocations);
  std::set<std::pair<std::string, std::string>> drawn;  // fix, allocation
  for (const auto& [finding, after] : *options_.first_fix_facts) {
    if (finding >= violations.size() || violations[finding].fixes.empty()) continue;
    const eval::Violation& v = violations[finding];
    // This plan's document, edited: in its file and starting where it does.
    if (v.loc.file != plan_.document.file || after.plan.loc().line != plan_.facts.plan.loc().line)
      continue;
    const Value* allocations = Get(after.plan, F::kPlanAllocations);
    if (allocations == nullptr || !allocations->is(ValueKind::kList)) continue;
    const Value* demands = Get(after.plan, F::kPlanDemands);
    const std::string& fix = v.fixes.front().description;
    for (const Value& a : allocations->items()) {
      Band band = BandOf(a, demands);
      std::string pool = Text(Get(a, F::kAllocationPool));
      const Value* was = before == nullptr ? nullptr : before->FindById(band.allocation);
      if (was != nullptr && !Moved(BandOf(*was, Get(plan_.facts.plan, F::kPlanDemands)),
                                   Text(Get(*was, F::kAllocationPool)), band, pool))
        continue;
      auto chart = chart_of.find(pool);
      if (chart == chart_of.end() || !drawn.emplace(fix, band.allocation).second) continue;
      charts_[chart->second].ghosts.push_back({finding, std::move(band), fix});
    }
  }
}

std::vector<PoolChart> ChartBuilder::Build(const std::vector<eval::Violation>& violations,
                                           const std::vector<FileId>& plan_files) {
  AddPools();
  AddAllocations();
  AddFloors();
  AddSupply();
  std::set<FileId> files(plan_files.begin(), plan_files.end());
  for (size_t i = 0; i < violations.size(); ++i) {
    if (BelongsTo(violations[i], plan_.document.file, files)) Place(i, violations[i]);
  }
  AddGhosts(violations);
  std::vector<PoolChart> out;
  for (PoolChart& chart : charts_) {
    if (chart.bands.empty() && chart.ghosts.empty()) continue;
    Stack(options_, &chart);
    out.push_back(std::move(chart));
  }
  return out;
}

}  // namespace

std::vector<std::string> ConfirmedSupply(const Engine& engine) {
  std::vector<std::string> kinds;
  const Value* param = engine.Param("confirmed_supply");
  if (param == nullptr || !param->is(ValueKind::kList)) return kinds;
  for (const Value& kind : param->items()) {
    if (kind.is(ValueKind::kString)) kinds.push_back(std::string(kind.string_value()));
  }
  return kinds;
}

std::vector<PoolChart> BuildPoolCharts(const PlanFacts& plan,
                                       const std::vector<eval::Violation>& violations,
                                       const std::vector<FileId>& plan_files,
                                       const ChartOptions& options) {
  return ChartBuilder(plan, options).Build(violations, plan_files);
}

std::vector<TrainingStrip> BuildTrainingStrips(const PlanFacts& plan,
                                               const std::vector<eval::Violation>& violations,
                                               const std::vector<FileId>& plan_files) {
  std::vector<TrainingStrip> strips;
  std::map<LocKey, size_t> by_record;  // demand record → strip
  const Value* demands = Get(plan.facts.plan, F::kPlanDemands);
  if (demands == nullptr || !demands->is(ValueKind::kList)) return strips;
  for (const Value& d : demands->items()) {
    std::optional<TrainingStrip> strip = StripOf(d);
    if (!strip) continue;
    by_record.emplace(KeyOf(d.loc()), strips.size());
    strips.push_back(std::move(*strip));
  }
  std::set<FileId> files(plan_files.begin(), plan_files.end());
  for (size_t i = 0; i < violations.size(); ++i) {
    const eval::Violation& v = violations[i];
    if (!BelongsTo(v, plan.document.file, files)) continue;
    for (auto e = v.evidence.rbegin(); e != v.evidence.rend(); ++e) {
      auto it = by_record.find(KeyOf(e->loc));
      if (it == by_record.end()) continue;
      TrainingStrip& t = strips[it->second];
      Interval past = t.minimum_run;
      if (t.business_end && t.business_end->seconds > past.start &&
          t.business_end->seconds < past.end) {
        past.start = t.business_end->seconds;
        past.start_offset = t.business_end->offset;
      }
      t.marks.push_back({i, v.interval.value_or(past), v.interval.has_value()});
      break;
    }
  }
  return strips;
}

namespace {

// The span of finite moments of the windows passed to `see`.
class Span {
 public:
  void See(const Interval& w) {
    for (DateTime t : {w.Start(), w.End()}) {
      if (t.seconds == Interval::kOpenStart || t.seconds == Interval::kOpenEnd) continue;
      if (t.seconds < span_.start) span_.start = t.seconds, span_.start_offset = t.offset;
      if (t.seconds > span_.end) span_.end = t.seconds, span_.end_offset = t.offset;
    }
  }
  void See(const std::vector<Step>& steps) {
    for (const Step& s : steps) See(s.window);
  }
  void See(const std::vector<Mark>& marks) {
    for (const Mark& m : marks) See(m.window);
  }
  void See(const std::vector<Ghost>& ghosts) {
    for (const Ghost& g : ghosts) See(g.band.window);
  }
  std::optional<Interval> Get() const {
    if (span_.start > span_.end) return std::nullopt;
    return span_;
  }

 private:
  Interval span_{Interval::kOpenEnd, Interval::kOpenStart};  // none seen yet
};

}  // namespace

std::optional<eval::Interval> Horizon(const PoolChart& chart) {
  Span span;
  for (const Band& b : chart.bands) span.See(b.window);
  span.See(chart.floor);
  span.See(chart.supply);
  span.See(chart.marks);
  span.See(chart.ghosts);
  return span.Get();
}

std::optional<eval::Interval> Horizon(const TrainingStrip& strip) {
  Span span;
  span.See(strip.preferred_run);
  span.See(strip.minimum_run);
  if (strip.business_end) {
    const DateTime& end = *strip.business_end;
    span.See(Interval{end.seconds, end.seconds, end.offset, end.offset});
  }
  span.See(strip.marks);
  return span.Get();
}

std::string DayText(const DateTime& t) {
  return FormatDateTime(t);
}

}  // namespace capops::report
