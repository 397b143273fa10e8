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
// Every allocation's findings of a rule are repaired together: a repair
// must remove all the stretches the rule found short.
//
// Cost: one lint per alternative tried (at most RepairOptions::max_tries
// per allocation); RepairOptions::max_lints bounds them all, the findings
// past it keeping the rule's words only. The facts the searches read and
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
/// the rule and the facts it is about (its located bindings), or a
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
