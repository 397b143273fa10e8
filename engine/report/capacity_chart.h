// SPDX-License-Identifier: Apache-2.0
// Capacity charts: what the HTML report draws for each pool of a plan, as
// plain numbers (internal to engine/report).
//
// For every pool that a plan allocates from, a chart holds the pool's
// capacity (hosts × GPUs per host), the allocations on it as bands stacked
// by GPUs over their windows, the GPUs in use as a step function, the
// production floor the pool keeps for the inference demands it serves, and
// the findings marked at the stretch of time they are about:
//
//   std::vector<PoolChart> charts = BuildPoolCharts(plan_facts, report, sources, {});
//   for (const PoolChart& c : charts) … c.usage, c.segments, c.marks
//
// An allocation holds its GPUs in its own window, else its demand's, else
// always (stdlib's windows_of). The usage, the stacking and the floor each
// come from one sweep over the sorted window ends: O(n log n) for n
// allocations, plus the segments drawn, which are capped per chart.
//
// Where a finding goes, and when:
//   - its pool: a pool record the rule bound (`for p in inventory.pools`,
//     `let p = inventory.pools[a.pool]`), else the pool of the allocation
//     it is about (one it bound, or the one whose field it is reported at);
//   - its interval: the window of the timeline step the rule fired on
//     (eval::Violation::interval: `for o in used.over(capacity)`), which
//     is exactly the stretch the message names; else the window the
//     allocation it is about holds GPUs in; else, for a finding about the
//     pool alone, all of the chart. Marks say which (Mark::from_step).
//   - a finding reported at a supply record and bound to no pool,
//     allocation or demand (CAP-SUP-006: one reservation cited past what
//     it holds) goes on every pool whose allocations cite that record, at
//     its step, else over each citing allocation's window.
// A finding about none of these is not drawn.
//
// A finding's first fix (ChartOptions::first_fix_facts) is read from the
// facts it leaves, not from its words: each allocation it changes is a
// Ghost where it would then be, over the window it would then hold.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/eval/result.h"

namespace capops::report {

/// One allocation on a pool.
struct Band {
  std::string allocation;  // its id
  std::string demand;
  std::string slice;  // its demand's slice, as written
  int64_t gpus = 0;
  eval::Interval window;              // when it holds its GPUs
  bool alternative = false;           // a fallback placement (`alternative_to`)
  std::vector<std::string> evidence;  // the supply ids it cites
};

/// Where the first fix of a finding puts an allocation, when it changes the
/// allocation's pool, window or GPUs (a moved window, a smaller size,
/// another pool): drawn as a ghost, not as the plan.
struct Ghost {
  size_t finding = 0;  // index into the report's violations: the first the fix is for
  Band band;           // the allocation as the fix leaves it
  std::string fix;     // the fix's description
};

/// A part of a band drawn at one height: `band` holds [window) at
/// `base`..`base + gpus`.
struct Segment {
  size_t band = 0;
  eval::Interval window;
  int64_t base = 0;
};

/// A step of a step function: `amount` over `window`.
struct Step {
  eval::Interval window;
  int64_t amount = 0;
};

/// A finding drawn on a chart.
struct Mark {
  size_t finding = 0;  // index into the report's violations
  eval::Interval window;
  bool from_step = false;  // the rule's own timeline step, not the allocation's window
};

struct PoolChart {
  std::string pool;
  std::string role;
  std::string accelerator;
  std::string region;
  int64_t capacity = 0;
  std::vector<Band> bands;        // in the plan's order
  std::vector<Segment> segments;  // the bands stacked, step by step
  bool segments_capped = false;   // too many to draw: the usage outline stands for them
  std::vector<Step> usage;        // GPUs allocated, covering all time
  std::vector<Step> floor;        // GPUs the inference floors keep; empty when none
  /// The confirmed supply behind the pool: the reservations and physical
  /// confirmations its allocations cite, of its accelerator and in its
  /// region (when they name one), each held over its window, or at all
  /// times without one (CAP-SUP-005's reading, without validated
  /// stand-ins). Empty when none is cited.
  std::vector<Step> supply;
  std::vector<Mark> marks;
  std::vector<Ghost> ghosts;  // the first fixes that put an allocation here, by finding
  int64_t peak = 0;           // the highest usage
};

/// A training demand's run at its preferred and at its minimum viable size,
/// against the day its result is needed by: at the minimum viable size the
/// run takes its duration × preferred ÷ minimum GPUs (CAP-DEM-006's
/// reading), from the same start.
struct TrainingStrip {
  std::string demand;
  int64_t preferred_gpus = 0;
  int64_t minimum_gpus = 0;
  eval::Interval preferred_run;          // the demand's window
  eval::Interval minimum_run;            // from the same start, stretched
  std::optional<DateTime> business_end;  // `business_window_end`
  /// Findings about the demand: at their timeline step, else over the part
  /// of the minimum viable run past the business window (the whole run
  /// when it fits).
  std::vector<Mark> marks;
};

struct ChartOptions {
  size_t max_segments = 4000;  // per chart
  /// The supply kinds that show capacity exists, in their YAML spelling: the
  /// rule set's `confirmed_supply` param (ConfirmedSupply). Supply of no such
  /// kind is not drawn.
  std::vector<std::string> confirmed_supply;
  /// The facts of each finding's plan with the finding's first fix
  /// applied, by finding (lint::Report::first_fix_facts); null: no ghosts.
  /// Each allocation whose pool, window or GPUs differ there from the
  /// plan's (or that only the fix adds) is a Ghost on the chart of the pool
  /// it has there, which is drawn even with no allocation of its own; a fix
  /// that changes none (citing a record) draws nothing. The cost is a pass
  /// over the allocations per distinct fix.
  const std::map<size_t, eval::Facts>* first_fix_facts = nullptr;
};

/// The value of the rule set's `confirmed_supply` param as supply kinds; none
/// when the rule set has no such param.
std::vector<std::string> ConfirmedSupply(const Engine& engine);

/// The charts of one plan's pools that have allocations, in the
/// inventory's order, with the findings of `violations` that belong to the
/// plan (located in its file, or in no plan file at all) marked.
std::vector<PoolChart> BuildPoolCharts(const PlanFacts& plan,
                                       const std::vector<eval::Violation>& violations,
                                       const std::vector<FileId>& plan_files,
                                       const ChartOptions& options);

/// The strips of the plan's training demands that have a window, a
/// minimum viable size and a preferred one, with their findings marked.
std::vector<TrainingStrip> BuildTrainingStrips(const PlanFacts& plan,
                                               const std::vector<eval::Violation>& violations,
                                               const std::vector<FileId>& plan_files);

/// The time a pool's chart spans: every finite window end of its bands,
/// its floor, its confirmed supply, its marks and its ghosts; none when nothing on it
/// is dated (every window open: held at all times).
/// Each chart has its own: a pool busy for a week is not drawn on the axis
/// of a plan that spans two years.
std::optional<eval::Interval> Horizon(const PoolChart& chart);

/// The time a training strip spans: its runs, its business window's end
/// and its marks.
std::optional<eval::Interval> Horizon(const TrainingStrip& strip);

/// A moment as text, as its date was written: `2027-04-12`, or
/// `2027-04-20T09:00+02:00` (FormatDateTime).
std::string DayText(const DateTime& t);

}  // namespace capops::report
