// SPDX-License-Identifier: Apache-2.0
// Inside the repair search (repair.h): what one rule's search is given,
// the reads of the facts the searches share, and the searches by rule.
//
// A search takes one target (an allocation whose findings of its rule are
// repaired together), the facts of the plan document it is in and that
// document's text, and returns its alternatives, the least change first.
// It only proposes: the driver (repair.cc) relints each and keeps those
// that remove the target's findings and add no error.
//
//   std::vector<Fix> alternatives = SupplySearch(target, facts, file, text, 3);
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/common/fix.h"
#include "engine/common/value.h"
#include "engine/eval/evaluator.h"
#include "engine/eval/result.h"
#include "engine/repair/repair.h"

namespace capops::repair {

/// One allocation whose findings of a rule are to be repaired.
struct Target {
  std::string rule;
  std::string allocation;
  FileId file = kNoFile;  // in the search's lint
  uint32_t line = 0;      // of one of its findings
  int64_t short_by = 0;   // the largest measure over its findings (GPUs short, for supply)
  /// The bindings of its first finding.
  std::vector<eval::Evidence> evidence;
  /// The params its rule read, as the lint read them (Violation::params).
  std::shared_ptr<const std::vector<eval::ParamUse>> params;
};

/// What a target is about in the facts of its plan document.
struct Subject {
  const Value* allocation = nullptr;
  const Value* pool = nullptr;    // the inventory's pool it names
  const Value* demand = nullptr;  // the plan's demand it names; null when none
};

/// A rule's search: the alternatives for `target` in the plan document
/// whose facts are `facts` and whose file (`file`) reads `text`, at most
/// `max_tries` of them.
using Search = std::vector<Fix> (*)(const Target& target, const eval::Facts& facts, FileId file,
                                    std::string_view text, size_t max_tries);

/// Supply that would repair a target no plan edit repairs, and its proof:
/// an Inventory document holding one confirmed record of exactly that
/// (`inventory`, linted in memory beside the plan's inventories, never
/// written) and the plan edit that cites it (`cite`).
struct Advice {
  eval::Acquisition acquisition;
  std::string inventory;
  std::vector<Replacement> cite;
};

/// A rule's advice for `target` (arguments as Search), or nullopt.
using Advise = std::optional<Advice> (*)(const Target& target, const eval::Facts& facts,
                                         FileId file, std::string_view text);

/// A rule with a search: its id, the binding that names the allocation a
/// finding is about, the search, and the advice asked for when the search
/// proves no alternative (none: no advice).
struct RuleSearch {
  /// What a rule's binding names: the record its repairs change.
  enum class Names { kAllocation, kDemand };
  const char* rule;
  const char* allocation_binding;
  Search search;
  Advise advise = nullptr;
  Names names = Names::kAllocation;
  /// The rule finds an allocation on a pool it may not use at all: until
  /// it is moved, other rules' repairs of it, which keep it there (cite
  /// supply for it, move it in time), are not offered.
  bool must_move = false;
};

/// CAP-SUP-005's search (supply_search.cc).
std::vector<Fix> SupplySearch(const Target& target, const eval::Facts& facts, FileId file,
                              std::string_view text, size_t max_tries);
/// CAP-SUP-005's advice (supply_search.cc): reserve the GPUs short, of the
/// pool's accelerator, in its region, with its service, over the
/// allocation's window.
std::optional<Advice> SupplyAdvice(const Target& target, const eval::Facts& facts, FileId file,
                                   std::string_view text);

/// CAP-ALC-004's search (pool_search.cc).
std::vector<Fix> PoolSearch(const Target& target, const eval::Facts& facts, FileId file,
                            std::string_view text, size_t max_tries);

/// CAP-ALC-001's search (pool_search.cc): the other pools of PoolSearch.
std::vector<Fix> ReplacementSearch(const Target& target, const eval::Facts& facts, FileId file,
                                   std::string_view text, size_t max_tries);

/// CAP-ALC-002's search (floor_search.cc): an allocation holding the
/// service's floor grown by what it lacks, where its pool has the room.
std::vector<Fix> FloorCoverSearch(const Target& target, const eval::Facts& facts, FileId file,
                                  std::string_view text, size_t max_tries);

/// CAP-ALC-003's search (floor_search.cc).
std::vector<Fix> FloorSearch(const Target& target, const eval::Facts& facts, FileId file,
                             std::string_view text, size_t max_tries);

// What the pool searches share (pool_search.cc).

/// A pool's GPUs: its hosts × GPUs per host, held at all times; none when
/// that product overflows (the rules cannot count such a pool either).
std::vector<Held> CapacityOf(const Value& pool);

/// What the allocations of the plan but `a` take on each pool, by pool id,
/// over their windows (their own, else their demand's, else all time), as
/// CAP-ALC-004 counts them.
std::map<std::string, std::vector<Held>> TakenByPool(const eval::Facts& facts, const Value& a);

/// The alternatives for allocation `s.allocation` on its pool, ranked as
/// repair.h says for CAP-ALC-004: moved in time (MoveToFit) to where the
/// pool's capacity beyond `beside` has its GPUs free (said to be where
/// `where` has them); moved to another pool of its accelerator, region and
/// service, of a role it may use, with its GPUs free after what `taken`
/// (by pool) puts there; shrunk (Shrink) to what the capacity has beyond
/// `beside` at the worst moment of its window (said to be `what`). The move
/// and the shrink when they exist, the other pools the tries they leave.
std::vector<Fix> PoolAlternatives(const Target& t, const eval::Facts& facts, const Subject& s,
                                  const std::map<std::string, std::vector<Held>>& taken,
                                  const std::vector<Held>& beside, std::string_view where,
                                  std::string_view what, FileId file, std::string_view text,
                                  size_t max_tries);

// Alternatives several searches propose (search_edits.cc).

/// Allocation `a`'s own dated window (`start`, and `end` when written;
/// its duration kept) moved to the earliest start inside its demand `d`'s
/// window where what `held` holds beyond what `taken` takes has its `gpus`
/// (EarliestFit; the edits are MoveWindow's), said to be where `held_by`
/// has them free. None when `a`
/// has no dated window that ends, `d` no window with a start, or no start
/// fits but the one it has.
std::optional<Fix> MoveToFit(const Target& t, const Value& a, const Value* d,
                             const std::vector<Held>& held, const std::vector<Held>& taken,
                             std::string_view held_by, FileId file, std::string_view text);

/// Allocation `a`'s `gpus` shrunk to `fits`, said to be `what` fits: only
/// when that is at least 1, less than it has, and at least its demand
/// `d`'s `minimum_viable` GPUs (a training demand that states none is not
/// shrunk).
std::optional<Fix> Shrink(const Target& t, const Value& a, const Value* d, int64_t fits,
                          std::string_view what, FileId file, std::string_view text);

/// CAP-ALC-009's search (hold_search.cc).
std::vector<Fix> HoldSearch(const Target& target, const eval::Facts& facts, FileId file,
                            std::string_view text, size_t max_tries);

/// CAP-DEM-006's search (demand_search.cc).
std::vector<Fix> BusinessWindowSearch(const Target& target, const eval::Facts& facts, FileId file,
                                      std::string_view text, size_t max_tries);

/// CAP-DEM-003's search (demand_search.cc).
std::vector<Fix> ExplorationSearch(const Target& target, const eval::Facts& facts, FileId file,
                                   std::string_view text, size_t max_tries);

// Reads of the facts (search_reads.cc).

/// A scalar as text ("" for none or null).
std::string Text(const Value* v);
/// An integer, else `otherwise`.
int64_t Int(const Value* v, int64_t otherwise);
/// An enum member with `-` for `_` (they are the same member).
std::string Member(std::string s);
/// The seconds [start, end) a `Window` value spans, as timelines read it
/// (eval::ToInterval); an open side is the far past or future, and no
/// window at all is all time.
std::pair<int64_t, int64_t> Span(const Value* window);
/// The seconds allocation `a` holds its GPUs: its own window, else its
/// demand's (in `demands`), else all time.
std::pair<int64_t, int64_t> HeldOver(const Value& a, const Value* demands);
/// The GPUs supply record `s` can back an allocation on `pool` with: a
/// reservation or physical confirmation of the pool's accelerator, in its
/// region (or in none), held with its service (or none); else 0.
int64_t Backs(const Value& s, const Value& pool);
/// What `t` is about in `facts`; false when its allocation, or the pool
/// it names, is not there.
bool SubjectOf(const Target& t, const eval::Facts& facts, Subject* subject);
/// The ids an allocation cites as `evidence`, each once.
std::set<std::string> Cited(const Value& a);
/// The record `id` of the plan's list `list` (`allocations`, `demands`),
/// or null.
const Value* PlanRecord(const eval::Facts& facts, const char* list, std::string_view id);
/// The value of param `name` the target's rule read, or null.
const Value* ParamRead(const Target& t, std::string_view name);

// Edits of a window (window_edits.cc), each keeping how it is written.

/// `window` (a map with a dated `start`) moved to start at `start`: its
/// `start` and, when it is written, its `end`; a `duration` kept. Each date
/// written as its own was (a plain date moved by less than whole days
/// becomes a UTC date-time, FormatDateTime). nullopt when it has no dated
/// start or an edit cannot be placed.
std::optional<std::vector<Replacement>> MoveWindow(FileId file, std::string_view text,
                                                   const Value& window, int64_t start);
/// `window` (a map with a dated `start`) cut to last `length` seconds from
/// its start: its `end` and its `duration`, whichever are written. nullopt
/// when it has no dated start, neither, or an edit cannot be placed.
std::optional<std::vector<Replacement>> CutWindow(FileId file, std::string_view text,
                                                  const Value& window, int64_t length);

}  // namespace capops::repair
