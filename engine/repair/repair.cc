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

// The seconds [start, end) a `Window` value spans; an open side is the
// far past or future, and no window at all is all time.
std::pair<int64_t, int64_t> Span(const Value* window) {
  std::pair<int64_t, int64_t> span{INT64_MIN, INT64_MAX};
  if (window == nullptr || !window->is(ValueKind::kMap)) return span;
  const Value* start = window->Field("start");
  if (start == nullptr || !start->is(ValueKind::kDate)) return span;
  span.first = start->date_value().seconds;
  if (const Value* end = window->Field("end"); end && end->is(ValueKind::kDate)) {
    span.second = end->date_value().seconds;
  } else if (const Value* d = window->Field("duration"); d && d->is(ValueKind::kDuration)) {
    span.second = span.first + d->int_value();
  }
  return span;
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

// CAP-SUP-005's alternatives for `t`: cite a record (a), shrink (b).
std::vector<Fix> SupplyCandidates(const Target& t, const eval::Facts& facts, FileId file,
                                  std::string_view text, size_t max_tries) {
  std::vector<Fix> out;
  const Value* allocations = facts.plan.Field("allocations");
  const Value* a = allocations ? allocations->FindById(t.allocation) : nullptr;
  const Value* pools = facts.inventory.Field("pools");
  const Value* pool = a && pools ? pools->FindById(Text(a->Field("pool"))) : nullptr;
  if (a == nullptr || pool == nullptr) return out;
  std::string accelerator = Text(pool->Field("accelerator"));
  std::string region = Text(pool->Field("region"));
  std::string service = Text(pool->Field("service"));
  const Value* demands = facts.plan.Field("demands");
  const Value* d = demands ? demands->FindById(Text(a->Field("demand"))) : nullptr;
  // The allocation holds its GPUs in its own window, else its demand's.
  auto [from, to] = Span(a->Field("window") ? a->Field("window")
                         : d                ? d->Field("window")
                                            : nullptr);
  std::set<std::string> cited;
  if (const Value* e = a->Field("evidence"); e && e->is(ValueKind::kList)) {
    for (const Value& id : e->items()) cited.insert(Text(&id));
  }
  std::vector<std::pair<std::tuple<bool, int64_t, std::string>, const Value*>> records;
  if (const Value* supply = facts.inventory.Field("supply");
      supply && supply->is(ValueKind::kList)) {
    for (const Value& s : supply->items()) {
      std::string kind = Member(Text(s.Field("kind")));
      std::string id = Text(s.Field("id"));
      std::string s_region = Text(s.Field("region")), s_service = Text(s.Field("service"));
      if (kind != "reservation" && kind != "physical-confirmation") continue;
      if (id.empty() || cited.count(id) != 0 || Text(s.Field("accelerator")) != accelerator)
        continue;
      if (!s_region.empty() && !region.empty() && s_region != region) continue;
      if (!s_service.empty() && s_service != service) continue;
      int64_t gpus = Int(s.Field("gpus"), 0);
      auto [held_from, held_to] = Span(s.Field("window"));
      if (gpus <= 0 || held_from > from || held_to < to) continue;  // not the whole window
      records.push_back({{gpus < t.short_by, gpus, id}, &s});
    }
  }
  std::sort(records.begin(), records.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [rank, s] : records) {
    if (out.size() + 1 >= max_tries) break;  // one try kept for shrinking
    std::string id = std::get<2>(rank);
    std::optional<std::vector<Replacement>> edit = AddToList(file, text, *a, "evidence", id);
    if (!edit) continue;
    out.push_back({"cite `" + id + "` (" + Text(s->Field("kind")) + " of " +
                       std::to_string(std::get<1>(rank)) + " GPUs of `" + accelerator + "`) in `" +
                       t.allocation + "`'s evidence",
                   std::move(*edit)});
  }
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
