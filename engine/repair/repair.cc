// SPDX-License-Identifier: Apache-2.0
// The repair search (repair.h): alternatives computed from a plan's facts,
// written as edits of its text, kept when a relint proves them. Entry
// point: Repair.
#include "engine/repair/repair.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "engine/common/units.h"
#include "engine/eval/timeline.h"
#include "engine/repair/plan_edits.h"
#include "engine/repair/search.h"

namespace capops::repair {

namespace {

// The rules with a search (search.h).
constexpr RuleSearch kSearches[] = {
    {"CAP-SUP-005", "a", SupplySearch, SupplyAdvice},
    {"CAP-ALC-004", "last", PoolSearch},
    {"CAP-ALC-001", "a", ReplacementSearch, nullptr, RuleSearch::Names::kAllocation, true},
    {"CAP-ALC-009", "a", HoldSearch},
    {"CAP-DEM-006", "d", BusinessWindowSearch, nullptr, RuleSearch::Names::kDemand},
    {"CAP-DEM-003", "d", ExplorationSearch, nullptr, RuleSearch::Names::kDemand},
    {"CAP-ALC-003", "a", FloorSearch},
    {"CAP-ALC-002", "d", FloorCoverSearch, nullptr, RuleSearch::Names::kDemand},
};

const RuleSearch* SearchOf(std::string_view rule_id) {
  for (const RuleSearch& s : kSearches) {
    if (rule_id == s.rule) return &s;
  }
  return nullptr;
}

// The facts of the plan document of `file` that holds `line`.
const eval::Facts* PlanAt(const std::vector<PlanFacts>& plans, FileId file, uint32_t line) {
  const PlanFacts* best = nullptr;
  for (const PlanFacts& p : plans) {
    if (p.document.file == file && p.document.line <= line &&
        (best == nullptr || p.document.line > best->document.line))
      best = &p;
  }
  return best == nullptr ? nullptr : &best->facts;
}

// A lint of one group with `path`'s text replaced by `text`.
eval::LintReport Relint(const Engine& engine, const LintOptions& lint, Group group,
                        const std::string& path, const std::string& text) {
  for (TextFile& f : group.plans) {
    if (f.path == path) {
      f.text = text;
      f.stamp = std::nullopt;
    }
  }
  SourceManager sources(&engine.sources());
  return engine.Lint(std::move(group.plans), std::move(group.inventories), lint, &sources);
}

// Whether the lint `after` proves a repair of `t`: none of its findings
// left, no error that `before` did not have.
bool Proves(const eval::LintReport& after, const Target& t, const std::set<std::string>& before) {
  for (const eval::Violation& v : after.violations) {
    if (v.rule_id == t.rule && RepairedAllocation(v) == t.allocation) return false;
  }
  for (const eval::Violation& v : after.violations) {
    if (v.severity == Severity::kError && before.count(ErrorKey(v)) == 0) return false;
  }
  for (const Diagnostic& d : after.errors.items()) {
    if (d.severity == Severity::kError && before.count(ErrorKey(d)) == 0) return false;
  }
  return true;
}

// The acquisition `t`'s rule advises when it advises one and a lint of
// the plan citing it (`text` edited), with the record's inventory beside
// the group's in memory, proves it as Proves does a fix.
std::optional<eval::Acquisition> ProvedAdvice(const Engine& engine, const LintOptions& lint,
                                              Group group, const std::string& path,
                                              std::string_view text, const Target& t,
                                              const eval::Facts& facts,
                                              const std::set<std::string>& before, size_t* budget) {
  Advise advise = SearchOf(t.rule)->advise;
  if (advise == nullptr || *budget == 0) return std::nullopt;
  std::optional<Advice> advice = advise(t, facts, t.file, text);
  std::string edited, why;
  if (!advice || !ApplyReplacements(text, advice->cite, &edited, &why)) return std::nullopt;
  --*budget;
  group.inventories.push_back({"<acquisition>", std::move(advice->inventory)});
  if (!Proves(Relint(engine, lint, std::move(group), path, edited), t, before)) return std::nullopt;
  return std::move(advice->acquisition);
}

// `fix` located in the report's sources (file `file` there) rather than the
// search's own lint.
Fix InReport(Fix fix, FileId file) {
  for (Replacement& r : fix.replacements) r.file = r.begin.file = r.end.file = file;
  return fix;
}

using TargetKey = std::pair<std::string, std::string>;  // rule, allocation

// The allocations to repair among the findings of `lint` in `file` (by
// rule and allocation), those that are waived left out when `unwaived`.
std::map<TargetKey, Target> TargetsIn(const eval::LintReport& lint, FileId file, bool unwaived) {
  std::map<TargetKey, Target> targets;
  for (const eval::Violation& v : lint.violations) {
    if (v.loc.file != file || (unwaived && v.suppression)) continue;
    std::string allocation = RepairedAllocation(v);
    if (allocation.empty()) continue;
    auto [it, first] = targets.try_emplace({v.rule_id, allocation});
    Target& t = it->second;
    if (first) t = {v.rule_id, allocation, v.loc.file, v.loc.line, 0, v.evidence, v.params};
    if (v.measure.is(ValueKind::kInt)) t.short_by = std::max(t.short_by, v.measure.int_value());
  }
  // An allocation on a pool it may not use is repaired by moving it, and
  // only so: a repair of another rule that keeps it there (supply cited
  // for it where it stands) would make the plan say more firmly what it
  // must not.
  std::set<std::string> must_move;
  for (const auto& [key, t] : targets) {
    if (SearchOf(t.rule)->must_move) must_move.insert(t.allocation);
  }
  for (auto it = targets.begin(); it != targets.end();) {
    const RuleSearch& s = *SearchOf(it->second.rule);
    bool withheld = !s.must_move && s.names == RuleSearch::Names::kAllocation &&
                    must_move.count(it->second.allocation) != 0;
    it = withheld ? targets.erase(it) : std::next(it);
  }
  return targets;
}

// Whether `facts` holds plan documents of `file`.
bool HasFactsOf(const std::vector<PlanFacts>* facts, FileId file) {
  if (facts == nullptr) return false;
  for (const PlanFacts& p : *facts) {
    if (p.document.file == file) return true;
  }
  return false;
}

// Repairs the findings of one plan file (`file` in the report's sources).
// The facts and errors are the report's lint's when `linted` kept them,
// else those of a lint of the group run here first.
void RepairFile(const Engine& engine, const LintOptions& lint, const Group& group,
                const std::string& path, FileId file, const RepairOptions& options,
                const Linted* linted, size_t* budget, eval::LintReport* report) {
  const TextFile* plan = nullptr;
  for (const TextFile& f : group.plans) {
    if (f.path == path) plan = &f;
  }
  bool handed = linted != nullptr && linted->errors != nullptr && HasFactsOf(linted->facts, file);
  size_t needed = (handed ? 0 : 1) + (options.prove ? 1 : 0);  // to read the facts, to try one
  if (plan == nullptr || *budget < needed) return;
  std::vector<PlanFacts> own_facts;
  SourceManager sources(&engine.sources());
  std::set<std::string> before;
  std::map<TargetKey, Target> targets;
  const std::vector<PlanFacts>* facts = &own_facts;
  if (handed) {
    // The errors of the group's files in the report's lint.
    facts = linted->facts;
    std::set<std::string> paths = {""};
    for (const std::vector<TextFile>* files : {&group.plans, &group.inventories}) {
      for (const TextFile& f : *files) paths.insert(f.path);
    }
    for (const auto& [at, keys] : *linted->errors) {
      if (paths.count(at) != 0) before.insert(keys.begin(), keys.end());
    }
    targets = TargetsIn(*report, file, true);
  } else {
    --*budget;
    LintOptions first = lint;
    first.facts = &own_facts;
    eval::LintReport base = engine.Lint(group.plans, group.inventories, first, &sources);
    for (const auto& [at, keys] : ErrorKeysOf(base, sources))
      before.insert(keys.begin(), keys.end());
    for (FileId f = 0; f < sources.size(); ++f) {
      if (sources.Path(f) == path) targets = TargetsIn(base, f, false);
    }
  }
  std::map<TargetKey, std::vector<Fix>> proved;
  std::map<TargetKey, eval::Acquisition> advised;  // when none is
  for (const auto& [key, t] : targets) {
    const eval::Facts* at = PlanAt(*facts, t.file, t.line);
    if (at == nullptr) continue;
    for (Fix& fix : SearchOf(t.rule)->search(t, *at, t.file, plan->text, options.max_tries)) {
      std::string edited, why;
      if (options.prove && *budget == 0) break;
      if (!ApplyReplacements(plan->text, fix.replacements, &edited, &why)) continue;
      if (options.prove) {
        --*budget;
        if (!Proves(Relint(engine, lint, group, path, edited), t, before)) continue;
      }
      proved[key].push_back(InReport(std::move(fix), file));
    }
    // Advice is proved by a lint of its own; `--fix`, proposing, applies none.
    if (proved.count(key) != 0 || !options.prove) continue;
    if (auto q = ProvedAdvice(engine, lint, group, path, plan->text, t, *at, before, budget))
      advised[key] = std::move(*q);
  }
  for (eval::Violation& v : report->violations) {
    if (v.loc.file != file || v.suppression) continue;
    auto it = proved.find({v.rule_id, RepairedAllocation(v)});
    if (it != proved.end()) v.fixes = it->second;
    if (auto q = advised.find({v.rule_id, RepairedAllocation(v)}); q != advised.end())
      v.acquisition = std::make_shared<const eval::Acquisition>(q->second);
  }
}

}  // namespace

bool HasRepairSearch(const std::string& rule_id) {
  return SearchOf(rule_id) != nullptr;
}

std::string_view RepairedBinding(std::string_view rule_id) {
  const RuleSearch* search = SearchOf(rule_id);
  return search ? search->allocation_binding : "";
}

std::string RepairedAllocation(const eval::Violation& v) {
  const RuleSearch* search = SearchOf(v.rule_id);
  if (search == nullptr) return "";
  for (const eval::Evidence& e : v.evidence) {
    if (e.name == search->allocation_binding) return e.value;
  }
  return "";
}

std::string ErrorKey(const eval::Violation& v) {
  std::string key = v.rule_id;
  for (const eval::Evidence& e : v.evidence) {
    if (!e.loc.valid()) continue;
    // A record by its id; another value of the facts by where it is (its
    // planner's words up to what it is: "allocation `a-x`: `window`"), so
    // that an error about a value a repair changes is still that error.
    size_t is = e.shown.find("` is ");
    key += "\x1f" + e.name + "=" + (is == std::string::npos ? e.value : e.shown.substr(0, is + 1));
  }
  return key;
}

std::string ErrorKey(const Diagnostic& d) {
  return d.code + "\x1e" + d.message;
}

ErrorKeys ErrorKeysOf(const eval::LintReport& report, const SourceManager& sources, bool rules) {
  ErrorKeys keys;
  auto path = [&sources](FileId file) {
    return file == kNoFile || file >= sources.size() ? std::string()
                                                     : std::string(sources.Path(file));
  };
  for (const eval::Violation& v : report.violations) {
    if (rules && v.severity == Severity::kError) keys[path(v.loc.file)].insert(ErrorKey(v));
  }
  for (const Diagnostic& d : report.errors.items()) {
    if (d.severity == Severity::kError) keys[path(d.loc.file)].insert(ErrorKey(d));
  }
  return keys;
}

void Repair(const Engine& engine, const LintOptions& lint, const GroupOf& group_of,
            const SourceManager& sources, eval::LintReport* report, const RepairOptions& options,
            const Linted* linted) {
  LintOptions plain;
  plain.skip_rules = lint.skip_rules;
  std::vector<FileId> files;  // with a finding to repair, in report order
  for (const eval::Violation& v : report->violations) {
    if (HasRepairSearch(v.rule_id) && !v.suppression && v.loc.valid() &&
        std::find(files.begin(), files.end(), v.loc.file) == files.end())
      files.push_back(v.loc.file);
  }
  size_t budget = options.max_lints;
  for (FileId file : files) {
    if (options.prove && budget == 0) break;
    std::string path(sources.Path(file));
    Group group;
    if (!group_of(path, &group)) continue;
    RepairFile(engine, plain, group, path, file, options, linted, &budget, report);
  }
}

}  // namespace capops::repair
