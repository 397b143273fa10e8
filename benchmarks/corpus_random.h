// SPDX-License-Identifier: Apache-2.0
// Internal to the corpus generator: its only sources of choice — a
// platform-independent random sequence, and the injector that decides which
// sites are broken on purpose, and how (Fault).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace capops::bench {

/// splitmix64: a tiny generator with the same sequence on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n); n > 0. The modulo bias is negligible for our n.
  size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }
  /// Uniform in [lo, hi].
  int Between(int lo, int hi) {
    return lo + static_cast<int>(Below(static_cast<size_t>(hi - lo + 1)));
  }
  /// True with probability p (53 bits, exact in IEEE doubles everywhere).
  bool Chance(double p) { return static_cast<double>(Next() >> 11) * 0x1.0p-53 < p; }

 private:
  uint64_t state_;
};

/// The ways `--defects` breaks a site, each as a rule fixture does and aimed
/// at one rule (sometimes others fire along: a catalog-only group is also
/// not supply).
enum class Fault {
  kReplacementNotFree,     // CAP-ALC-001: exploration on a replacement pool
  kFloorUncovered,         // CAP-ALC-002: a floor above what production holds
  kBorrowAboveFloor,       // CAP-ALC-003: borrowed headroom the floors leave no room for
  kOvercommit,             // CAP-ALC-004: a whole-pool allocation in a taken slot
  kBorrowWithoutApproval,  // CAP-ALC-005
  kNoRestoreTest,          // CAP-ALC-006: interruptible exploration, its restore never tested
  kNoQueue,                // CAP-ALC-007
  kNoRelease,              // CAP-ALC-008
  kShortHold,              // CAP-ALC-009: a tuning trial held longer than its `max_hold`
  kSpareShort,             // CAP-ALC-010: a floor above the tested replacement capacity
  kNoFailureDomain,        // CAP-ALC-011: `failure_domain: tbd`
  kNoScaleOut,             // CAP-ALC-012: a service without `tested_envelope`
  kUnvalidatedSubstitute,  // CAP-CMP-001: an alternative on an unvalidated accelerator
  kRequirementUnmet,       // CAP-CMP-002: more memory than the pool's accelerator has
  kPartialGroup,           // CAP-CMP-003: half a training group
  kMixedGroup,             // CAP-CMP-004
  kUnapprovedRegion,       // CAP-CMP-005
  kFarDataset,             // CAP-CMP-006: the dataset in another region, no bandwidth
  kTuningElsewhere,        // CAP-CMP-007: tuning on a shared pool of another accelerator
  kUnsizedOnService,       // CAP-CMP-008: exploration on a managed service it was not sized on
  kAggregate,              // CAP-DEM-001
  kNoShape,                // CAP-DEM-002: no image (or no storage throughput)
  kExplorationTooBig,      // CAP-DEM-003
  kTuningShape,            // CAP-DEM-004: no trial limit, or no training configuration
  kNoSizes,                // CAP-DEM-005
  kPastBusinessWindow,     // CAP-DEM-006: the minimum size ends past the business window
  kNoFloor,                // CAP-DEM-010: a continuous service that states no floor
  kMinimumAbovePreferred,  // CAP-DEM-011
  kTooManyTrials,          // CAP-DEM-012: more at once than trials × GPUs per trial
  kLateRun,                // CAP-DEM-013: a run ending after the business window
  kShortStretch,           // CAP-DEM-014: a smaller group in a window of the planned length
  kLongTrial,              // CAP-DEM-015: a trial longer than its demand's window
  kLongTerm,               // CAP-FIN-001: a commitment outliving its hardware
  kShortModelLife,         // CAP-FIN-001: … or the model it serves
  kNoQualityGate,          // CAP-FIN-002
  kNotReady,               // CAP-RDY-001 and CAP-FIN-003
  kOverBudget,             // CAP-FIN-004: a cost target below what the benchmark costs
  kDecisionIncomplete,     // CAP-GOV-001
  kTrainingRestore,        // CAP-GOV-004: training whose restore was never tested
  kLateDeadline,           // CAP-GOV-002
  kMissingEvidence,        // CAP-GOV-003
  kSameOwner,              // CAP-GOV-005
  kBeyondEnvelope,         // CAP-GOV-006
  kUnmeasuredRead,         // CAP-RDY-002
  kBadBenchmark,           // CAP-RDY-003
  kQuotaEvidence,          // CAP-SUP-001: a quota and a forecast as evidence
  kCatalogGroup,           // CAP-SUP-002
  kMergedQuota,            // CAP-SUP-003
  kUndocumentedService,    // CAP-SUP-004
  kUncited,                // CAP-SUP-005: an allocation that cites no supply
  kShortReservation,       // CAP-SUP-006: a reservation for a quarter of its pool
  kCitedTwice,             // CAP-SUP-008
  kCount
};

/// Decides which sites to break (`--defects RATE`): each eligible site of
/// each kind with probability `rate`, at most one kind a site; with a rate
/// above 0, a kind not broken yet is also broken at its first eligible site
/// that is still whole, so that even a small corpus shows every kind. Draws
/// one number per call whatever the answer, so the sequence, and with it
/// everything else the corpus holds, does not depend on the rate.
class Injector {
 public:
  Injector(Rng* rng, double rate) : rng_(rng), rate_(rate) {}
  /// Starts a new site (a demand, an allocation, a pool, a supply entry).
  void BeginSite() { broken_here_ = false; }
  /// Whether to break the current site with `f`.
  bool operator()(Fault f) {
    size_t i = static_cast<size_t>(f);
    bool drawn = rng_->Chance(rate_);
    if (rate_ <= 0 || broken_here_ || (!drawn && fired_[i])) return false;
    broken_here_ = fired_[i] = true;
    return true;
  }

 private:
  Rng* rng_;
  double rate_;
  bool broken_here_ = false;
  std::array<bool, static_cast<size_t>(Fault::kCount)> fired_{};
};

}  // namespace capops::bench
