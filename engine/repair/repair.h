// SPDX-License-Identifier: Apache-2.0
// Repairs computed for capacity findings, each proved by the engine.
//
// A finding of a rule with a repair search gets, in Violation::fixes, the
// plan edits that make it go away, the least change first. They are
// computed from the facts, not from the finding's words, and each is only
// kept once the plan, edited, has been linted again with the same rules and
// inventory and shows the finding gone and no error that was not there
// before: the engine proves its own suggestion.
//
// The searches, by rule:
//   CAP-SUP-005 (an allocation's cited confirmed supply does not cover it):
//     (a) cite a confirmed supply record of the pool's accelerator, in its
//         region (or in none), held with the same service (or none, as the
//         pool), over the allocation's whole window (its own, else its
//         demand's), that the allocation does not cite yet — the records that
//         hold at least the GPUs short first, the smallest of them first,
//         and among the first few (kRoomChecks in supply_search.cc) those
//         that still hold the GPUs short over the window beyond what the
//         allocations already citing them take (EarliestFit at the
//         window's start) before those that do not; whether it has room
//         is still the relint's to say (CAP-SUP-006);
//     (c) move the allocation's own dated window (`start` and, when it is
//         written, `end`; its duration kept) to the earliest start inside
//         its demand's window where the records it cites that back the
//         pool hold its `gpus` for the whole duration, beyond what the
//         other allocations citing them take (each at most its `gpus` and
//         what the shared records hold, over its window): EarliestFit, a
//         sweep over the merged changes of both, O(n log n) in the records
//         and allocations involved. An allocation without a window of its
//         own, or whose demand's window has no start, is not moved;
//     (b) shrink `gpus` to what the cited supply covers at its worst
//         stretch, when that is at least 1 and at least the demand's
//         `minimum_viable` size (a training demand that states none is not
//         shrunk).
// They are ranked by how much of the plan's intent they change: citing
// (a) changes only what backs the work; moving (c) keeps its size and
// duration and stays in its business window, but changes when it runs;
// shrinking (b) changes the work itself. So (a), then (c), then (b).
//   CAP-ALC-004 (a pool overcommitted; the finding is at the allocation
//   that began last in the stretch, binding `last`):
//     (c) move its own dated window, as CAP-SUP-005's (c), to the earliest
//         start inside its demand's window where the pool's hosts × GPUs
//         per host hold its `gpus` beyond what the other allocations on
//         the pool take over their windows (EarliestFit);
//     (p) move it to another pool (its `pool:` rewritten) of the same
//         accelerator, region and managed service (or none), of a role it
//         may use, with its GPUs free over its whole window after what
//         already stands there (LeastFree, one sweep a pool). Research
//         (every slice but inference; the pack's `research_slices` by
//         default) goes to research and shared pools only: never a
//         `production-replacement` pool (CAP-ALC-001), and not production
//         headroom, which needs its service owner's approval (CAP-ALC-005).
//         Inference stays on pools of the role it is on, or on research
//         and shared pools when batched there. Pools of the role it is on
//         first, then those with the most GPUs free;
//     (b) shrink `gpus` to what the pool has free beside the others at the
//         worst moment of its window (LeastFree), as CAP-SUP-005's (b):
//         at least 1 and its demand's `minimum_viable` size.
//   Ranked (c), (p), (b): another start inside the business window is the
//   flexibility the scenario names ("a later training start") and keeps
//   where and how much; another pool keeps when and how much but changes
//   what the work runs on (its cost, failure domain, owners); shrinking
//   changes the work itself. (c) and (b) take a try each when they exist,
//   the pools the tries left.
//   CAP-ALC-001 (research on a `production-replacement` pool, binding
//   `a`): (p) alone, the research or shared pools with room for it; time
//   and size do not make a replacement pool free.
//   CAP-ALC-003 (research on a `production` pool takes more than its floors
//   leave; the finding is at the research allocation that began last in the
//   stretch, binding `a`), CAP-ALC-004's alternatives, ranked as they are,
//   with what the pool keeps counted as the rule counts it: each inference
//   demand with an allocation on the pool keeps what it protects (the larger
//   of its `floor` and `gpus`) over its own window (all time when it has
//   none), once; each other research allocation there (`research_slices`,
//   as the lint read it) takes its `gpus` over its window. Other inference
//   allocations are not counted (they are CAP-ALC-004's):
//     (c) move its own dated window to the earliest start inside its
//         demand's window where the pool's hosts × GPUs per host hold its
//         `gpus` beyond the floors and the other research (EarliestFit);
//     (p) move it to a research or shared pool of the same accelerator,
//         region and service with its GPUs free over its whole window, as
//         CAP-ALC-004's (p) for research: never a replacement pool, nor
//         another production pool's headroom;
//     (b) shrink `gpus` to what is left above the floors and the other
//         research at the worst moment of its window (LeastFree), at least
//         1 and its demand's `minimum_viable` size.
//   CAP-ALC-002 (a service, or a scale-out, holds less than its floor on
//   the pools that count; binding `d`, the demand): grow one of the
//   allocations that hold it (uninterruptible, on a production pool; a
//   scale-out's on any pool but a replacement one) by the GPUs it lacks at
//   its worst stretch, where that allocation's pool has them free over its
//   whole window beside everything else on it (LeastFree), in plan order.
//   Whether its cited supply covers the larger allocation is the relint's
//   to say (CAP-SUP-005); a floor lacking where none of its allocations
//   holds is not grown into one.
// Every allocation's findings of a rule are repaired together: a repair
// must remove all the stretches the rule found short.
//   CAP-ALC-009 (an allocation's window is longer than its maximum holding
//   period, its own `max_hold` else its demand's):
//     (a) cut the allocation's own window to the hold: its `end` set to its
//         start plus the hold, its `duration` to the hold, whichever are
//         written, each as it is written (a plain date moved by less than
//         whole days becomes a UTC date-time); the start kept;
//     (b) an allocation held over its demand's window (it has none of its
//         own) gets a window of its own, the hold from the demand's start,
//         written as the demand's is (`end` or `duration`): the demand's
//         window is its business window, not the allocation's to cut.
//     Splitting the window into several holds is not offered: holds back
//     to back hold the GPUs as long as the one window does, and how far
//     apart queued holds go is not the plan's facts to give.
//   CAP-DEM-006 (a training run at its minimum viable size ends past its
//   `business_window_end`), the runs read as the rule reads them (the
//   demand's window at its preferred size, else each primary allocation's
//   own window at its GPUs):
//     (a) start earlier: each late run moved (its duration kept) to the
//         latest start from which duration × GPUs ÷ minimum, in whole
//         seconds as the rule counts it, ends by the business window end;
//         a demand's window moves with its allocations' own windows, by as
//         much. Whether the earlier start is allowed (supply, readiness)
//         is the relint's to say;
//     (b) raise `minimum_viable.gpus` to the smallest size at which every
//         run ends by the business window end, when that is not above the
//         preferred size (CAP-DEM-011).
//     Moving the business window is the product owner's decision, never
//     offered.
//   CAP-DEM-003 (exploration's shape): reduce the demand's `gpus` and its
//     primary allocations' above the cap to the cap (`exploration_cap`, as
//     the lint read it). The rule's other findings — sessions that overlap,
//     a schedule outside working hours, no stop at checkpoints — have no
//     one answer, so a demand with one of them gets no repair.
//
// Advice, when no alternative is proved (Violation::acquisition, not a
// Fix: the engine does not write supply into an inventory):
//   CAP-SUP-005: reserve the GPUs short at the worst stretch, of the
//     pool's accelerator, in its region, held with its service when it has
//     one, over the allocation's window (its own, else its demand's; from
//     its start on when it has no end; always when there is none). Proved
//     by one more lint: the plan citing a confirmed record of exactly that,
//     in an inventory document added in memory beside the group's, shows
//     the finding gone and no new error.
//
// Cost: one lint per alternative tried (at most RepairOptions::max_tries
// per allocation); RepairOptions::max_lints bounds them all, the findings
// past it keeping the rule's words only; advice costs one lint more (and
// is not sought when proposing). The facts the searches read and
// the errors a repair must not add are the report's own lint's (Linted),
// so a plan file costs no lint of its own — except one whose facts that
// lint did not keep (a plan the result cache answered for), which is
// linted once more first. A lint that shows repairs searches a few
// (kLintRepairLints). `--fix` proves none here (RepairOptions::prove
// false): it takes each finding's alternatives as proposed and proves a
// batch of them with one relint (engine/cli/fix_command.h).
//
// Edits keep the file's bytes outside their spans (plan_edits.h): an id is
// added to a flow list before its `]`, to a block list as a line like its
// last item, and a missing `evidence` is written beside the allocation's
// other keys.
//
//   repair::GroupOf group_of = …;  // the fact files a plan file was linted with
//   repair::Linted linted{&facts, &errors};  // the lint's (LintOptions::facts, ErrorKeysOf)
//   repair::Repair(engine, lint, group_of, *report.sources, &report.findings, {}, &linted);
//   for (const Fix& f : report.findings.violations[0].fixes) …
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/engine.h"
#include "engine/eval/result.h"

namespace capops::repair {

/// The fact files one plan file was linted with: it and the plan files
/// linted beside it, and their inventories.
struct Group {
  std::vector<TextFile> plans;
  std::vector<TextFile> inventories;
};

/// Fills `*group` with the files plan file `path` (as the lint named it)
/// was linted with; false when it cannot (not linted, no longer readable).
using GroupOf = std::function<bool(const std::string& path, Group* group)>;

/// The lints a repair search may run when a lint shows the repairs (the
/// command line's, and the editor's when a code action asks): each costs
/// about what the lint of the plan does.
inline constexpr size_t kLintRepairLints = 4;
/// The lints a search may run for `--fix`: it proves nothing itself, so
/// these only read the facts of plans the report's lint did not keep.
inline constexpr size_t kFixRepairLints = 64;

struct RepairOptions {
  /// Lints the search may run in all (each tries an alternative, or reads
  /// the facts of a plan file the report's lint did not keep).
  size_t max_lints = kLintRepairLints;
  /// Relint each alternative and keep the proved ones. False: propose
  /// them all (at most max_tries per allocation) unproved, for a caller
  /// that proves them itself (`--fix`, which relints a batch at once).
  bool prove = true;
  /// Alternatives tried (relinted) per allocation; the supply records
  /// beyond are not tried.
  size_t max_tries = 3;
};

/// What tells an error apart across two lints of a plan whose text moved:
/// the rule and the facts it is about (its located bindings: a record by
/// its id, another value by where it is, so that a repair changing it
/// leaves the error the same), or a
/// diagnostic's code and message.
std::string ErrorKey(const eval::Violation& v);
std::string ErrorKey(const Diagnostic& d);

/// The keys of a lint's errors (ErrorKey), by the path of the file each is
/// located in ("" for none): the diagnostics', and the rules' when
/// `rules`.
using ErrorKeys = std::map<std::string, std::set<std::string>, std::less<>>;
ErrorKeys ErrorKeysOf(const eval::LintReport& report, const SourceManager& sources,
                      bool rules = true);

/// The report's own lint, handed to Repair so that it need not lint again:
/// the facts it kept (LintOptions::facts, located in the report's sources)
/// and its errors before any were waived or graded (ErrorKeysOf).
struct Linted {
  const std::vector<PlanFacts>* facts = nullptr;
  const ErrorKeys* errors = nullptr;
};

/// GPUs held (or taken) over the seconds [from, to); INT64_MIN and
/// INT64_MAX are the far past and future.
struct Held {
  int64_t from = INT64_MIN;
  int64_t to = INT64_MAX;
  int64_t gpus = 0;
};

/// The earliest start s in [earliest, latest - duration] such that what
/// `supply` holds minus what `taken` takes is at least `gpus` at every
/// moment of [s, s + duration), or nullopt when there is none (or
/// `earliest` is the far past, or `duration` not positive). One sweep over
/// the sorted changes of both: O(n log n).
std::optional<int64_t> EarliestFit(const std::vector<Held>& supply, const std::vector<Held>& taken,
                                   int64_t gpus, int64_t duration, int64_t earliest,
                                   int64_t latest);

/// The least that `supply` holds beyond what `taken` takes at any moment
/// of [from, to) (from < to; either may be the far past or future): what
/// fits there for the whole of it, negative when even that is overtaken.
/// One sweep, as EarliestFit.
int64_t LeastFree(const std::vector<Held>& supply, const std::vector<Held>& taken, int64_t from,
                  int64_t to);

/// The rule ids that have a repair search.
bool HasRepairSearch(const std::string& rule_id);

/// The binding of a finding of `rule_id` that names the allocation a
/// repair changes ("" for a rule without a search): two findings of the
/// rule with the same value there are repaired together.
std::string_view RepairedBinding(std::string_view rule_id);

/// The allocation finding `v`'s repairs change (the value of its
/// RepairedBinding), "" for a rule without a search. A repair is proved
/// when no finding of the rule about that allocation is left.
std::string RepairedAllocation(const eval::Violation& v);

/// Gives each unwaived finding of `report` whose rule has a repair search
/// the repairs proved for it (Violation::fixes, replacements located in
/// `sources`, which the report's locations are in). `lint` is how the
/// findings were linted (its skip_rules); its facts, coverage and profile
/// are not used. `linted` (may be null) is that lint's facts and errors:
/// the plan files it kept facts of are not linted again. Any thread, as
/// Engine::Lint.
void Repair(const Engine& engine, const LintOptions& lint, const GroupOf& group_of,
            const SourceManager& sources, eval::LintReport* report,
            const RepairOptions& options = {}, const Linted* linted = nullptr);

}  // namespace capops::repair
