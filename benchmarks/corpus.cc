// SPDX-License-Identifier: Apache-2.0
// The plan side of the corpus generator, and its entry point GenerateCorpus
// (corpus.h): demands of every slice with allocations placed so that the
// clean corpus never breaks a rule — pools are never overcommitted (windowed
// allocations get a week-long slot of their own, windowless ones fit a
// budget), groups fit their pools, data stays in its region, evidence is
// supply — and then a few sites broken on purpose (Fault).
#include "benchmarks/corpus.h"

#include <algorithm>
#include <cstdio>

#include "benchmarks/corpus_model.h"

namespace capops::bench {

namespace {

std::string Numbered(const char* prefix, size_t n, int width = 5) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s-%0*zu", prefix, width, n);
  return buf;
}

/// Pools by role, region and accelerator type, to find where a demand can run.
class PoolIndex {
 public:
  explicit PoolIndex(const Inventory& inv) : types_(inv.types.size()) {
    exact_.resize(kRoleCount * kRegionCount * types_);
    regional_.resize(kRoleCount * kRegionCount);
    by_role_.resize(kRoleCount);
    for (size_t i = 0; i < inv.pools.size(); ++i) {
      const Pool& p = inv.pools[i];
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

 private:
  size_t types_;
  std::vector<std::vector<int>> exact_, regional_, by_role_;
};

/// Counters that keep ids unique across the plans of one corpus.
struct Ids {
  size_t demand = 0, allocation = 0, change = 0;
};

std::vector<Substitute> Substitutes() {
  auto all = [](const char* status) {
    return std::vector<std::pair<std::string, std::string>>{{"quality", status},
                                                            {"memory", status},
                                                            {"numerics", status},
                                                            {"completion-window", status}};
  };
  return {
      {0, 1, all("passed")},  // h100-80 → a100-80
      {0, 2, all("passed")},  // h100-80 → h200-141
      {1, 0, all("passed")},  // a100-80 → h100-80
      {4,
       0,
       {{"quality", "passed"},
        {"memory", "passed"},
        {"numerics", "pending"},
        {"completion-window", "passed"}}},
      {1,
       3,
       {{"quality", "passed"},
        {"memory", "passed"},
        {"numerics", "failed"},
        {"completion-window", "not-run"}}},
      {5, 6, all("passed")},  // l4-24 → l40s-48
  };
}

class PlanBuilder {
 public:
  PlanBuilder(Inventory* inv, const PoolIndex& index, Rng* rng, Injector* faults, Ids* ids)
      : inv_(*inv), index_(index), rng_(*rng), fault_(*faults), ids_(*ids) {}

  Plan Build(size_t plan_index, size_t allocations);

 private:
  struct Served {  // an inference demand, its allocations [begin, end) and their pools
    size_t demand, begin, end;
    std::vector<int> pools;
  };
  struct Borrower {  // an exploration allocation to move onto a production pool
    size_t allocation;
    int region;
  };

  void AddExploration();
  void AddTraining();
  void TrainingGroup(const Demand& d, bool short_life);
  void TrainingAlternative(const Demand& d, const std::string& primary);
  void AddTuning();
  void AddInference();
  void ServingAllocations(const Demand& d, int pools[2]);
  void AddAggregate();
  void SetFloors();
  void PlaceBorrowers();
  void RaiseFloor(int pool, int gpus);
  Decision MakeDecision(size_t plan_index) const;

  size_t Remaining() const { return quota_ - plan_.allocations.size(); }
  bool Fits(int pool, int gpus, bool windowed) const;
  int FindPool(const std::vector<int>& candidates, int gpus, bool windowed);
  size_t NewAllocation(const Demand& d, int pool, int gpus);
  void Hold(int pool, int gpus) { inv_.pools[pool].always_used += gpus; }
  Window Slot(int pool, int days, bool with_end, int* gpus);
  void AddCommitment(const Demand& d, Allocation* a) const;

  Inventory& inv_;
  const PoolIndex& index_;
  Rng& rng_;
  Injector& fault_;
  Ids& ids_;
  Plan plan_;
  size_t quota_ = 0;
  std::vector<size_t> training_;  // indexes of training demands in plan_.demands
  std::vector<Served> served_;
  std::vector<Borrower> borrowers_;
  std::vector<int> floors_;  // per pool: the floors of the inference demands it serves
  std::vector<std::vector<size_t>> served_on_;  // per pool: indexes into served_
};

bool PlanBuilder::Fits(int pool, int gpus, bool windowed) const {
  const Pool& p = inv_.pools[pool];
  return windowed ? gpus <= p.Capacity() - p.always_budget
                  : p.always_used + gpus <= p.always_budget;
}

int PlanBuilder::FindPool(const std::vector<int>& candidates, int gpus, bool windowed) {
  if (candidates.empty()) return -1;
  for (int probe = 0; probe < 8; ++probe) {
    int pool = candidates[rng_.Below(candidates.size())];
    if (Fits(pool, gpus, windowed)) return pool;
  }
  return -1;
}

size_t PlanBuilder::NewAllocation(const Demand& d, int pool, int gpus) {
  Allocation a;
  a.id = Numbered("a", ids_.allocation++, 6);
  a.demand = d.id;
  a.pool = pool;
  a.gpus = gpus;
  // A reservation backs only its window: a windowless allocation there
  // holds its GPUs for the reservation's window, not at all times.
  a.window = inv_.pools[pool].own_window;
  a.evidence.push_back(inv_.pools[pool].own_supply);
  plan_.allocations.push_back(std::move(a));
  return plan_.allocations.size() - 1;
}

// The next free week of a pool; with Fault::kOvercommit, the last taken
// week again, for the whole pool.
Window PlanBuilder::Slot(int pool, int days, bool with_end, int* gpus) {
  Pool& p = inv_.pools[pool];
  int week = p.slots;
  if (p.slots > 0 && fault_(Fault::kOvercommit)) {
    week = p.slots - 1;
    *gpus = p.Capacity();
  } else {
    ++p.slots;
  }
  int start = BaseDay() + 7 * week;
  return with_end ? Window{start, start + days, ""} : Window{start, -1, std::to_string(days) + "d"};
}

void PlanBuilder::AddCommitment(const Demand& d, Allocation* a) const {
  const std::string& c = inv_.commitment[inv_.pools[a->pool].region][inv_.pools[a->pool].accel];
  if (!c.empty()) a->evidence.push_back(c);
}

void PlanBuilder::AddExploration() {
  fault_.BeginSite();
  const std::vector<int>& shared = index_.Of(PoolRole::kShared);
  int region = inv_.pools[shared[rng_.Below(shared.size())]].region;
  Demand d;
  d.id = Numbered("explore", ids_.demand++);
  d.slice = Slice::kExploration;
  d.region = region;
  d.gpus = rng_.Between(1, 2);
  d.schedule = "working-hours";
  d.interruptible = true;
  d.max_hold = "8h";
  d.checkpoint = Checkpoint{!fault_(Fault::kNoRestoreTest), true};
  bool release_on_allocation = rng_.Chance(0.3);
  bool no_release = fault_(Fault::kNoRelease);
  if (!release_on_allocation && !no_release) d.release_condition = "End of each working day";
  if (!DefaultApproved(region)) d.dataset = Dataset{region, "500GB", "", {region}, ""};
  if (rng_.Chance(0.15)) {
    d.requirements = Requirements{fault_(Fault::kRequirementUnmet) ? "256GiB" : "16GiB", "", ""};
  }
  if (fault_(Fault::kExplorationTooBig)) d.gpus = 4;
  int pool = -1;
  if (fault_(Fault::kReplacementNotFree))
    pool = FindPool(index_.Of(PoolRole::kReplacement, region), d.gpus, false);
  if (pool < 0 && DefaultApproved(region) && fault_(Fault::kUnapprovedRegion)) {
    pool = FindPool(index_.Of(PoolRole::kShared, 2), d.gpus, false);
  }
  if (pool < 0) pool = FindPool(index_.Of(PoolRole::kShared, region), d.gpus, false);
  if (pool >= 0 && Remaining() > 0) {
    Hold(pool, d.gpus);
    Allocation& a = plan_.allocations[NewAllocation(d, pool, d.gpus)];
    if (!fault_(Fault::kNoQueue)) a.queue_position = rng_.Between(1, 20);
    if (rng_.Chance(0.3)) {
      a.interruptible = true;
      a.max_hold = "4h";
    }
    if (release_on_allocation && !no_release)
      a.release_condition = "Released at the end of the day";
    if (inv_.pools[pool].role == PoolRole::kShared && rng_.Chance(0.01)) {
      borrowers_.push_back({plan_.allocations.size() - 1, region});
    }
  }
  plan_.demands.push_back(std::move(d));
}

void PlanBuilder::AddTraining() {
  fault_.BeginSite();
  const std::vector<int>& research = index_.Of(PoolRole::kResearch);
  const Pool& anchor = inv_.pools[research[rng_.Below(research.size())]];
  const AcceleratorType& type = inv_.types[anchor.accel];
  Demand d;
  d.id = Numbered("train", ids_.demand++);
  d.slice = Slice::kTraining;
  d.region = anchor.region;
  d.home_accel = anchor.accel;
  if (rng_.Chance(0.9)) d.accel = anchor.accel;
  d.concurrent = true;
  d.hosts = 1 << rng_.Below(3);
  d.gpus_per_host = type.gpus_per_host;
  int group = d.hosts * d.gpus_per_host;
  d.window = Window{BaseDay() + rng_.Between(0, 60), -1, "5d"};
  d.minimum_viable = GroupSize{std::max(1, group / 2), d.hosts > 1 ? d.hosts / 2 : -1};
  if (rng_.Chance(0.7)) d.preferred = GroupSize{group, -1};
  d.business_window_end = d.window->start + rng_.Between(14, 30);
  d.requirements = Requirements{type.memory, type.interconnect, "5GB/s"};
  d.image = "registry.example/" + d.id + ":1." + std::to_string(rng_.Between(0, 9));
  std::vector<int> approved;
  if (!DefaultApproved(d.region)) approved.push_back(d.region);
  std::string bandwidth = DefaultApproved(d.region) && rng_.Chance(0.1) ? "10GB/s" : "";
  d.dataset = Dataset{d.region, std::to_string(rng_.Between(1, 60)) + "TB", "approved", approved,
                      bandwidth};
  d.readiness = Readiness{"ready", "ready", "validated", "tested", "tested"};
  d.checkpoint = Checkpoint{true, true};
  d.release_condition = "Reclaim after artifact validation and data cleanup";
  d.model_life = "730d";
  if (fault_(Fault::kNoShape)) (rng_.Chance(0.5) ? d.image : d.requirements->storage_read).clear();
  if (fault_(Fault::kNoSizes)) d.minimum_viable.reset();
  if (fault_(Fault::kPastBusinessWindow)) d.business_window_end = d.window->start + 6;
  if (fault_(Fault::kFarDataset)) {
    d.dataset->region = d.region == 0 ? 1 : 0;
    d.dataset->transfer_bandwidth = rng_.Chance(0.5) ? "" : "1GB/s";
    if (!d.dataset->transfer_bandwidth.empty()) d.dataset->size = "200TB";
  }
  if (fault_(Fault::kNotReady)) {
    static const int kItems[] = {0, 1, 3, 4};  // not `software`: tuning builds on it
    (*d.readiness)[kItems[rng_.Below(4)]] = rng_.Chance(0.5) ? "pending" : "";
  }
  bool short_life = fault_(Fault::kShortModelLife);
  if (short_life) d.model_life = "180d";
  TrainingGroup(d, short_life);
  training_.push_back(plan_.demands.size());
  plan_.demands.push_back(std::move(d));
}

// One to four runs of the whole group, each in a slot of its own, then
// sometimes a fallback placement on a validated substitute.
void PlanBuilder::TrainingGroup(const Demand& d, bool short_life) {
  int group = d.hosts * d.gpus_per_host;
  int runs = std::min<int>(rng_.Between(1, 4), static_cast<int>(Remaining()));
  std::string first;
  for (int run = 0; run < runs; ++run) {
    fault_.BeginSite();
    int pool = -1;
    if (d.accel < 0 && run > 0 && fault_(Fault::kMixedGroup)) {
      std::vector<int> others;
      for (int p : index_.Of(PoolRole::kResearch, d.region)) {
        if (inv_.pools[p].accel != d.home_accel) others.push_back(p);
      }
      pool = FindPool(others, group, true);
    }
    if (pool < 0)
      pool = FindPool(index_.Of(PoolRole::kResearch, d.region, d.home_accel), group, true);
    if (pool < 0) break;
    int gpus = fault_(Fault::kPartialGroup) ? group / 2 : group;
    Window w = Slot(pool, 5, true, &gpus);
    Allocation& a = plan_.allocations[NewAllocation(d, pool, gpus)];
    a.window = w;
    if (short_life || rng_.Chance(0.1)) AddCommitment(d, &a);
    if (fault_(Fault::kCatalogGroup)) a.evidence = {inv_.catalog[inv_.pools[pool].accel]};
    if (first.empty()) first = a.id;
  }
  if (!first.empty() && Remaining() > 0 && rng_.Chance(0.25)) TrainingAlternative(d, first);
}

void PlanBuilder::TrainingAlternative(const Demand& d, const std::string& primary) {
  fault_.BeginSite();
  bool unvalidated = fault_(Fault::kUnvalidatedSubstitute);
  std::vector<int> accels;
  for (size_t c = 0; c < inv_.types.size(); ++c) {
    if (!inv_.types[c].training || static_cast<int>(c) == d.home_accel) continue;
    bool validated = false;
    for (const Substitute& s : plan_.substitutes) {
      validated = validated || (s.replaces == d.home_accel && s.candidate == static_cast<int>(c) &&
                                s.validated());
    }
    if (validated != unvalidated) accels.push_back(static_cast<int>(c));
  }
  if (accels.empty()) return;
  int region = d.region;
  // A dataset that can be moved fast enough may be trained on in the other default region.
  if (!d.dataset->transfer_bandwidth.empty() && d.dataset->region == d.region)
    region = 1 - d.region;
  int group = d.hosts * d.gpus_per_host;
  int pool = FindPool(index_.Of(PoolRole::kResearch, region, accels[rng_.Below(accels.size())]),
                      group, true);
  if (pool < 0) return;
  int gpus = group;
  Window w = Slot(pool, 5, true, &gpus);
  Allocation& a = plan_.allocations[NewAllocation(d, pool, gpus)];
  a.window = w;
  a.alternative_to = primary;
}

void PlanBuilder::AddTuning() {
  fault_.BeginSite();
  if (training_.empty()) return AddTraining();
  const Demand& base = plan_.demands[training_[rng_.Below(training_.size())]];
  Demand d;
  d.id = Numbered("tune", ids_.demand++);
  d.slice = Slice::kTuning;
  d.region = base.region;
  d.home_accel = base.home_accel;
  d.based_on = base.id;
  d.window = Window{BaseDay() + rng_.Between(0, 60), -1, "3d"};
  d.max_parallel_trials = rng_.Between(2, 8);
  d.max_hold = "3d";
  d.release_condition = "Release when the trial budget is spent";
  if (!DefaultApproved(d.region)) d.dataset = Dataset{d.region, "2TB", "approved", {d.region}, ""};
  if (fault_(Fault::kTuningShape)) {
    if (rng_.Chance(0.5)) {
      d.max_parallel_trials = -1;
    } else {
      d.based_on.clear();
    }
  }
  if (fault_(Fault::kNoRelease)) d.release_condition.clear();
  int trials = std::min<int>(rng_.Between(2, 8), static_cast<int>(Remaining()));
  for (int t = 0; t < trials; ++t) {
    fault_.BeginSite();
    int gpus = 2 * rng_.Between(1, 4);
    bool research = rng_.Chance(0.7);
    const std::vector<int>& near = index_.Of(PoolRole::kResearch, d.region, d.home_accel);
    // Tuning runs on its training configuration's accelerator (CAP-CMP-007).
    const std::vector<int>& shared = fault_(Fault::kTuningElsewhere)
                                         ? index_.Of(PoolRole::kShared, d.region)
                                         : index_.Of(PoolRole::kShared, d.region, d.home_accel);
    int pool = FindPool(research ? near : shared, gpus, true);
    if (pool < 0) pool = FindPool(research ? shared : near, gpus, true);
    if (pool < 0) break;
    Window w = Slot(pool, 3, false, &gpus);
    Allocation& a = plan_.allocations[NewAllocation(d, pool, gpus)];
    a.window = w;
    if (!fault_(Fault::kNoQueue)) a.queue_position = rng_.Between(1, 40);
    const Pool& p = inv_.pools[pool];
    if (fault_(Fault::kQuotaEvidence))
      a.evidence = {inv_.quota[p.region][p.accel], inv_.forecast[p.region][p.accel]};
    if (fault_(Fault::kUncited)) a.evidence.clear();
  }
  plan_.demands.push_back(std::move(d));
}

void PlanBuilder::AddInference() {
  fault_.BeginSite();
  const std::vector<int>& production = index_.Of(PoolRole::kProduction);
  const Pool& anchor = inv_.pools[production[rng_.Below(production.size())]];
  Demand d;
  d.id = Numbered("serve", ids_.demand++);
  d.slice = Slice::kInference;
  d.region = anchor.region;
  d.home_accel = d.accel = anchor.accel;
  d.image = "registry.example/" + d.id + ":2." + std::to_string(rng_.Between(0, 9));
  d.continuous = true;
  d.utilization_target = "0." + std::to_string(rng_.Between(60, 85));
  d.quality_gate = "Recall on the versioned benchmark stays within 0.5 points";
  d.model_life = std::to_string(365 * rng_.Between(1, 2)) + "d";
  if (!DefaultApproved(d.region)) d.dataset = Dataset{d.region, "1TB", "approved", {d.region}, ""};
  if (rng_.Chance(0.3)) d.readiness = Readiness{"ready", "ready", "validated", "tested", "tested"};
  if (fault_(Fault::kNoQualityGate)) d.quality_gate.clear();
  if (fault_(Fault::kNoShape)) d.image.clear();
  const std::vector<int>& near = index_.Of(PoolRole::kProduction, d.region, d.home_accel);
  int pools[2] = {FindPool(near, 4, false), FindPool(near, 4, false)};
  size_t begin = plan_.allocations.size();
  ServingAllocations(d, pools);
  served_.push_back({plan_.demands.size(), begin, plan_.allocations.size(), {}});
  plan_.demands.push_back(std::move(d));
}

// Four to twelve windowless, uninterruptible allocations on one or two
// production pools, then sometimes a fallback on a replacement pool.
void PlanBuilder::ServingAllocations(const Demand& d, int pools[2]) {
  const std::vector<int>& near = index_.Of(PoolRole::kProduction, d.region, d.home_accel);
  int count = std::min<int>(rng_.Between(4, 12), static_cast<int>(Remaining()));
  std::string first;
  for (int i = 0; i < count; ++i) {
    int gpus = rng_.Between(1, 4);
    int pool = pools[i % 2] >= 0 && Fits(pools[i % 2], gpus, false) ? pools[i % 2]
                                                                    : FindPool(near, gpus, false);
    if (pool < 0) break;
    Hold(pool, gpus);
    Allocation& a = plan_.allocations[NewAllocation(d, pool, gpus)];
    if (rng_.Chance(0.1)) AddCommitment(d, &a);
    if (first.empty()) first = a.id;
  }
  if (first.empty() || Remaining() == 0 || !rng_.Chance(0.3)) return;
  int gpus = rng_.Between(1, 4);
  int spare = FindPool(index_.Of(PoolRole::kReplacement, d.region, d.home_accel), gpus, false);
  if (spare < 0) return;
  Hold(spare, gpus);
  plan_.allocations[NewAllocation(d, spare, gpus)].alternative_to = first;
}

void PlanBuilder::AddAggregate() {
  Demand d;
  d.id = Numbered("aggregate", ids_.demand++);
  d.slice = Slice::kAggregate;
  d.gpus = 64 * rng_.Between(1, 4);
  plan_.demands.push_back(std::move(d));
}

// A floor is what the demand holds on production pools at all times (or,
// broken, more); every production pool then keeps the floors it serves.
void PlanBuilder::SetFloors() {
  floors_.assign(inv_.pools.size(), 0);
  served_on_.assign(inv_.pools.size(), {});
  for (size_t k = 0; k < served_.size(); ++k) {
    fault_.BeginSite();
    Served& s = served_[k];
    int held = 0;
    for (size_t i = s.begin; i < s.end; ++i) {
      const Allocation& a = plan_.allocations[i];
      if (inv_.pools[a.pool].role == PoolRole::kProduction) held += a.gpus;
      s.pools.push_back(a.pool);
    }
    Demand& d = plan_.demands[s.demand];
    d.floor = fault_(Fault::kFloorUncovered) ? held + 4 : held;
    if (held > 0) d.gpus = held;
    std::sort(s.pools.begin(), s.pools.end());
    s.pools.erase(std::unique(s.pools.begin(), s.pools.end()), s.pools.end());
    for (int p : s.pools) {
      floors_[p] += d.floor;
      served_on_[p].push_back(k);
    }
  }
}

// Raises the floor of an inference demand that `pool` serves until the pool
// has one GPU fewer than `gpus` left above its floors (CAP-ALC-003; the
// demand then breaks CAP-ALC-002 too).
void PlanBuilder::RaiseFloor(int pool, int gpus) {
  const Served& s = served_[served_on_[pool].front()];
  int raise = inv_.pools[pool].Capacity() - floors_[pool] - gpus + 1;
  plan_.demands[s.demand].floor += raise;
  for (int p : s.pools) floors_[p] += raise;
}

// A few exploration allocations borrow production headroom above the
// floors, with the service owner's approval (or, broken, without it, or
// beyond the floors).
void PlanBuilder::PlaceBorrowers() {
  for (const Borrower& b : borrowers_) {
    fault_.BeginSite();
    Allocation& a = plan_.allocations[b.allocation];
    int gpus = std::max(a.gpus, 1);
    int pool = -1;
    for (int probe = 0; probe < 8 && pool < 0; ++probe) {
      const std::vector<int>& near = index_.Of(PoolRole::kProduction, b.region);
      if (near.empty()) break;
      int p = near[rng_.Below(near.size())];
      if (Fits(p, gpus, false) && floors_[p] + gpus <= inv_.pools[p].Capacity()) pool = p;
    }
    if (pool < 0) continue;
    Pool& p = inv_.pools[pool];
    inv_.pools[a.pool].always_used -= gpus;
    p.always_used += gpus;
    if (!served_on_[pool].empty() && fault_(Fault::kBorrowAboveFloor)) RaiseFloor(pool, gpus);
    a.pool = pool;
    a.evidence = {p.own_supply};
    if (!fault_(Fault::kBorrowWithoutApproval)) {
      a.approval = Approval{p.service_owner.empty() ? "service-owner-on-call" : p.service_owner,
                            "service-owner", BaseDay() - 20, Numbered("CHG", ids_.change++)};
    }
  }
}

Decision PlanBuilder::MakeDecision(size_t plan_index) const {
  Decision d;
  d.decision =
      "Run the quarter's training groups and hold every inference floor on production pools";
  d.owner = "ai-product-owner";
  d.deadline = BaseDay() - 14;
  d.evidence = {"versioned-benchmark", "dataset-read-test",          "checkpoint-restore",
                "capacity-evidence",   "inference-replacement-test", "load-test-2027q1"};
  d.trade_off = "Training may start on validated substitutes rather than wait";
  d.residual_risk = "Training may be deferred or finish late";
  d.revisit = {"after-first-run", "model-change", "inference-beyond-tested-envelope"};
  d.release_condition = "Reclaim training capacity after artifact validation and data cleanup";
  switch (plan_index % 4) {
    case 0:
      d.trade_off.clear();
      break;  // CAP-GOV-001, as in the scenario
    case 2:
      d.evidence.erase(d.evidence.begin() + 4);
      break;  // CAP-GOV-003
    case 3:
      d.deadline = BaseDay() + 30;
      break;  // CAP-GOV-002
    default:
      break;
  }
  return d;
}

Plan PlanBuilder::Build(size_t plan_index, size_t allocations) {
  plan_ = Plan{};
  plan_.name = Numbered("synthetic-plan", plan_index, 3);
  plan_.owner = "ai-product-owner";
  plan_.substitutes = Substitutes();
  plan_.decision = MakeDecision(plan_index);
  quota_ = allocations;
  // Each plan is evaluated on its own, so each may fill the pools again.
  for (Pool& p : inv_.pools) {
    p.always_used = p.slots = 0;
    p.always_budget = p.role == PoolRole::kResearch ? 0
                      : p.role == PoolRole::kShared ? p.Capacity() / 2
                                                    : p.Capacity();
  }
  static const std::vector<int> kSliceWeights = {25, 22, 20,
                                                 33};  // exploration, training, tuning, inference
  size_t stalled = 0;
  while (Remaining() > 0 && stalled < 1000) {
    size_t before = plan_.allocations.size();
    fault_.BeginSite();
    if (fault_(Fault::kAggregate)) AddAggregate();
    int total = 0, x = rng_.Between(0, 99);
    size_t slice = 0;
    while (x >= (total += kSliceWeights[slice])) ++slice;
    switch (slice) {
      case 0:
        AddExploration();
        break;
      case 1:
        AddTraining();
        break;
      case 2:
        AddTuning();
        break;
      default:
        AddInference();
        break;
    }
    stalled = plan_.allocations.size() == before ? stalled + 1 : 0;
  }
  SetFloors();
  PlaceBorrowers();
  return std::move(plan_);
}

}  // namespace

Corpus GenerateCorpus(const CorpusOptions& options) {
  Rng rng(options.seed);
  Injector faults(&rng, options.fault_scale);
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
