// SPDX-License-Identifier: Apache-2.0
// The plan side of the corpus generator, and its entry point GenerateCorpus
// (corpus.h): demands of every slice with allocations placed so that the
// corpus breaks no rule of the shipped pack — pools are never overcommitted
// (windowed allocations get week-long slots of their own, windowless ones
// fit a budget), exploration sessions never hold more than the cap at once
// plan-wide, groups fit their pools, data stays in its region, evidence is
// supply, services keep floors, tested spares and scale-outs — and then,
// with `--defects`, sites broken on purpose (Fault).
#include "benchmarks/corpus.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "benchmarks/corpus_model.h"

namespace capops::bench {

namespace {

std::string Numbered(const char* prefix, size_t n, int width = 5) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s-%0*zu", prefix, width, n);
  return buf;
}

/// Pools by role, region and accelerator type, to find where a demand can run.
/// Pools inside a managed service are listed apart (`Services`): only
/// exploration sized on the service runs there.
class PoolIndex {
 public:
  explicit PoolIndex(const Inventory& inv) : types_(inv.types.size()) {
    exact_.resize(kRoleCount * kRegionCount * types_);
    regional_.resize(kRoleCount * kRegionCount);
    by_role_.resize(kRoleCount);
    services_.resize(kRegionCount);
    for (size_t i = 0; i < inv.pools.size(); ++i) {
      const Pool& p = inv.pools[i];
      if (p.service >= 0) {
        services_[p.region].push_back(static_cast<int>(i));
        continue;
      }
      size_t role = static_cast<size_t>(p.role);
      exact_[(role * kRegionCount + p.region) * types_ + p.accel].push_back(static_cast<int>(i));
      regional_[role * kRegionCount + p.region].push_back(static_cast<int>(i));
      by_role_[role].push_back(static_cast<int>(i));
    }
  }
  const std::vector<int>& Of(PoolRole role, int region, int accel) const {
    return exact_[(static_cast<size_t>(role) * kRegionCount + region) * types_ + accel];
  }
  const std::vector<int>& Of(PoolRole role, int region) const {
    return regional_[static_cast<size_t>(role) * kRegionCount + region];
  }
  const std::vector<int>& Of(PoolRole role) const { return by_role_[static_cast<size_t>(role)]; }
  const std::vector<int>& Services(int region) const { return services_[region]; }

 private:
  size_t types_;
  std::vector<std::vector<int>> exact_, regional_, by_role_, services_;
};

/// Counters that keep ids unique across the plans of one corpus.
struct Ids {
  size_t demand = 0, allocation = 0, change = 0, benchmark = 0;
};

/// The weeks of the corpus's two years a windowed allocation may start in:
/// every reservation holds from a week before the first to the 104th.
constexpr int kWeeks = 104;

using Checks = std::vector<std::pair<std::string, std::string>>;

Checks AllChecks(const char* status) {
  return {{"quality", status},
          {"memory", status},
          {"numerics", status},
          {"completion-window", status},
          {"checkpoint", status}};
}

std::vector<Substitute> Substitutes(size_t services) {
  return {
      {0, 1, -1, AllChecks("passed")},  // h100-80 → a100-80
      {0, 2, -1, AllChecks("passed")},  // h100-80 → h200-141
      {1, 0, -1, AllChecks("passed")},  // a100-80 → h100-80
      {4,
       0,
       -1,
       {{"quality", "passed"},
        {"memory", "passed"},
        {"numerics", "pending"},
        {"completion-window", "passed"},
        {"checkpoint", "passed"}}},
      {1,
       3,
       -1,
       {{"quality", "passed"},
        {"memory", "passed"},
        {"numerics", "failed"},
        {"completion-window", "not-run"},
        {"checkpoint", "not-run"}}},
      {5, 6, -1, AllChecks("passed")},  // l4-24 → l40s-48
      // h200-141 → mi300-192 inside the last managed service only.
      {2, 3, static_cast<int>(services) - 1, AllChecks("passed")},
  };
}

class PlanBuilder {
 public:
  PlanBuilder(Inventory* inv, const PoolIndex& index, Rng* rng, Injector* faults, Ids* ids)
      : inv_(*inv), index_(index), rng_(*rng), fault_(*faults), ids_(*ids) {
    for (const Supply& s : inv_.supply) {
      if (s.kind == "reservation" || s.kind == "commitment") paid_.insert(s.id);
    }
  }

  Plan Build(size_t plan_index, size_t allocations);

 private:
  struct Borrower {  // an exploration allocation to move onto a production pool
    size_t allocation;
    int region;
  };

  bool AddExploration();
  bool AddTraining();
  int TrainingAlternative(const Demand& d, const std::string& primary, int region);
  bool AddTuning();
  bool AddInference();
  void AddAggregate();
  void SetFloors();
  void PlaceBorrowers();
  void AddBenchmarks();
  Decision MakeDecision();

  size_t Remaining() const { return quota_ - plan_.allocations.size(); }
  bool Fits(int pool, int gpus, bool windowed, int weeks = 1) const;
  int FindPool(const std::vector<int>& candidates, int gpus, bool windowed, int weeks = 1);
  size_t NewAllocation(const Demand& d, int pool, int gpus);
  void Hold(int pool, int gpus) { inv_.pools[pool].always_used += gpus; }
  bool Slot(int pool, int weeks, int days, bool with_end, int* gpus, Window* w, int after = -1);
  bool TakeSession(int gpus, Window* w);
  void AddCommitment(Allocation* a) const;
  bool Paid(const Allocation& a) const;

  Inventory& inv_;
  const PoolIndex& index_;
  Rng& rng_;
  Injector& fault_;
  Ids& ids_;
  std::unordered_set<std::string> paid_;  // ids of reservations and commitments
  Plan plan_;
  size_t quota_ = 0;
  std::vector<size_t> training_;  // indexes of training demands in plan_.demands
  std::vector<size_t> services_;  // indexes of production services in plan_.demands
  std::vector<Borrower> borrowers_;
  std::vector<int> servable_;  // production pools whose hardware has tested spares
  // Production pools services run on, by region and accelerator; the others
  // (every fourth) are kept for headroom research may borrow.
  std::vector<std::vector<std::vector<int>>> serving_;
  std::vector<int> floors_;      // per pool: what the services it serves protect
  std::vector<int> scale_peak_;  // per pool: the largest scale-out on it (one at a time)
  // Exploration sessions: plan-wide, two GPUs at a time (the cap), in
  // sessions of working hours, `per_day` a day.
  int per_day_ = 2, session_ = 0, lanes_ = 0;
  int gap_ = 0;  // the most sessions skipped between two, to spread them over the two years
  // How much larger than the smallest a demand is. One at every plan size:
  // a large plan has more demands of the same sizes (about one per four
  // allocations), so that a rule whose cost grows with demands × allocations
  // shows it, and the growth benchmark names it.
  int scale_ = 1;
};

// The first week, from `from` on (round to the start when `wrap`), that
// begins `weeks` free weeks of `p`; -1 if none.
int FreeWeeks(const Pool& p, int weeks, int from, bool wrap) {
  for (int i = 0; i < kWeeks; ++i) {
    int start = from + i;
    if (start + weeks > kWeeks) {
      if (!wrap) return -1;
      start -= kWeeks;
      if (start < 0) continue;
    }
    bool free = start + weeks <= kWeeks;
    for (int w = start; free && w < start + weeks; ++w) free = !p.used_weeks[w];
    if (free) return start;
  }
  return -1;
}

bool PlanBuilder::Fits(int pool, int gpus, bool windowed, int weeks) const {
  const Pool& p = inv_.pools[pool];
  return windowed ? gpus <= p.Capacity() - p.always_budget && FreeWeeks(p, weeks, 0, false) >= 0
                  : p.always_used + gpus <= p.always_budget;
}

int PlanBuilder::FindPool(const std::vector<int>& candidates, int gpus, bool windowed, int weeks) {
  if (candidates.empty()) return -1;
  for (int probe = 0; probe < 8; ++probe) {
    int pool = candidates[rng_.Below(candidates.size())];
    if (Fits(pool, gpus, windowed, weeks)) return pool;
  }
  return -1;
}

size_t PlanBuilder::NewAllocation(const Demand& d, int pool, int gpus) {
  Allocation a;
  a.id = Numbered("a", ids_.allocation++, 6);
  a.demand = d.id;
  a.pool = pool;
  a.gpus = gpus;
  const Pool& p = inv_.pools[pool];
  a.evidence.push_back(p.own_supply);
  if (!p.service_quota.empty()) a.evidence.push_back(p.service_quota);
  if (fault_(Fault::kCitedTwice)) a.evidence.push_back(p.own_supply);
  plan_.allocations.push_back(std::move(a));
  return plan_.allocations.size() - 1;
}

// Free weeks of a pool, from a week drawn at random (or the first after
// `after`), so that the plan spreads over the two years; with
// Fault::kOvercommit, a taken week again, for the whole pool. False if the
// pool has no such weeks.
bool PlanBuilder::Slot(int pool, int weeks, int days, bool with_end, int* gpus, Window* w,
                       int after) {
  Pool& p = inv_.pools[pool];
  int taken = -1;
  for (int i = 0; i < kWeeks && taken < 0; ++i) taken = p.used_weeks[i] ? i : -1;
  int week = -1;
  if (taken >= 0 && fault_(Fault::kOvercommit)) {
    week = taken;
    *gpus = p.Capacity();
  } else {
    week = after >= 0 ? FreeWeeks(p, weeks, after, false)
                      : FreeWeeks(p, weeks, static_cast<int>(rng_.Below(kWeeks)), true);
    if (week < 0) return false;
    for (int i = week; i < week + weeks; ++i) p.used_weeks[i] = true;
  }
  int start = BaseDay() + 7 * week;
  *w = with_end ? Window{start, start + days, ""} : Window{start, -1, std::to_string(days) + "d"};
  return true;
}

// The next session with `gpus` lanes free, from 09:00 UTC; false when the
// two years are full.
bool PlanBuilder::TakeSession(int gpus, Window* w) {
  if (lanes_ + gpus > 2 && lanes_ > 0) {
    ++session_;
    lanes_ = 0;
  }
  if (session_ >= 728 * per_day_) return false;
  lanes_ += gpus;
  int minutes = 480 / per_day_;
  *w = Window{BaseDay() + session_ / per_day_, -1, std::to_string(minutes / 60) + "h",
              9 * 60 + (session_ % per_day_) * minutes};
  return true;
}

void PlanBuilder::AddCommitment(Allocation* a) const {
  const Pool& p = inv_.pools[a->pool];
  const std::string& c = inv_.commitment[p.region][p.accel];
  if (!c.empty()) a->evidence.push_back(c);
}

// Whether `a` cites paid capacity: a reservation or a commitment.
bool PlanBuilder::Paid(const Allocation& a) const {
  for (const std::string& e : a.evidence) {
    if (paid_.count(e) > 0) return true;
  }
  return false;
}

bool PlanBuilder::AddExploration() {
  fault_.BeginSite();
  const std::vector<int>& shared = index_.Of(PoolRole::kShared);
  if (shared.empty()) return false;
  int region = inv_.pools[shared[rng_.Below(shared.size())]].region;
  Demand d;
  d.id = Numbered("explore", ids_.demand);
  d.slice = Slice::kExploration;
  d.region = region;
  d.gpus = rng_.Between(1, 2);
  d.schedule = rng_.Chance(0.7) ? "working-hours" : "Mon-Fri 09:00-17:00 Europe/Berlin";
  d.interruptible = true;
  d.max_hold = "8h";
  d.checkpoint = Checkpoint{!fault_(Fault::kNoRestoreTest), true};
  bool release_on_allocation = rng_.Chance(0.3);
  bool no_release = fault_(Fault::kNoRelease);
  if (!release_on_allocation && !no_release) d.release_condition = "End of each working day";
  if (!DefaultApproved(region)) d.dataset = Dataset{region, "500GB", "", {region}, "", ""};
  if (rng_.Chance(0.15)) {
    d.requirements =
        Requirements{fault_(Fault::kRequirementUnmet) ? "256GiB" : "16GiB", "", "", "", "", ""};
  }
  if (fault_(Fault::kExplorationTooBig)) d.gpus = 4;
  int pool = -1;
  if (fault_(Fault::kReplacementNotFree))
    pool = FindPool(index_.Of(PoolRole::kReplacement, region), d.gpus, false);
  if (pool < 0 && DefaultApproved(region) && fault_(Fault::kUnapprovedRegion)) {
    const std::vector<int>& far = index_.Of(PoolRole::kShared, 2);
    if (!far.empty()) pool = far[rng_.Below(far.size())];
  }
  const std::vector<int>& services = index_.Services(region);
  bool on_service = !services.empty() && rng_.Chance(0.25);
  if (pool < 0 && on_service) {
    pool = services[rng_.Below(services.size())];
    if (!fault_(Fault::kUnsizedOnService)) d.service = inv_.pools[pool].service;
  }
  const std::vector<int>& near = index_.Of(PoolRole::kShared, region);
  if (pool < 0 && !near.empty()) pool = near[rng_.Below(near.size())];
  if (pool < 0) return false;
  if (inv_.pools[pool].role == PoolRole::kReplacement) Hold(pool, d.gpus);
  // A few sessions, each an allocation of its own.
  int sessions = rng_.Between(1, 1 + scale_ * scale_ / 2);
  Window session;
  int made = 0;
  for (; made < sessions && Remaining() > 0; ++made) {
    // A demand's sessions follow one another, a few days apart.
    int skip = static_cast<int>(rng_.Below(gap_ + 1)) + (made > 0 && lanes_ > 0 ? 1 : 0);
    if (skip > 0) {
      session_ += skip;
      lanes_ = 0;
    }
    if (!TakeSession(d.gpus, &session)) break;
    Allocation& a = plan_.allocations[NewAllocation(d, pool, d.gpus)];
    a.window = session;
    if (!fault_(Fault::kNoQueue)) a.queue_position = rng_.Between(1, 20);
    if (rng_.Chance(0.3)) {
      a.interruptible = true;
      a.max_hold = "4h";
    }
    if (release_on_allocation && !no_release)
      a.release_condition = "Released at the end of the day";
    const Pool& p = inv_.pools[pool];
    if (p.role == PoolRole::kShared && p.service < 0 && rng_.Chance(0.15))
      borrowers_.push_back({plan_.allocations.size() - 1, region});
  }
  if (made == 0) return false;
  ++ids_.demand;
  plan_.demands.push_back(std::move(d));
  return true;
}

bool PlanBuilder::AddTraining() {
  fault_.BeginSite();
  const std::vector<int>& research = index_.Of(PoolRole::kResearch);
  if (research.empty() || Remaining() == 0) return false;
  const Pool& anchor = inv_.pools[research[rng_.Below(research.size())]];
  const AcceleratorType& type = inv_.types[anchor.accel];
  Demand d;
  d.slice = Slice::kTraining;
  d.region = anchor.region;
  d.home_accel = anchor.accel;
  // A training that states only what it requires, not the accelerator, is
  // kept to plans of a few thousand allocations: the pack's evidence check
  // (CAP-GOV-004) joins each one with every benchmark and every allocation.
  if (rng_.Chance(0.9)) d.accel = anchor.accel;
  d.concurrent = true;
  d.hosts = 1 << rng_.Below(3);
  d.gpus_per_host = type.gpus_per_host;
  int group = d.hosts * d.gpus_per_host;
  int runs = std::min<int>(rng_.Between(1, 2 + scale_), static_cast<int>(Remaining()));
  int pool =
      FindPool(index_.Of(PoolRole::kResearch, d.region, d.home_accel), group, true, 2 * runs);
  if (pool < 0) return false;
  d.id = Numbered("train", ids_.demand++);
  int minimum = std::max(1, group / 2);
  d.minimum_viable = GroupSize{minimum, d.hosts > 1 ? d.hosts / 2 : -1};
  if (rng_.Chance(0.7)) d.preferred = GroupSize{group, -1};
  d.requirements = Requirements{type.memory, type.interconnect, "5GB/s", "", "", ""};
  if (rng_.Chance(0.5)) {
    d.requirements->interconnect_bandwidth = "600GB/s";
    d.requirements->fabric_bandwidth = "25GB/s";
    d.requirements->host_memory = "256GiB";
  }
  d.image = "registry.example/" + d.id + ":1." + std::to_string(rng_.Between(0, 9));
  std::vector<int> approved;
  if (!DefaultApproved(d.region)) approved.push_back(d.region);
  std::string bandwidth = DefaultApproved(d.region) && rng_.Chance(0.1) ? "10GB/s" : "";
  d.dataset = Dataset{d.region,  std::to_string(rng_.Between(1, 60)) + "TB",  "approved", approved,
                      bandwidth, std::to_string(rng_.Between(6, 12)) + "GB/s"};
  d.readiness = Readiness{{"ready", "ready", "validated", "tested", "tested"}, -1};
  bool pending = rng_.Chance(0.2);  // the image is promised by a date before the first run
  if (pending) d.readiness->items[1] = "pending";
  d.checkpoint = Checkpoint{!fault_(Fault::kTrainingRestore), true};
  d.release_condition = "Reclaim after artifact validation and data cleanup";
  d.model_life = "730d";
  d.model_version = d.id + "-v" + std::to_string(rng_.Between(1, 4));
  if (rng_.Chance(0.3)) {
    d.utilization_target = "0." + std::to_string(rng_.Between(60, 85));
    d.quality_gate = "Defect recall on the versioned benchmark stays within 1 point";
    d.quality_gate_result = "passed";
  }
  if (fault_(Fault::kNoShape)) (rng_.Chance(0.5) ? d.image : d.requirements->storage_read).clear();
  if (fault_(Fault::kUnmeasuredRead)) d.dataset->measured_read = rng_.Chance(0.5) ? "" : "1GB/s";
  if (fault_(Fault::kNoSizes)) d.minimum_viable.reset();
  if (d.minimum_viable && fault_(Fault::kMinimumAbovePreferred)) d.minimum_viable->gpus = group + 8;
  if (fault_(Fault::kFarDataset)) {
    d.dataset->region = d.region == 0 ? 1 : 0;
    d.dataset->transfer_bandwidth.clear();
  }
  if (fault_(Fault::kNotReady)) {
    static const int kItems[] = {0, 1, 3, 4};  // not `software`: tuning builds on it
    d.readiness->items[kItems[rng_.Below(4)]] = rng_.Chance(0.5) ? "pending" : "";
    pending = false;
  }
  bool short_life = fault_(Fault::kShortModelLife);
  if (short_life) d.model_life = "180d";
  // The runs, one after another on the pool: the whole group for five
  // days, or now and then the minimum viable group for the ten days it
  // takes at that size.
  std::string first;
  int first_start = 0, last_end = 0;
  for (int run = 0; run < runs; ++run) {
    fault_.BeginSite();
    int at = pool;
    if (run > 0 && fault_(Fault::kMixedGroup)) {
      std::vector<int> others;
      for (int p : index_.Of(PoolRole::kResearch, d.region)) {
        if (inv_.pools[p].accel != d.home_accel) others.push_back(p);
      }
      int other = FindPool(others, group, true);
      if (other >= 0) at = other;
    }
    if (!Fits(at, group, true, run > 0 ? 2 : 1)) break;
    bool small = run > 0 && rng_.Chance(0.2);
    int gpus = small ? minimum : group;
    if (fault_(Fault::kPartialGroup)) gpus = std::max(1, minimum / 2);
    bool stretch_short = small && fault_(Fault::kShortStretch);
    int weeks = small && !stretch_short ? 2 : 1;
    Window w;
    if (!Slot(at, weeks, 7 * weeks - 2 - (weeks - 1) * 2, rng_.Chance(0.5), &gpus, &w,
              first.empty() ? -1 : (last_end - BaseDay() + 6) / 7))
      break;
    Allocation& a = plan_.allocations[NewAllocation(d, at, gpus)];
    a.window = w;
    if (short_life || rng_.Chance(0.1)) AddCommitment(&a);
    if (fault_(Fault::kCatalogGroup)) a.evidence = {inv_.catalog[inv_.pools[at].accel]};
    int end = w.start + 7 * weeks - 2 - (weeks - 1) * 2;
    if (first.empty()) {
      first = a.id;
      first_start = w.start;
    }
    last_end = std::max(last_end, end);
  }
  if (first.empty()) return false;
  d.window = Window{first_start, -1, "5d"};
  d.business_window_end = std::max(last_end, first_start + 10) + rng_.Between(1, 10);
  fault_.BeginSite();
  if (fault_(Fault::kPastBusinessWindow)) d.business_window_end = first_start + 6;
  if (fault_(Fault::kLateRun)) d.business_window_end = last_end - 1;
  if (d.accel >= 0 && Remaining() > 0 && rng_.Chance(0.25)) {
    // A dataset that can be moved fast enough may be trained on in the
    // other default region.
    int region = d.region;
    if (!d.dataset->transfer_bandwidth.empty() && d.dataset->region == d.region)
      region = 1 - d.region;
    int start = TrainingAlternative(d, first, region);
    if (start >= 0) first_start = std::min(first_start, start);
  }
  if (pending) d.readiness->ready_by = first_start - rng_.Between(1, 5);
  training_.push_back(plan_.demands.size());
  plan_.demands.push_back(std::move(d));
  return true;
}

// A fallback placement of the whole group on a validated substitute (or,
// broken, an unvalidated one); the day its window starts, or -1 if none.
int PlanBuilder::TrainingAlternative(const Demand& d, const std::string& primary, int region) {
  fault_.BeginSite();
  bool unvalidated = fault_(Fault::kUnvalidatedSubstitute);
  std::vector<int> accels;
  for (size_t c = 0; c < inv_.types.size(); ++c) {
    if (!inv_.types[c].training || static_cast<int>(c) == d.home_accel) continue;
    bool validated = false;
    for (const Substitute& s : plan_.substitutes) {
      validated = validated || (s.service < 0 && s.replaces == d.home_accel &&
                                s.candidate == static_cast<int>(c) && s.validated());
    }
    if (validated != unvalidated) accels.push_back(static_cast<int>(c));
  }
  if (accels.empty()) return -1;
  int group = d.hosts * d.gpus_per_host;
  int pool = FindPool(index_.Of(PoolRole::kResearch, region, accels[rng_.Below(accels.size())]),
                      group, true);
  if (pool < 0) return -1;
  int gpus = group;
  Window w;
  if (!Slot(pool, 1, 5, true, &gpus, &w)) return -1;
  Allocation& a = plan_.allocations[NewAllocation(d, pool, gpus)];
  a.window = w;
  a.alternative_to = primary;
  return w.start;
}

bool PlanBuilder::AddTuning() {
  fault_.BeginSite();
  if (training_.empty()) return AddTraining();
  const Demand& base = plan_.demands[training_[rng_.Below(training_.size())]];
  Demand d;
  d.id = Numbered("tune", ids_.demand);
  d.slice = Slice::kTuning;
  d.region = base.region;
  d.home_accel = base.home_accel;
  d.based_on = base.id;
  d.max_hold = "3d";
  d.release_condition = "Release when the trial budget is spent";
  if (!DefaultApproved(d.region) && rng_.Chance(0.5))
    d.dataset = Dataset{d.region, "2TB", "approved", {d.region}, "", ""};
  int trials = std::min<int>(rng_.Between(std::max(2, scale_ * scale_), 4 + 2 * scale_ * scale_),
                             static_cast<int>(Remaining()));
  d.max_parallel_trials = trials;
  d.gpus_per_trial = 8;
  if (fault_(Fault::kTuningShape)) {
    if (rng_.Chance(0.5)) {
      d.max_parallel_trials = -1;
    } else {
      d.based_on.clear();
    }
  }
  bool too_many = fault_(Fault::kTooManyTrials);
  if (too_many) d.max_parallel_trials = d.gpus_per_trial = 1;
  if (fault_(Fault::kNoRelease)) d.release_condition.clear();
  int first_start = -1;
  std::map<int, int> at_once;  // trials by the day they start: the same week's overlap
  for (int t = 0; t < trials; ++t) {
    fault_.BeginSite();
    int gpus = 2 * rng_.Between(1, 4);
    bool research = rng_.Chance(0.7);
    const std::vector<int>& near = index_.Of(PoolRole::kResearch, d.region, d.home_accel);
    // Tuning runs on its training configuration's accelerator (CAP-CMP-007).
    std::vector<int> elsewhere;
    if (fault_(Fault::kTuningElsewhere)) {
      for (int p : index_.Of(PoolRole::kShared, d.region)) {
        if (inv_.pools[p].accel != d.home_accel) elsewhere.push_back(p);
      }
    }
    const std::vector<int>& shared =
        !elsewhere.empty() ? elsewhere : index_.Of(PoolRole::kShared, d.region, d.home_accel);
    int pool = FindPool(research && elsewhere.empty() ? near : shared, gpus, true);
    if (pool < 0) pool = FindPool(research ? shared : near, gpus, true);
    if (pool < 0) break;
    bool long_trial = fault_(Fault::kLongTrial);
    Window w;
    if (!Slot(pool, 1, long_trial ? 4 : 3, false, &gpus, &w)) break;
    first_start = first_start < 0 ? w.start : std::min(first_start, w.start);
    ++at_once[w.start];
    Allocation& a = plan_.allocations[NewAllocation(d, pool, gpus)];
    a.window = w;
    if (!fault_(Fault::kNoQueue)) a.queue_position = rng_.Between(1, 40);
    if (rng_.Chance(0.3)) a.max_hold = "3d";
    if (fault_(Fault::kShortHold)) a.max_hold = "1d";
    const Pool& p = inv_.pools[pool];
    if (fault_(Fault::kQuotaEvidence))
      a.evidence = {inv_.quota[p.region][p.accel], inv_.forecast[p.region][p.accel]};
    if (fault_(Fault::kUncited)) a.evidence.clear();
  }
  if (first_start < 0) return false;
  ++ids_.demand;
  // The trial limit: the most trials that run at once.
  if (d.max_parallel_trials > 0 && !too_many) {
    d.max_parallel_trials = 1;
    for (const auto& [day, count] : at_once)
      d.max_parallel_trials = std::max(d.max_parallel_trials, count);
  }
  d.window = Window{first_start, -1, "3d"};
  plan_.demands.push_back(std::move(d));
  return true;
}

// A production service: a floor held on one or two production pools at all
// times, a scale-out of its own for two weeks, now and then a fallback on a
// tested spare, and the envelope it was tested to.
bool PlanBuilder::AddInference() {
  fault_.BeginSite();
  if (servable_.empty() || Remaining() < 2) return false;
  const Pool& anchor = inv_.pools[servable_[rng_.Below(servable_.size())]];
  int region = anchor.region, accel = anchor.accel;
  const std::vector<int>& near = serving_[region][accel];
  // Pools with room for more than a token service, or none.
  int pools[2] = {FindPool(near, 4 * scale_, false), FindPool(near, 4 * scale_, false)};
  int scale_gpus = rng_.Between(2, 8);
  int scale_pool = FindPool(near, scale_gpus, true, 2);
  if (pools[0] < 0 || scale_pool < 0) return false;
  Demand d;
  d.id = Numbered("serve", ids_.demand++);
  d.slice = Slice::kInference;
  d.region = region;
  d.home_accel = d.accel = accel;
  d.image = "registry.example/" + d.id + ":2." + std::to_string(rng_.Between(0, 9));
  d.continuous = true;
  d.utilization_target = "0." + std::to_string(rng_.Between(60, 85));
  d.quality_gate = "Recall on the versioned benchmark stays within 0.5 points";
  d.quality_gate_result = "passed";
  d.model_life = std::to_string(365 * rng_.Between(1, 2)) + "d";
  d.model_version = d.id + "-v" + std::to_string(rng_.Between(1, 9));
  if (!DefaultApproved(region))
    d.dataset = Dataset{region, "1TB", "approved", {region}, "", "2GB/s"};
  d.readiness = rng_.Chance(0.5)
                    ? Readiness{{"ready", "ready", "validated", "tested", "tested"}, -1}
                    : Readiness{{"", "ready", "", "", ""}, -1};
  if (fault_(Fault::kNoQualityGate)) d.quality_gate.clear();
  if (fault_(Fault::kNoShape)) d.image.clear();
  if (fault_(Fault::kNotReady)) d.readiness->items[1] = "pending";
  // The scale-out first, so that a service never lacks one.
  Demand s;
  s.id = Numbered("scale", ids_.demand++);
  s.slice = Slice::kInference;
  s.scale_out_of = d.id;
  s.region = region;
  s.home_accel = accel;
  int gpus = scale_gpus;
  Window w;
  Slot(scale_pool, 2, 14, rng_.Chance(0.5), &gpus, &w);  // FindPool saw the weeks free
  s.window = w;
  s.gpus = scale_gpus;
  Allocation& sa = plan_.allocations[NewAllocation(s, scale_pool, gpus)];
  sa.window = w;
  scale_peak_[scale_pool] = std::max(scale_peak_[scale_pool], gpus);
  // The floor: four to twelve windowless, uninterruptible allocations,
  // within half the tested spares of its hardware.
  int limit = std::min(inv_.spare_half[accel], 100 * scale_ * scale_);
  int count = std::min<int>(rng_.Between(4, 12) * scale_ * scale_, static_cast<int>(Remaining()));
  std::string first;
  int held = 0;
  for (int i = 0; i < count; ++i) {
    int want = std::min(rng_.Between(1, 4), limit - held);
    if (want <= 0) break;
    int pool = pools[i % 2] >= 0 && Fits(pools[i % 2], want, false) ? pools[i % 2]
                                                                    : FindPool(near, want, false);
    if (pool < 0) break;
    Hold(pool, want);
    held += want;
    Allocation& a = plan_.allocations[NewAllocation(d, pool, want)];
    if (rng_.Chance(0.1)) AddCommitment(&a);
    if (first.empty()) first = a.id;
  }
  if (Remaining() > 0 && rng_.Chance(0.3)) {
    int want = rng_.Between(1, 4);
    int spare = FindPool(index_.Of(PoolRole::kReplacement, region, accel), want, false);
    if (spare >= 0) {
      Hold(spare, want);
      plan_.allocations[NewAllocation(d, spare, want)].alternative_to = first;
    }
  }
  d.gpus = d.floor = held;
  d.tested_envelope = held + scale_gpus + rng_.Between(0, 4);
  fault_.BeginSite();
  if (fault_(Fault::kFloorUncovered)) d.floor = held + 4;
  if (fault_(Fault::kSpareShort)) {  // more than every spare holds, stand-ins included
    int spares = 0;
    for (int half : inv_.spare_half) spares += 2 * half + 1;
    d.floor = held + spares;
  }
  if (fault_(Fault::kNoFloor)) d.floor = -1;
  if (fault_(Fault::kNoScaleOut)) d.tested_envelope = -1;
  if (fault_(Fault::kBeyondEnvelope)) d.tested_envelope = held;
  services_.push_back(plan_.demands.size());
  plan_.demands.push_back(std::move(d));
  plan_.demands.push_back(std::move(s));
  return true;
}

void PlanBuilder::AddAggregate() {
  Demand d;
  d.id = Numbered("aggregate", ids_.demand++);
  d.slice = Slice::kAggregate;
  d.gpus = 64 * rng_.Between(1, 4);
  plan_.demands.push_back(std::move(d));
}

// What each production pool keeps: the whole of what each service it
// serves protects (a floor served from several pools is kept on each).
void PlanBuilder::SetFloors() {
  floors_.assign(inv_.pools.size(), 0);
  for (size_t k : services_) {
    const Demand& d = plan_.demands[k];
    std::vector<int> pools;
    for (const Allocation& a : plan_.allocations) {
      if (a.demand == d.id && inv_.pools[a.pool].role == PoolRole::kProduction)
        pools.push_back(a.pool);
    }
    std::sort(pools.begin(), pools.end());
    pools.erase(std::unique(pools.begin(), pools.end()), pools.end());
    for (int p : pools) {
      floors_[p] += std::max(d.floor, d.gpus);
    }
  }
}

// A few exploration sessions borrow production headroom above what the
// pool keeps, with the service owner's approval (or, broken, without it,
// or beyond what is kept).
void PlanBuilder::PlaceBorrowers() {
  for (const Borrower& b : borrowers_) {
    fault_.BeginSite();
    Allocation& a = plan_.allocations[b.allocation];
    // Broken: onto a pool whose services keep it all.
    bool above = fault_(Fault::kBorrowAboveFloor);
    int pool = -1;
    const std::vector<int>& near = index_.Of(PoolRole::kProduction, b.region);
    for (int probe = 0; probe < 32 && pool < 0 && !near.empty(); ++probe) {
      int p = near[rng_.Below(near.size())];
      bool room = floors_[p] + scale_peak_[p] + a.gpus <= inv_.pools[p].Capacity();
      if (!inv_.pools[p].service_owner.empty() && Fits(p, a.gpus, false) && (above ? !room : room))
        pool = p;
    }
    if (pool < 0) continue;
    Pool& p = inv_.pools[pool];
    p.always_used += a.gpus;
    a.pool = pool;
    a.evidence = {p.own_supply};
    if (!fault_(Fault::kBorrowWithoutApproval)) {
      a.approval = Approval{p.service_owner, "service-owner", BaseDay() - 20,
                            Numbered("CHG", ids_.change++)};
    }
  }
}

// A benchmark of each demand on each accelerator it runs on, wherever the
// pack asks for one: training and services (the decision cites a versioned
// benchmark), and every demand with paid capacity (its cost per useful work).
void PlanBuilder::AddBenchmarks() {
  std::vector<std::vector<int>> accels(plan_.demands.size());
  std::vector<bool> paid(plan_.demands.size(), false);
  std::unordered_map<std::string, size_t> by_id;
  for (size_t i = 0; i < plan_.demands.size(); ++i) by_id[plan_.demands[i].id] = i;
  for (const Allocation& a : plan_.allocations) {
    size_t i = by_id[a.demand];
    accels[i].push_back(inv_.pools[a.pool].accel);
    paid[i] = paid[i] || Paid(a);
  }
  for (size_t i = 0; i < plan_.demands.size(); ++i) {
    Demand& d = plan_.demands[i];
    bool service = d.slice == Slice::kInference && d.continuous;
    if (!paid[i] && d.slice != Slice::kTraining && !service) continue;
    fault_.BeginSite();
    d.max_cost = fault_(Fault::kOverBudget) ? "0.10" : "20.00";
    if (d.model_version.empty()) d.model_version = d.id + "-v1";
    if (d.accel >= 0) accels[i].push_back(d.accel);
    std::sort(accels[i].begin(), accels[i].end());
    accels[i].erase(std::unique(accels[i].begin(), accels[i].end()), accels[i].end());
    for (int accel : accels[i]) {
      fault_.BeginSite();
      Benchmark b;
      b.id = Numbered("bm", ids_.benchmark++, 6);
      b.demand = d.id;
      b.accel = accel;
      b.model_version = d.model_version;
      b.data_version = "ds-2027-0" + std::to_string(rng_.Between(1, 9));
      b.gpus = d.slice == Slice::kInference  ? std::max(1, std::min(4, d.gpus))
               : d.slice == Slice::kTraining ? d.hosts * d.gpus_per_host
                                             : 2;
      // Useful work that makes a GPU-hour cost half the pool's price.
      b.useful_work_per_hour = std::to_string(b.gpus * 2000) + ".0";
      b.memory_pressure =
          fault_(Fault::kBadBenchmark) ? "1.20" : "0." + std::to_string(rng_.Between(40, 92));
      b.input_stall = "0.0" + std::to_string(rng_.Between(1, 9));
      if (d.slice == Slice::kInference) {
        b.p99_latency_ms = std::to_string(rng_.Between(20, 45)) + ".5";
        b.latency_slo_ms = "50.0";
      }
      plan_.benchmarks.push_back(std::move(b));
    }
  }
}

Decision PlanBuilder::MakeDecision() {
  Decision d;
  d.decision =
      "Run the quarter's training groups and hold every inference floor on production pools";
  d.owner = "ai-product-owner";
  d.readiness_owner = "research-lead";
  d.headroom_owner = "reliability-lead";
  d.deadline = BaseDay() - 14;
  d.evidence = {"versioned-benchmark", "dataset read test",          "checkpoint restore result",
                "capacity-evidence",   "inference-replacement-test", "load-test-2027q1"};
  d.trade_off = "Fewer simultaneous experiments in exchange for a clearer production margin";
  d.residual_risk = "Training may be deferred or finish late";
  d.revisit = {"after-first-run", "model-change", "inference-beyond-tested-envelope"};
  d.release_condition = "Reclaim training capacity after artifact validation and data cleanup";
  fault_.BeginSite();
  if (fault_(Fault::kDecisionIncomplete)) d.trade_off.clear();
  fault_.BeginSite();
  if (fault_(Fault::kLateDeadline)) d.deadline = BaseDay() + 400;
  fault_.BeginSite();
  if (fault_(Fault::kMissingEvidence)) d.evidence.erase(d.evidence.begin() + 4);
  fault_.BeginSite();
  if (fault_(Fault::kSameOwner)) d.headroom_owner = d.readiness_owner;
  return d;
}

Plan PlanBuilder::Build(size_t plan_index, size_t allocations) {
  plan_ = Plan{};
  plan_.name = Numbered("synthetic-plan", plan_index, 3);
  plan_.owner = "ai-product-owner";
  plan_.period = Window{BaseDay(), -1, "728d"};
  plan_.substitutes = Substitutes(inv_.services.size());
  quota_ = allocations;
  // Exploration is a few percent of the allocations: sessions short enough
  // that two years of them hold them all under the cap.
  per_day_ = allocations > 40'000 ? 8 : allocations > 15'000 ? 4 : 2;
  session_ = lanes_ = 0;
  // About one allocation in forty is an exploration session: spread for
  // one in fifty, so that the sessions reach into the second year.
  gap_ = std::max(0, 728 * per_day_ / std::max(1, static_cast<int>(allocations / 50)) - 1);
  scale_peak_.assign(inv_.pools.size(), 0);
  // Each plan is evaluated on its own, so each may fill the pools again.
  servable_.clear();
  serving_.assign(kRegionCount, std::vector<std::vector<int>>(inv_.types.size()));
  for (size_t i = 0; i < inv_.pools.size(); ++i) {
    Pool& p = inv_.pools[i];
    p.always_used = 0;
    p.used_weeks.assign(kWeeks, false);
    p.always_budget = p.role == PoolRole::kResearch     ? 0
                      : p.role == PoolRole::kShared     ? 2  // exploration's, at most the cap
                      : p.role == PoolRole::kProduction ? p.Capacity() * 3 / 4
                                                        : p.Capacity() / 2;
    bool lends = i % 4 == 0 && i >= 12;
    if (p.role == PoolRole::kProduction && p.service < 0 && !lends) {
      serving_[p.region][p.accel].push_back(static_cast<int>(i));
      if (inv_.spare_half[p.accel] >= 4) servable_.push_back(static_cast<int>(i));
    }
  }
  static const std::vector<int> kSliceWeights = {12, 25, 23, 40};  // explore, train, tune, serve
  size_t stalled = 0;
  while (Remaining() > 0 && stalled < 1000) {
    size_t before = plan_.allocations.size();
    fault_.BeginSite();
    if (fault_(Fault::kAggregate)) AddAggregate();
    int total = 0, x = rng_.Between(0, 99);
    size_t slice = 0;
    while (x >= (total += kSliceWeights[slice])) ++slice;
    bool added = slice == 0   ? AddExploration()
                 : slice == 1 ? AddTraining()
                 : slice == 2 ? AddTuning()
                              : AddInference();
    (void)added;
    stalled = plan_.allocations.size() == before ? stalled + 1 : 0;
  }
  SetFloors();
  PlaceBorrowers();
  AddBenchmarks();
  plan_.decision = MakeDecision();
  return std::move(plan_);
}

}  // namespace

Corpus GenerateCorpus(const CorpusOptions& options) {
  Rng rng(options.seed);
  Injector faults(&rng, options.defects);
  Inventory inv;
  GenerateInventory(std::max<size_t>(options.pools, 12), &rng, &faults, &inv);
  PoolIndex index(inv);
  Ids ids;
  Corpus corpus;
  corpus.inventory = InventoryYaml(inv);
  corpus.supply = inv.supply.size();
  size_t plans = std::max<size_t>(options.plans, 1);
  size_t total = std::max<size_t>(options.allocations, 1);
  for (size_t i = 0; i < plans; ++i) {
    PlanBuilder builder(&inv, index, &rng, &faults, &ids);
    Plan plan = builder.Build(i, total / plans + (i < total % plans ? 1 : 0));
    corpus.demands += plan.demands.size();
    corpus.allocations += plan.allocations.size();
    corpus.plans.push_back(PlanYaml(inv, plan));
  }
  return corpus;
}

}  // namespace capops::bench
