// SPDX-License-Identifier: Apache-2.0
// The inventory side of the corpus generator: accelerator types, managed
// services, pools of every role and the supply evidence behind them. Entry
// point: GenerateInventory (corpus_model.h). Also the fault injector and
// the date helpers shared with the plan side.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "benchmarks/corpus_model.h"

namespace capops::bench {

namespace {

// Per eligible site; a few per mille for allocations and demands, more for
// the rarer inventory sites. Indexed by Fault.
constexpr std::array<double, static_cast<size_t>(Fault::kCount)> kRates = {
    0.004,  // kReplacementNotFree
    0.010,  // kFloorUncovered
    0.150,  // kBorrowAboveFloor (of the few borrowers)
    0.002,  // kOvercommit
    0.150,  // kBorrowWithoutApproval
    0.010,  // kNoRestoreTest
    0.004,  // kNoQueue
    0.004,  // kNoRelease
    0.050,  // kUnvalidatedSubstitute (of the alternatives)
    0.050,  // kRequirementUnmet (of the demands stating requirements)
    0.003,  // kPartialGroup
    0.100,  // kMixedGroup (of the groups without a named accelerator)
    0.010,  // kUnapprovedRegion
    0.006,  // kFarDataset
    0.003,  // kAggregate
    0.006,  // kNoShape
    0.008,  // kExplorationTooBig
    0.010,  // kTuningShape
    0.006,  // kNoSizes
    0.006,  // kPastBusinessWindow
    0.150,  // kLongTerm (of the commitments)
    0.005,  // kShortModelLife
    0.010,  // kNoQualityGate
    0.008,  // kNotReady
    0.003,  // kQuotaEvidence
    0.003,  // kCatalogGroup
    0.005,  // kMergedQuota
    0.250,  // kUndocumentedService (of the services)
    0.003,  // kUncited
    0.005,  // kShortReservation
    0.002,  // kTuningElsewhere (of the tuning trials)
};

// The accelerator types every corpus has; training types are offered in
// research and shared pools, inference types in production pools.
const std::vector<AcceleratorType>& Types() {
  static const std::vector<AcceleratorType> types = {
      {"h100-80", "H100-SXM", "80GiB", "nvlink4", "1095d", 86, 8, true, true},
      {"a100-80", "A100-SXM", "80GiB", "nvlink3", "730d", 86, 8, true, false},
      {"h200-141", "H200-SXM", "141GB", "nvlink4", "1460d", 141, 8, true, false},
      {"mi300-192", "MI300X", "192GB", "infinity-fabric", "1095d", 192, 8, true, false},
      {"b200-192", "B200", "192GB", "nvlink5", "", 192, 8, true, false},
      {"l4-24", "L4", "24GiB", "pcie4", "1095d", 26, 4, false, true},
      {"l40s-48", "L40S", "48GiB", "pcie4", "", 52, 4, false, true},
      {"a100-40", "A100-PCIe", "40GiB", "pcie4", "730d", 43, 4, false, true},
  };
  return types;
}

// Index of `weights` drawn in proportion to its entries.
size_t Weighted(Rng* rng, const std::vector<int>& weights) {
  int total = 0;
  for (int w : weights) total += w;
  int x = rng->Between(0, total - 1);
  for (size_t i = 0; i < weights.size(); ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  return weights.size() - 1;
}

Supply MakeSupply(std::string id, const char* kind, size_t accel, int region, int gpus) {
  Supply s;
  s.id = std::move(id);
  s.kind = kind;
  s.accel = static_cast<int>(accel);
  s.region = region;
  s.gpus = gpus;
  return s;
}

std::string Numbered(const char* prefix, size_t n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s-%05zu", prefix, n);
  return buf;
}

// The first twelve pools cycle through the roles in three regions, so that
// even a small corpus has every kind of pool where the faults need one.
void ChooseShape(size_t i, Rng* rng, Pool* p) {
  if (i < 12) {
    p->role = static_cast<PoolRole>(i % kRoleCount);
    p->region = static_cast<int>(i / kRoleCount);
  } else {
    static const std::vector<int> kRoleWeights = {35, 20, 35, 10};
    static const std::vector<int> kRegionWeights = {40, 35, 15, 10};
    p->role = static_cast<PoolRole>(Weighted(rng, kRoleWeights));
    p->region = static_cast<int>(Weighted(rng, kRegionWeights));
  }
  bool production = p->role == PoolRole::kProduction || p->role == PoolRole::kReplacement;
  static const std::vector<int> kTrainingWeights = {40, 25, 15, 10, 10, 0, 0, 0};
  static const std::vector<int> kInferenceWeights = {15, 0, 0, 0, 0, 45, 25, 15};
  p->accel = static_cast<int>(Weighted(rng, production ? kInferenceWeights : kTrainingWeights));
  p->gpus_per_host = Types()[p->accel].gpus_per_host;
  p->hosts = p->role == PoolRole::kReplacement ? rng->Between(2, 16) : rng->Between(4, 32);
}

Supply Reservation(const Pool& p, size_t n, Rng* rng, Injector* faults) {
  Supply s;
  s.id = Numbered("r", n);
  s.kind = "reservation";
  s.accel = p.accel;
  if (rng->Chance(0.5)) s.region = p.region;
  s.gpus = (*faults)(Fault::kShortReservation) ? std::max(1, p.Capacity() / 4) : p.Capacity();
  s.window = Window{BaseDay() - 7, BaseDay() + 728, ""};
  if (rng->Chance(0.3)) {
    s.term = "365d";
    s.term_days = 365;
  }
  if ((*faults)(Fault::kMergedQuota)) s.quota_status = "granted";  // a reservation is not a quota
  return s;
}

Supply PhysicalConfirmation(const Pool& p, size_t n, Rng* rng) {
  Supply s;
  s.id = Numbered("pc", n);
  s.kind = "physical-confirmation";
  s.accel = p.accel;
  s.region = p.region;
  s.gpus = p.Capacity();
  Confirmation c{std::string("dc-operations-") + kRegions[p.region], BaseDay() - 30, ""};
  if (rng->Chance(0.8))
    c.site = std::string(kRegions[p.region]) + "-dc" + std::to_string(rng->Between(1, 3));
  s.confirmation = c;
  return s;
}

void AddPools(size_t count, Rng* rng, Injector* faults, Inventory* inv) {
  size_t services_given = 0;
  for (size_t i = 0; i < count; ++i) {
    faults->BeginSite();
    Pool p;
    p.id = Numbered("pool", i);
    ChooseShape(i, rng, &p);
    bool production = p.role == PoolRole::kProduction || p.role == PoolRole::kReplacement;
    if (production && rng->Chance(0.9)) p.service_owner = Numbered("service-owner", i % 97);
    // Pool 1 (shared) runs inside the first managed service, whose capacity
    // model may be undocumented; a few other pools run inside services too.
    if (i == 1 ||
        ((p.role == PoolRole::kShared || p.role == PoolRole::kProduction) && rng->Chance(0.02))) {
      p.service = i == 1 ? 0 : static_cast<int>(rng->Below(inv->services.size()));
      ++services_given;
    }
    bool confirmed = p.role == PoolRole::kProduction && p.service < 0;
    Supply own = confirmed ? PhysicalConfirmation(p, i, rng) : Reservation(p, i, rng, faults);
    p.own_supply = own.id;
    p.own_window = own.window;
    inv->supply.push_back(std::move(own));
    inv->pools.push_back(std::move(p));
  }
}

void AddServices(size_t pools, Rng* rng, Injector* faults, Inventory* inv) {
  static const char* kProviders[] = {"cloud-a", "cloud-b", "cloud-c"};
  size_t count = std::max<size_t>(2, pools / 250);
  for (size_t i = 0; i < count; ++i) {
    faults->BeginSite();
    ManagedService s;
    char id[32];
    std::snprintf(id, sizeof id, "ms-%03zu", i);
    s.id = id;
    s.provider = kProviders[rng->Below(3)];
    if (!(*faults)(Fault::kUndocumentedService)) {
      s.capacity_documentation = "https://docs." + s.provider + ".example/capacity#reservations";
    }
    inv->services.push_back(std::move(s));
  }
}

// A quota, a forecast and a commitment for every region and type that has
// pools, and a catalog listing per type.
void AddSharedSupply(Rng* rng, Injector* faults, Inventory* inv) {
  const auto& types = inv->types;
  std::vector<std::vector<bool>> present(kRegionCount, std::vector<bool>(types.size(), false));
  for (const Pool& p : inv->pools) present[p.region][p.accel] = true;
  auto sized = [&](std::vector<std::vector<std::string>>* v) {
    v->assign(kRegionCount, std::vector<std::string>(types.size()));
  };
  sized(&inv->quota);
  sized(&inv->forecast);
  sized(&inv->commitment);
  static const char* kQuotaStatus[] = {"granted", "requested", "denied"};
  for (int r = 0; r < kRegionCount; ++r) {
    for (size_t t = 0; t < types.size(); ++t) {
      if (!present[r][t]) continue;
      faults->BeginSite();
      std::string suffix = std::string(kRegions[r]) + "-" + types[t].id;
      Supply q = MakeSupply("q-" + suffix, "quota", t, r, 64 * rng->Between(1, 8));
      q.quota_status = kQuotaStatus[rng->Below(3)];
      if ((*faults)(Fault::kMergedQuota))
        q.confirmation = Confirmation{"provider-account-team", BaseDay() - 40, ""};
      inv->quota[r][t] = q.id;
      inv->supply.push_back(std::move(q));
      Supply f = MakeSupply("f-" + suffix, "forecast", t, r, 32 * rng->Between(1, 8));
      f.window = Window{BaseDay() + rng->Between(0, 60), -1, "90d"};
      inv->forecast[r][t] = f.id;
      inv->supply.push_back(std::move(f));
      Supply c = MakeSupply("cm-" + suffix, "commitment", t, r, 64 * rng->Between(1, 4));
      c.term = "365d";
      c.term_days = 365;
      int life = types[t].expected_life.empty() ? 0 : std::stoi(types[t].expected_life);
      if (life > 0 && (*faults)(Fault::kLongTerm)) {
        c.term_days = life + 365;
        c.term = std::to_string(c.term_days) + "d";
      } else if (rng->Chance(0.2)) {
        c.term_days = 1825;
        c.term = "1825d";
        c.term_acceptance = Approval{"finops-lead", "finance-owner", BaseDay() - 45,
                                     Numbered("FIN-2027", inv->supply.size())};
      }
      inv->commitment[r][t] = c.id;
      inv->supply.push_back(std::move(c));
    }
  }
  for (size_t t = 0; t < types.size(); ++t) {
    inv->catalog.push_back("cat-" + types[t].id);
    inv->supply.push_back(MakeSupply(inv->catalog.back(), "catalog", t, -1, 4096));
  }
}

}  // namespace

bool Injector::operator()(Fault f) {
  size_t i = static_cast<size_t>(f);
  bool drawn = rng_->Chance(kRates[i] * scale_);
  if (!drawn && (fired_[i] || forced_here_)) return false;
  forced_here_ = forced_here_ || !drawn;
  fired_[i] = true;
  return true;
}

bool Substitute::validated() const {
  int passed = 0;
  for (const auto& [check, status] : validation) passed += status == "passed";
  return passed == 4;
}

int BaseDay() {
  using namespace std::chrono;
  return static_cast<int>(sys_days{year{2027} / February / 1}.time_since_epoch().count());
}

std::string DateText(int day) {
  using namespace std::chrono;
  year_month_day ymd{sys_days{days{day}}};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

void GenerateInventory(size_t pools, Rng* rng, Injector* faults, Inventory* inv) {
  inv->types = Types();
  AddServices(pools, rng, faults, inv);
  AddPools(pools, rng, faults, inv);
  AddSharedSupply(rng, faults, inv);
}

}  // namespace capops::bench
