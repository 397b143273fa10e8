// SPDX-License-Identifier: Apache-2.0
// The inventory side of the corpus generator: accelerator types, managed
// services, pools of every role and the supply evidence behind them. Entry
// point: GenerateInventory (corpus_model.h). Also the date helpers shared
// with the plan side.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "benchmarks/corpus_model.h"

namespace capops::bench {

namespace {

// The accelerator types every corpus has; training types are offered in
// research and shared pools, inference types in production pools.
const std::vector<AcceleratorType>& Types() {
  static const std::vector<AcceleratorType> types = {
      {"h100-80", "H100-SXM", "80GiB", "nvlink4", "1095d", "900GB/s", 86, 8, true, true},
      {"a100-80", "A100-SXM", "80GiB", "nvlink3", "730d", "", 86, 8, true, false},
      {"h200-141", "H200-SXM", "141GB", "nvlink4", "1460d", "900GB/s", 141, 8, true, false},
      {"mi300-192", "MI300X", "192GB", "infinity-fabric", "1095d", "896GB/s", 192, 8, true, false},
      {"b200-192", "B200", "192GB", "nvlink5", "", "1800GB/s", 192, 8, true, false},
      {"l4-24", "L4", "24GiB", "pcie4", "1095d", "", 26, 4, false, true},
      {"l40s-48", "L40S", "48GiB", "pcie4", "", "", 52, 4, false, true},
      {"a100-40", "A100-PCIe", "40GiB", "pcie4", "730d", "", 43, 4, false, true},
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
// even a small corpus has every kind of pool where the defects need one.
// Replacement pools are few and large whatever the size, as spares are: the
// first of each inference accelerator in each region is one, the others are
// production pools (which keeps the pack's spare check, which joins every
// service with every allocation on every spare, affordable at any size).
void ChooseShape(size_t i, size_t count, Rng* rng, const std::vector<Pool>& before, Pool* p) {
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
  // Each production pool of the first twelve has a spare of its hardware.
  if (i < 12 && p->role == PoolRole::kReplacement) p->accel = before[i - 1].accel;
  if (i >= 12 && p->role == PoolRole::kReplacement) {
    bool first = true;
    for (const Pool& q : before) {
      first = first &&
              !(q.role == PoolRole::kReplacement && q.region == p->region && q.accel == p->accel);
    }
    if (!first) p->role = PoolRole::kProduction;
  }
  p->gpus_per_host = Types()[p->accel].gpus_per_host;
  // A spare holds what a service protects, and services grow with the
  // inventory: so do spares.
  int spare_scale = std::max<int>(1, static_cast<int>(count / 250));
  p->hosts =
      p->role == PoolRole::kReplacement ? spare_scale * rng->Between(16, 48) : rng->Between(4, 32);
}

// A cloud reservation for the pool's whole capacity over the corpus's two
// years; its term (when it has one) never outlives the hardware.
Supply Reservation(const Inventory& inv, const Pool& p, size_t n, Rng* rng, Injector* faults) {
  Supply s;
  s.id = Numbered("r", n);
  s.kind = "reservation";
  s.accel = p.accel;
  s.service = p.service;
  if (rng->Chance(0.5)) s.region = p.region;
  s.gpus = (*faults)(Fault::kShortReservation) ? std::max(1, p.Capacity() / 4) : p.Capacity();
  s.window = Window{BaseDay() - 7, BaseDay() + 728, ""};
  if (!inv.types[p.accel].expected_life.empty() && rng->Chance(0.3)) {
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

// Research and shared pools are reserved cloud capacity; production and
// replacement pools are our own hardware, confirmed on site, in halls of
// their own: production in halls 1 and 2, spares in hall 3.
void AddPools(size_t count, Rng* rng, Injector* faults, Inventory* inv) {
  for (size_t i = 0; i < count; ++i) {
    faults->BeginSite();
    Pool p;
    p.id = Numbered("pool", i);
    ChooseShape(i, count, rng, inv->pools, &p);
    bool production = p.role == PoolRole::kProduction || p.role == PoolRole::kReplacement;
    if (production && rng->Chance(0.9)) p.service_owner = Numbered("service-owner", i % 97);
    // Pool 1 (shared) runs inside the first managed service; a few other
    // shared pools run inside services too.
    if (i == 1 || (p.role == PoolRole::kShared && rng->Chance(0.03))) {
      p.service = i == 1 ? 0 : static_cast<int>(rng->Below(inv->services.size()));
    }
    std::string region = kRegions[p.region];
    int hall = p.role == PoolRole::kReplacement ? 3 : rng->Between(1, 2);
    if (production || rng->Chance(0.5)) p.failure_domain = region + "-hall-" + std::to_string(hall);
    if (production && (*faults)(Fault::kNoFailureDomain)) p.failure_domain = "tbd";
    if (p.role == PoolRole::kResearch || rng->Chance(0.5)) {
      p.host_memory = p.gpus_per_host == 8 ? "2TiB" : "512GiB";
      p.fabric_bandwidth = p.gpus_per_host == 8 ? "50GB/s" : "25GB/s";
    }
    char price[16];
    std::snprintf(price, sizeof price, "%d.%02d", rng->Between(1, 5), rng->Between(0, 99));
    p.cost_per_gpu_hour = price;
    Supply own =
        production ? PhysicalConfirmation(p, i, rng) : Reservation(*inv, p, i, rng, faults);
    p.own_supply = own.id;
    inv->supply.push_back(std::move(own));
    if (p.role == PoolRole::kReplacement) {
      p.failover_tested = BaseDay() - rng->Between(10, 60);
      p.evidence = {p.own_supply};
    }
    if (p.service >= 0) {  // the quota the service grants for the pool
      Supply q = MakeSupply(Numbered("sq", i), "quota", p.accel, p.region, p.Capacity());
      q.quota_status = "granted";
      q.service = p.service;
      p.service_quota = q.id;
      inv->supply.push_back(std::move(q));
    }
    inv->pools.push_back(std::move(p));
  }
  inv->spare_half.assign(inv->types.size(), 0);
  for (const Pool& p : inv->pools) {
    if (p.role == PoolRole::kReplacement) inv->spare_half[p.accel] += p.Capacity();
  }
  for (int& gpus : inv->spare_half) gpus /= 2;
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
      } else if (life == 0 || rng->Chance(0.2)) {  // a term nothing bounds is accepted
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

bool Substitute::validated() const {
  int passed = 0;
  for (const auto& [check, status] : validation) passed += status == "passed";
  return passed == 5;
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
