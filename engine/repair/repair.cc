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

namespace capops::repair {

namespace {

constexpr const char* kSupplyCovers = "CAP-SUP-005";

// The allocation a finding is about: its `a` binding.
std::string AllocationOf(const eval::Violation& v) {
  for (const eval::Evidence& e : v.evidence) {
    if (e.name == "a") return e.value;
  }
  return "";
}

// What identifies an error across two lints of a plan whose text moved: the
// rule and the facts it is about, or a diagnostic's code and message.
std::set<std::string> ErrorKeys(const eval::LintReport& report) {
  std::set<std::string> keys;
  for (const eval::Violation& v : report.violations) {
    if (v.severity != Severity::kError) continue;
    std::string key = v.rule_id;
    for (const eval::Evidence& e : v.evidence) {
      if (e.loc.valid()) key += "\x1f" + e.name + "=" + e.value;
    }
    keys.insert(std::move(key));
  }
  for (const Diagnostic& d : report.errors.items()) {
    if (d.severity == Severity::kError) keys.insert(d.code + "\x1e" + d.message);
  }
  return keys;
}

std::string Text(const Value* v) {
  if (v == nullptr || v->is(ValueKind::kNull)) return "";
  if (v->is(ValueKind::kString)) return std::string(v->string_value());
  return v->ToString();
}

int64_t Int(const Value* v, int64_t otherwise) {
  return v != nullptr && v->is(ValueKind::kInt) ? v->int_value() : otherwise;
}

// `-` and `_` are the same in an enum member.
std::string Member(std::string s) {
  std::replace(s.begin(), s.end(), '_', '-');
  return s;
}

// The seconds [start, end) a `Window` value spans, as timelines read it
// (eval::ToInterval); an open side is the far past or future, and no window
// at all is all time.
std::pair<int64_t, int64_t> Span(const Value* window) {
  eval::Interval i;
  if (window == nullptr || !eval::ToInterval(*window, &i).is(ValueKind::kNull))
    return {eval::Interval::kOpenStart, eval::Interval::kOpenEnd};
  return {i.start, i.end};
}

// The seconds allocation `a` holds its GPUs: its own window, else its
// demand's (in `demands`), else all time.
std::pair<int64_t, int64_t> HeldOver(const Value& a, const Value* demands) {
  if (const Value* w = a.Field("window")) return Span(w);
  const Value* d = demands ? demands->FindById(Text(a.Field("demand"))) : nullptr;
  return Span(d ? d->Field("window") : nullptr);
}

// One allocation whose findings of a rule are to be repaired.
struct Target {
  std::string rule;
  std::string allocation;
  FileId file = kNoFile;  // in the lint's sources
  uint32_t line = 0;      // of one of its findings
  int64_t short_by = 0;   // the most GPUs short over its findings
};

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

// The GPUs supply record `s` can back an allocation on `pool` with: a
// reservation or physical confirmation of the pool's accelerator, in its
// region (or in none), held with its service (or none); else 0.
int64_t Backs(const Value& s, const Value& pool) {
  std::string kind = Member(Text(s.Field("kind")));
  if (kind != "reservation" && kind != "physical-confirmation") return 0;
  if (Text(s.Field("accelerator")) != Text(pool.Field("accelerator"))) return 0;
  std::string s_region = Text(s.Field("region")), region = Text(pool.Field("region"));
  if (!s_region.empty() && !region.empty() && s_region != region) return 0;
  std::string s_service = Text(s.Field("service"));
  if (!s_service.empty() && s_service != Text(pool.Field("service"))) return 0;
  return std::max(Int(s.Field("gpus"), 0), int64_t{0});
}

// The ids an allocation cites, each once.
std::set<std::string> Cited(const Value& a) {
  std::set<std::string> cited;
  if (const Value* e = a.Field("evidence"); e && e->is(ValueKind::kList)) {
    for (const Value& id : e->items()) cited.insert(Text(&id));
  }
  return cited;
}

// CAP-SUP-005's alternative (c) for allocation `a` on `pool`: its own
// dated window moved, its duration kept, to the earliest start inside its
// demand `d`'s window where the records it cites that back the pool hold
// its GPUs beyond what the other allocations citing them take
// (EarliestFit). None when `a` has no dated window, `d` none with a start,
// or no start fits but the one it has.
std::optional<Fix> MoveCandidate(const Target& t, const eval::Facts& facts, const Value& a,
                                 const Value& pool, const Value* d, FileId file,
                                 std::string_view text) {
  const Value* window = a.Field("window");
  const Value* start = window && window->is(ValueKind::kMap) ? window->Field("start") : nullptr;
  if (start == nullptr || !start->is(ValueKind::kDate) || d == nullptr) return std::nullopt;
  auto [from, to] = Span(window);
  auto [business_from, business_to] = Span(d->Field("window"));
  int64_t gpus = Int(a.Field("gpus"), 0);
  if (to == INT64_MAX || business_from == INT64_MIN || gpus <= 0) return std::nullopt;
  const Value* supply = facts.inventory.Field("supply");
  if (supply == nullptr || !supply->is(ValueKind::kList)) return std::nullopt;
  std::map<std::string, int64_t> backing;  // the cited records that back the pool: their GPUs
  std::vector<Held> held, taken;
  for (const std::string& id : Cited(a)) {
    const Value* s = supply->FindById(id);
    int64_t g = s ? Backs(*s, pool) : 0;
    if (g <= 0) continue;
    backing[id] = g;
    auto [held_from, held_to] = Span(s->Field("window"));
    held.push_back({held_from, held_to, g});
  }
  if (held.empty()) return std::nullopt;
  // Another allocation citing some of them takes at most what they hold,
  // over its window (its own, else its demand's, else all time).
  const Value* allocations = facts.plan.Field("allocations");
  const Value* demands = facts.plan.Field("demands");
  for (const Value& b : allocations->items()) {
    if (&b == &a || Text(b.Field("id")) == t.allocation) continue;
    int64_t shared = 0;
    for (const std::string& id : Cited(b)) {
      if (auto it = backing.find(id); it != backing.end()) shared += it->second;
    }
    if (shared == 0) continue;
    auto [b_from, b_to] = HeldOver(b, demands);
    taken.push_back({b_from, b_to, std::clamp(Int(b.Field("gpus"), 0), int64_t{0}, shared)});
  }
  std::optional<int64_t> at = EarliestFit(held, taken, gpus, to - from, business_from, business_to);
  if (!at || *at == from) return std::nullopt;
  DateTime new_start{*at, start->date_value().offset};
  std::optional<Replacement> r = ReplaceScalar(file, text, *start, FormatDateTime(new_start));
  if (!r) return std::nullopt;
  Fix fix{"move `" + t.allocation + "` to start " + FormatDateTime(new_start) +
              " (the first window where its cited supply has " + std::to_string(gpus) +
              " GPUs free)",
          {std::move(*r)}};
  if (const Value* end = window->Field("end"); end && end->is(ValueKind::kDate)) {
    std::optional<Replacement> e = ReplaceScalar(
        file, text, *end, FormatDateTime({*at + (to - from), end->date_value().offset}));
    if (!e) return std::nullopt;
    fix.replacements.push_back(std::move(*e));
  }
  return fix;
}

// CAP-SUP-005's alternatives for `t`: cite a record (a), move (c), shrink (b).
std::vector<Fix> SupplyCandidates(const Target& t, const eval::Facts& facts, FileId file,
                                  std::string_view text, size_t max_tries) {
  std::vector<Fix> out;
  const Value* allocations = facts.plan.Field("allocations");
  const Value* a = allocations ? allocations->FindById(t.allocation) : nullptr;
  const Value* pools = facts.inventory.Field("pools");
  const Value* pool = a && pools ? pools->FindById(Text(a->Field("pool"))) : nullptr;
  if (a == nullptr || pool == nullptr) return out;
  std::string accelerator = Text(pool->Field("accelerator"));
  const Value* demands = facts.plan.Field("demands");
  const Value* d = demands ? demands->FindById(Text(a->Field("demand"))) : nullptr;
  auto [from, to] = HeldOver(*a, demands);
  std::set<std::string> cited = Cited(*a);
  std::vector<std::pair<std::tuple<bool, int64_t, std::string>, const Value*>> records;
  if (const Value* supply = facts.inventory.Field("supply");
      supply && supply->is(ValueKind::kList)) {
    for (const Value& s : supply->items()) {
      std::string id = Text(s.Field("id"));
      if (id.empty() || cited.count(id) != 0) continue;
      int64_t gpus = Backs(s, *pool);
      auto [held_from, held_to] = Span(s.Field("window"));
      if (gpus <= 0 || held_from > from || held_to < to) continue;  // not the whole window
      records.push_back({{gpus < t.short_by, gpus, id}, &s});
    }
  }
  std::sort(records.begin(), records.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  std::optional<Fix> move = MoveCandidate(t, facts, *a, *pool, d, file, text);
  for (const auto& [rank, s] : records) {
    // One try kept for shrinking, one for moving.
    if (out.size() + 1 + (move ? 1 : 0) >= max_tries) break;
    std::string id = std::get<2>(rank);
    std::optional<std::vector<Replacement>> edit = AddToList(file, text, *a, "evidence", id);
    if (!edit) continue;
    out.push_back({"cite `" + id + "` (" + Text(s->Field("kind")) + " of " +
                       std::to_string(std::get<1>(rank)) + " GPUs of `" + accelerator + "`) in `" +
                       t.allocation + "`'s evidence",
                   std::move(*edit)});
  }
  if (move) out.push_back(std::move(*move));
  int64_t gpus = Int(a->Field("gpus"), 0);
  int64_t covered = gpus - t.short_by;
  const Value* minimum = d ? d->Field("minimum_viable") : nullptr;
  int64_t floor = minimum ? Int(minimum->Field("gpus"), INT64_MAX) : 1;
  bool training = d && Member(Text(d->Field("slice"))) == "training";
  if (covered >= 1 && covered < gpus && covered >= floor && (minimum || !training)) {
    if (std::optional<Replacement> r =
            ReplaceScalar(file, text, *a->Field("gpus"), std::to_string(covered))) {
      std::string why = minimum ? ", not below its minimum viable " + std::to_string(floor) : "";
      out.push_back({"shrink `" + t.allocation + "` to " + std::to_string(covered) +
                         " GPUs, what its cited supply covers" + why,
                     {std::move(*r)}});
    }
  }
  return out;
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
    if (v.rule_id == t.rule && AllocationOf(v) == t.allocation) return false;
  }
  for (const std::string& key : ErrorKeys(after)) {
    if (before.count(key) == 0) return false;
  }
  return true;
}

// `fix` located in the report's sources (file `file` there) rather than the
// search's own lint.
Fix InReport(Fix fix, FileId file) {
  for (Replacement& r : fix.replacements) r.file = r.begin.file = r.end.file = file;
  return fix;
}

// Repairs the findings of one plan file (`file` in the report's sources).
void RepairFile(const Engine& engine, const LintOptions& lint, const Group& group,
                const std::string& path, FileId file, const RepairOptions& options, size_t* budget,
                eval::LintReport* report) {
  const TextFile* plan = nullptr;
  for (const TextFile& f : group.plans) {
    if (f.path == path) plan = &f;
  }
  if (plan == nullptr || *budget < 2) return;  // a lint to read the facts, one to try
  --*budget;
  LintOptions first = lint;
  std::vector<PlanFacts> facts;
  first.facts = &facts;
  SourceManager sources(&engine.sources());
  eval::LintReport base = engine.Lint(group.plans, group.inventories, first, &sources);
  std::set<std::string> before = ErrorKeys(base);
  std::map<std::pair<std::string, std::string>, Target> targets;
  for (const eval::Violation& v : base.violations) {
    if (!HasRepairSearch(v.rule_id) || sources.Path(v.loc.file) != path) continue;
    std::string allocation = AllocationOf(v);
    if (allocation.empty()) continue;
    Target& t = targets[{v.rule_id, allocation}];
    t = {v.rule_id, allocation, v.loc.file, v.loc.line,
         std::max(t.short_by, v.measure.is(ValueKind::kInt) ? v.measure.int_value() : int64_t{0})};
  }
  std::map<std::pair<std::string, std::string>, std::vector<Fix>> proved;
  for (const auto& [key, t] : targets) {
    const eval::Facts* at = PlanAt(facts, t.file, t.line);
    if (at == nullptr || t.short_by <= 0) continue;
    for (Fix& fix : SupplyCandidates(t, *at, t.file, plan->text, options.max_tries)) {
      std::string edited, why;
      if (*budget == 0) break;
      if (!ApplyReplacements(plan->text, fix.replacements, &edited, &why)) continue;
      --*budget;
      if (Proves(Relint(engine, lint, group, path, edited), t, before)) {
        proved[key].push_back(InReport(std::move(fix), file));
        if (options.first_only) *budget = 0;
      }
    }
  }
  for (eval::Violation& v : report->violations) {
    if (v.loc.file != file || v.suppression) continue;
    auto it = proved.find({v.rule_id, AllocationOf(v)});
    if (it != proved.end()) v.fixes = it->second;
  }
}

}  // namespace

std::optional<int64_t> EarliestFit(const std::vector<Held>& supply, const std::vector<Held>& taken,
                                   int64_t gpus, int64_t duration, int64_t earliest,
                                   int64_t latest) {
  if (duration <= 0 || earliest == INT64_MIN || earliest > latest - duration) return std::nullopt;
  // The changes of what is free, by time; what holds from all time on is
  // free from the start.
  int64_t level = 0;
  std::vector<std::pair<int64_t, int64_t>> changes;
  auto add = [&](const Held& h, int64_t sign) {
    if (h.from >= h.to || h.gpus == 0) return;
    if (h.from == INT64_MIN) {
      level += sign * h.gpus;
    } else {
      changes.push_back({h.from, sign * h.gpus});
    }
    if (h.to != INT64_MAX) changes.push_back({h.to, -sign * h.gpus});
  };
  for (const Held& h : supply) add(h, 1);
  for (const Held& h : taken) add(h, -1);
  std::sort(changes.begin(), changes.end());
  // Each step [at, next) at a constant level: a run of steps with `gpus`
  // free from `run` on fits at its first start inside the window.
  bool in_run = false;
  int64_t run = 0, at = INT64_MIN;
  for (size_t i = 0;;) {
    int64_t next = i < changes.size() ? changes[i].first : INT64_MAX;
    if (next > at) {
      if (level < gpus) {
        in_run = false;
      } else {
        if (!in_run) run = at;
        in_run = true;
        int64_t candidate = std::max(run, earliest);
        if (candidate > latest - duration) return std::nullopt;
        if (next >= candidate + duration) return candidate;
      }
      at = next;
    }
    if (i == changes.size()) return std::nullopt;
    for (; i < changes.size() && changes[i].first == at; ++i) level += changes[i].second;
  }
}

bool HasRepairSearch(const std::string& rule_id) {
  return rule_id == kSupplyCovers;
}

void Repair(const Engine& engine, const LintOptions& lint, const GroupOf& group_of,
            const SourceManager& sources, eval::LintReport* report, const RepairOptions& options) {
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
    if (budget < 2) break;
    std::string path(sources.Path(file));
    Group group;
    if (!group_of(path, &group)) continue;
    RepairFile(engine, plain, group, path, file, options, &budget, report);
  }
}

}  // namespace capops::repair
