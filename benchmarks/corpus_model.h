// SPDX-License-Identifier: Apache-2.0
// Internal to the corpus generator: the scenario as plain structs, between
// generation (corpus_inventory.cc, corpus.cc) and YAML emission
// (corpus_writer.cc). Days are counted from 1970-01-01; an empty string or a
// negative number is an absent optional field.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/corpus_random.h"

namespace capops::bench {

enum class PoolRole { kResearch, kShared, kProduction, kReplacement };
inline constexpr int kRoleCount = 4;
enum class Slice { kExploration, kTraining, kTuning, kInference, kAggregate };

inline constexpr int kRegionCount = 4;
/// Regions 0 and 1 are the pack's default `approved_regions`.
inline constexpr std::array<const char*, kRegionCount> kRegions = {"eu-west", "eu-central",
                                                                   "us-east", "ap-south"};
inline bool DefaultApproved(int region) {
  return region < 2;
}

struct Window {
  int start = 0;
  int end = -1;          // exclusive end day, or
  std::string duration;  // a duration such as `5d`
  int minute = -1;       // the start's minute of the day (UTC), when it is not midnight
};

struct Approval {
  std::string by;
  std::string role;  // an ApproverRole as YAML spells it
  int date = -1;
  std::string reference;
};

struct AcceleratorType {
  std::string id, model, memory, interconnect, expected_life, interconnect_bandwidth;
  int memory_gb = 0;  // for comparisons while generating
  int gpus_per_host = 8;
  bool training = false;   // offered in research and shared pools
  bool inference = false;  // offered in production pools
};

struct ManagedService {
  std::string id, provider, capacity_documentation;
};

struct Pool {
  std::string id;
  int accel = 0;
  int hosts = 1;
  int gpus_per_host = 1;
  int region = 0;
  PoolRole role = PoolRole::kResearch;
  std::string service_owner;
  int service = -1;
  std::string own_supply;     // the reservation or confirmation that backs it
  std::string service_quota;  // a managed service's pool: the granted quota held with it
  std::string failure_domain, host_memory, fabric_bandwidth, cost_per_gpu_hour;
  int failover_tested = -1;  // replacement pools
  std::vector<std::string> evidence;
  // Generation state, so that the clean corpus never overcommits a pool:
  // windowless allocations hold GPUs at every moment (within
  // `always_budget`), windowed ones get weeks of their own (`used_weeks`,
  // of the corpus's two years), each holding at most what the always
  // budget leaves.
  int always_used = 0;
  int always_budget = 0;
  std::vector<bool> used_weeks;
  int Capacity() const { return hosts * gpus_per_host; }
};

struct Confirmation {
  std::string by;
  int date = 0;
  std::string site;
};

struct Supply {
  std::string id, kind;  // kind as YAML spells a SupplyKind
  int accel = 0;
  int region = -1;
  int gpus = 0;
  std::optional<Window> window;
  std::string quota_status;
  std::optional<Confirmation> confirmation;
  std::string term;
  int term_days = 0;
  std::optional<Approval> term_acceptance;
  int service = -1;
};

struct Inventory {
  std::vector<AcceleratorType> types;
  std::vector<ManagedService> services;
  std::vector<Pool> pools;
  std::vector<Supply> supply;
  // Supply that is not any pool's own, per region and accelerator type.
  std::vector<std::vector<std::string>> quota, forecast, commitment;  // [region][accel]
  std::vector<std::string> catalog;                                   // [accel]
  std::vector<int> spare_half;  // [accel]: half the GPUs of its tested replacement pools
};

struct GroupSize {
  int gpus = 0;
  int hosts = -1;
};

struct Requirements {
  std::string memory, interconnect, storage_read, interconnect_bandwidth, fabric_bandwidth,
      host_memory;
};

struct Dataset {
  int region = 0;
  std::string size;
  std::string permissions;  // empty: the default (`unknown`)
  std::vector<int> approved_regions;
  std::string transfer_bandwidth, measured_read;
};

/// dataset, image, software, network_path, storage_throughput; empty: unknown.
struct Readiness {
  std::array<std::string, 5> items;
  int ready_by = -1;
};

struct Checkpoint {
  bool restore_tested = false;
  bool stoppable = false;
};

struct Demand {
  std::string id;
  Slice slice = Slice::kTraining;
  int gpus = -1, hosts = -1, gpus_per_host = -1, max_parallel_trials = -1, floor = -1;
  int gpus_per_trial = -1, tested_envelope = -1;
  int accel = -1, service = -1;
  bool concurrent = false, interruptible = false, continuous = false;
  std::string schedule, max_hold, image, based_on, release_condition, model_life, quality_gate;
  std::string utilization_target, model_version, scale_out_of, max_cost, quality_gate_result;
  std::optional<Window> window;
  std::optional<GroupSize> minimum_viable, preferred;
  int business_window_end = -1;
  std::optional<Requirements> requirements;
  std::optional<Dataset> dataset;
  std::optional<Readiness> readiness;
  std::optional<Checkpoint> checkpoint;
  // Generation state.
  int region = 0;      // where its pools are
  int home_accel = 0;  // the accelerator its pools have
  int model_life_days = 0;
};

struct Allocation {
  std::string id, demand;
  int pool = 0;
  int gpus = 0;
  std::vector<std::string> evidence;
  std::optional<Window> window;
  bool interruptible = false;
  std::string alternative_to;
  int queue_position = -1;
  std::string max_hold, release_condition;
  std::optional<Approval> approval;
};

struct Substitute {
  int replaces = 0, candidate = 0;
  int service = -1;
  std::vector<std::pair<std::string, std::string>> validation;  // check → status
  bool validated() const;
};

struct Benchmark {
  std::string id, demand, model_version, data_version;
  int accel = 0, gpus = 0;
  std::string useful_work_per_hour, memory_pressure, input_stall, p99_latency_ms, latency_slo_ms;
};

struct Decision {
  std::string decision, owner, readiness_owner, headroom_owner, trade_off, residual_risk,
      release_condition;
  int deadline = -1;
  std::vector<std::string> evidence, revisit;
};

struct Plan {
  std::string name, owner;
  std::vector<Demand> demands;
  std::vector<Allocation> allocations;
  std::vector<Substitute> substitutes;
  std::vector<Benchmark> benchmarks;
  std::optional<Window> period;
  Decision decision;
};

/// The first day allocations and demand windows use (2027-02-01).
int BaseDay();
/// `YYYY-MM-DD` of a day number.
std::string DateText(int day);

/// Fills `inv` with accelerator types, managed services, pools and supply.
void GenerateInventory(size_t pools, Rng* rng, Injector* faults, Inventory* inv);

/// The YAML texts of the model.
std::string InventoryYaml(const Inventory& inv);
std::string PlanYaml(const Inventory& inv, const Plan& plan);

}  // namespace capops::bench
