// SPDX-License-Identifier: Apache-2.0
// A synthetic, deterministic fact corpus for the benchmarks and the tests.
//
// GenerateCorpus builds one Inventory and one or more CapacityPlans shaped
// like the visual-inspection scenario, at any size: accelerator types,
// pools of every role in several regions, supply of every kind (reservations,
// physical confirmations, quotas, forecasts, catalog listings, commitments),
// managed services, and plans whose demands cover every slice (services
// with floors, spares and scale-outs; training with windows, sizes,
// datasets, readiness and checkpoints; tuning; exploration sessions) and
// whose allocations carry evidence, windows, alternatives, queue positions
// and approvals, time-phased over two years. Every field of
// stdlib/schema.cpl appears somewhere, and the facts validate against it.
//
// By default the plans break no rule of the shipped pack (each shape is one
// a rule fixture accepts). `defects` breaks that share of each defect
// kind's eligible sites, as the fixtures do, and each kind once at its first
// site, so that most rules fire (benchmarks/README.md lists the kinds).
//
// The output depends only on the options: the generator draws from its own
// splitmix64 sequence, never from the platform's random library, so a seed
// gives byte-identical files on every machine.
//
//   bench::CorpusOptions o;
//   o.allocations = 10'000;
//   o.pools = 1'000;
//   bench::Corpus c = bench::GenerateCorpus(o);
//   std::string error;
//   if (!bench::WriteCorpus(c, "/tmp/corpus", &error)) …
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace capops::bench {

struct CorpusOptions {
  size_t allocations = 1000;  // across all plans; at least 1
  size_t pools = 100;         // at least 8
  size_t plans = 1;           // plan files the demands (and their allocations) are split into
  uint64_t seed = 1;
  double defects = 0;  // in [0, 1]: the share of each defect kind's eligible sites broken
};

/// The texts of one corpus: YAML documents ready to be written or loaded.
struct Corpus {
  std::string inventory;           // one Inventory document
  std::vector<std::string> plans;  // one CapacityPlan document each
  size_t demands = 0;              // over all plans
  size_t allocations = 0;          // over all plans
  size_t supply = 0;               // supply entries of the inventory
};

/// Builds the corpus the options describe. Pure: same options, same bytes.
Corpus GenerateCorpus(const CorpusOptions& options);

/// The file names WriteCorpus uses for the plans: `plan.yaml` for a single
/// plan, else `plan-000.yaml`, `plan-001.yaml`, …
std::vector<std::string> PlanFileNames(size_t plans);

/// Writes `inventory.yaml` and the plan files into `dir` (created if
/// missing), removing plan files of an earlier corpus there (`plan.yaml`,
/// `plan-NNN.yaml`). False with `*error` set when a file cannot be written.
bool WriteCorpus(const Corpus& corpus, const std::filesystem::path& dir, std::string* error);

}  // namespace capops::bench
