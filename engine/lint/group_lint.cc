// SPDX-License-Identifier: Apache-2.0
// Linting groups of fact files (plans sharing their inventories) into one
// report, reusing stored findings of unchanged plans (result_cache.h).
// Entry point: LintGroups.
#include "engine/lint/group_lint.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "engine/facts/document_head.h"
#include "engine/facts/loader.h"

namespace capops::lint {

namespace {

void Merge(eval::LintReport part, eval::LintReport* into) {
  into->violations.insert(into->violations.end(), std::make_move_iterator(part.violations.begin()),
                          std::make_move_iterator(part.violations.end()));
  into->errors.Append(part.errors);
  into->files += part.files;
  into->plans += part.plans;
  into->rules = part.rules;
  into->ruleset_digest = part.ruleset_digest;
}

void Push(const Diagnostic& d, Diagnostics* into) {
  into->Add(d.severity, d.loc, d.message) = d;
}

bool Empty(const Findings& f) {
  return f.violations.empty() && f.errors.empty();
}

// True when a plan file may hold an `Inventory` document, which would merge
// into the inventory of every plan linted with it. Any YAML spelling of the
// kind has these letters or an escape, so most files are not read; the
// others only for their documents' heads (the lint parses them), and a head
// only a full parse could tell counts as one.
bool HoldsInventory(const TextFile& plan, const facts::LoadOptions& options) {
  if (plan.text.find("Inventory") == std::string::npos && plan.text.find('\\') == std::string::npos)
    return false;
  const std::string inventory = facts::DocumentKindName(facts::DocumentKind::kInventory);
  bool holds = false;
  facts::ScanHeads(plan.text, 0, options, {}, [&](const facts::DocumentHead& head) {
    holds = head.unsure || (head.kind && head.kind->scalar && head.kind->text == inventory);
    return !holds;
  });
  return holds;
}

// One Engine::Lint call's findings by plan file: each plan's `main` holds
// those located in it; the others (in the inventory, the policies) are shared.
struct Split {
  std::vector<CacheEntry> plans;
  Findings shared;
  bool usable = false;  // false: the call's files are not as expected, or the inventory is broken
};

// A group's lint with the cache. Entries: per plan file, the findings
// located in it and, when it was linted alone or its lint shared nothing,
// `solo`; per group (key over its plan keys), the shared findings. A report
// is composed from entries when that is exact, else the group is linted
// whole, as without the cache — the findings a plan adds to the inventory's
// cannot be told apart from another plan's in one Lint call.
// The files for a group's last lint: their texts moved out of `files`,
// which keeps the paths, so that a large text is not held twice while the
// lint loads it (and gives it back).
std::vector<TextFile> Handed(std::vector<TextFile>* files) {
  std::vector<TextFile> out;
  for (TextFile& f : *files) out.push_back(TextFile{f.path, std::move(f.text), f.stamp});
  return out;
}

class GroupLint {
 public:
  GroupLint(const Engine* engine, const LintOptions& lint, SourceManager* sources,
            FindingStore* cache, const CacheKeys& keys,
            const std::map<std::string, FileId, std::less<>>& policies,
            std::vector<TextFile>& plans, std::vector<TextFile>& inventories)
      : engine_(engine),
        lint_(lint),
        sources_(sources),
        cache_(cache),
        keys_(keys),
        policies_(policies),
        plans_(plans),
        inventories_(inventories) {
    for (const check::RuleInfo& r : engine->program()->rules) rule_ids_.insert(r.id);
  }

  eval::LintReport Run();

 private:
  void LookUp();
  std::optional<CacheEntry> Decode(const std::string& body);
  FileResolver Resolver() const;
  eval::LintReport LintWhole();
  eval::LintReport LintMisses(const std::vector<size_t>& misses);
  // `last`: no lint follows, so the texts may be handed over (Handed).
  Split LintAndSplit(const std::vector<size_t>& which, bool last, eval::LintReport* report);
  void Attribute(const eval::LintReport& report, FileId inventories,
                 const std::map<FileId, size_t>& owner, Split* split) const;
  eval::LintReport Compose(const std::vector<const Findings*>& parts, size_t plans) const;

  const Engine* engine_;
  const LintOptions& lint_;
  SourceManager* sources_;  // the run's: the engine's extended by the fact files
  FindingStore* cache_;
  const CacheKeys& keys_;
  const std::map<std::string, FileId, std::less<>>& policies_;
  std::vector<TextFile>& plans_;  // their texts are moved out by the last lint
  std::vector<TextFile>& inventories_;
  std::set<std::string, std::less<>> rule_ids_;
  std::vector<std::string> plan_keys_;
  std::map<std::string, FileId, std::less<>> files_;  // the group's files as entries resolve them
  std::vector<std::optional<CacheEntry>> entries_;
};

// Paths in entries name the group's files, or policy files.
FileResolver GroupLint::Resolver() const {
  return [this](std::string_view path) -> std::optional<FileId> {
    if (auto it = files_.find(path); it != files_.end()) return it->second;
    if (auto it = policies_.find(path); it != policies_.end()) return it->second;
    return std::nullopt;
  };
}

std::optional<CacheEntry> GroupLint::Decode(const std::string& body) {
  CacheEntry entry;
  if (DecodeEntry(body, Resolver(), &entry)) return entry;
  cache_->Reject();
  return std::nullopt;
}

// The group's files join the sources in the order a lint gives them
// (inventories, then plans), so that diagnostics sort as after a lint.
void GroupLint::LookUp() {
  for (const auto* files : {&inventories_, &plans_}) {
    for (const TextFile& f : *files)
      files_.emplace(f.path, engine_->AddSource(sources_, f.path, f.text, f.stamp));
  }
  std::string inventory = keys_.InventoryDigest(inventories_);
  for (const TextFile& plan : plans_) {
    plan_keys_.push_back(keys_.PlanKey(inventory, plan));
    std::optional<std::string> body = cache_->Lookup(plan_keys_.back());
    entries_.push_back(body ? Decode(*body) : std::nullopt);
  }
}

eval::LintReport GroupLint::Run() {
  // Without inventories, a lint's error names its first plan only: not per plan.
  if (inventories_.empty())
    return engine_->Lint(Handed(&plans_), Handed(&inventories_), lint_, sources_);
  LookUp();
  std::vector<size_t> misses;
  bool solo = true;  // every hit knows its whole contribution
  for (size_t i = 0; i < plans_.size(); ++i) {
    if (!entries_[i]) misses.push_back(i);
    solo = solo && (!entries_[i] || entries_[i]->solo);
  }
  for (size_t i : misses) {
    if (!HoldsInventory(plans_[i], engine_->options().facts)) continue;
    return engine_->Lint(Handed(&plans_), Handed(&inventories_), lint_, sources_);
  }
  if (misses.size() == plans_.size()) return LintWhole();
  if (!misses.empty()) return solo ? LintMisses(misses) : LintWhole();
  std::vector<const Findings*> parts;
  size_t plans = 0;
  for (const std::optional<CacheEntry>& e : entries_) {
    parts.push_back(&e->main);
    if (solo) parts.push_back(&*e->solo);
    if (solo) plans += e->solo->plans;
  }
  if (solo) return Compose(parts, plans);
  std::optional<std::string> body = cache_->Lookup(keys_.GroupKey(plan_keys_));
  std::optional<CacheEntry> group = body ? Decode(*body) : std::nullopt;
  if (!group) return LintWhole();
  parts.push_back(&group->main);
  return Compose(parts, group->main.plans);
}

// Lints the whole group and stores what can be told apart: each missed
// plan's own findings, and the group's shared ones.
eval::LintReport GroupLint::LintWhole() {
  std::vector<size_t> all(plans_.size());
  std::iota(all.begin(), all.end(), 0);
  eval::LintReport report;
  Split split = LintAndSplit(all, true, &report);
  if (!split.usable) return report;
  bool solo = true;
  for (size_t i = 0; i < plans_.size(); ++i) {
    if (!entries_[i]) cache_->Store(plan_keys_[i], EncodeEntry(split.plans[i], *sources_));
    solo = solo && (entries_[i] ? entries_[i]->solo : split.plans[i].solo);
  }
  if (solo) return report;  // the plan entries say it all
  split.shared.plans = report.plans;
  cache_->Store(keys_.GroupKey(plan_keys_),
                EncodeEntry(CacheEntry{std::move(split.shared), {}}, *sources_));
  return report;
}

// Lints only the missed plans, when every hit knows its whole contribution.
// Exact when one plan is linted (its shared findings are its own) or when
// the lint shares nothing; otherwise the whole group is linted.
eval::LintReport GroupLint::LintMisses(const std::vector<size_t>& misses) {
  eval::LintReport report;
  Split split = LintAndSplit(misses, false, &report);
  if (!split.usable || (misses.size() > 1 && !Empty(split.shared))) return LintWhole();
  for (size_t k = 0; k < misses.size(); ++k) {
    std::string body = EncodeEntry(split.plans[k], *sources_);
    cache_->Store(plan_keys_[misses[k]], body);
    CacheEntry entry;  // read back as from the disk: locations in the group's files
    if (!DecodeEntry(body, Resolver(), &entry)) return LintWhole();
    entries_[misses[k]] = std::move(entry);
  }
  std::vector<const Findings*> parts;
  size_t plans = report.plans;
  for (size_t i = 0; i < plans_.size(); ++i) {
    bool missed = std::binary_search(misses.begin(), misses.end(), i);
    parts.push_back(&entries_[i]->main);
    if (entries_[i]->solo) parts.push_back(&*entries_[i]->solo);
    if (!missed) plans += entries_[i]->solo->plans;
  }
  return Compose(parts, plans);
}

// Lints plans `which` of the group and splits the findings by plan file.
Split GroupLint::LintAndSplit(const std::vector<size_t>& which, bool last,
                              eval::LintReport* report) {
  std::vector<TextFile> some;
  if (which.size() != plans_.size()) {
    for (size_t i : which) some.push_back(plans_[i]);
  }
  const SourceManager& sources = *sources_;
  FileId base = static_cast<FileId>(sources.size());
  if (which.size() == plans_.size() && last) {
    *report = engine_->Lint(Handed(&plans_), Handed(&inventories_), lint_, sources_);
  } else {
    *report =
        engine_->Lint(which.size() == plans_.size() ? plans_ : some, inventories_, lint_, sources_);
  }
  // Lint adds the inventories, then the plans, in order; else nothing is told apart.
  Split split;
  size_t first_plan = base + inventories_.size();
  if (sources.size() != first_plan + which.size()) return split;
  for (size_t k = 0; k < inventories_.size(); ++k) {
    if (sources.Path(static_cast<FileId>(base + k)) != inventories_[k].path) return split;
  }
  std::map<FileId, size_t> owner;
  for (size_t k = 0; k < which.size(); ++k) {
    FileId id = static_cast<FileId>(first_plan + k);
    if (sources.Path(id) != plans_[which[k]].path) return split;
    owner.emplace(id, k);
  }
  split.plans.resize(which.size());
  Attribute(*report, base, owner, &split);
  return split;
}

// Fills `split` from `report`. A plan counts one evaluated document unless a
// diagnostic in it (not a warning, not a rule's error) says it may not have
// been evaluated; that estimate never exceeds the truth, so it is exact when
// the counts add up to the report's.
void GroupLint::Attribute(const eval::LintReport& report, FileId inventories,
                          const std::map<FileId, size_t>& owner, Split* split) const {
  for (const eval::Violation& v : report.violations) {
    auto it = owner.find(v.loc.file);
    (it == owner.end() ? split->shared : split->plans[it->second].main).violations.push_back(v);
  }
  std::vector<size_t> counted(split->plans.size(), 1);
  for (const Diagnostic& d : report.errors.items()) {
    auto it = owner.find(d.loc.file);
    bool rule_error = rule_ids_.count(d.code) != 0;
    if (it != owner.end()) {
      Push(d, &split->plans[it->second].main.errors);
      if (d.severity != Severity::kWarning && !rule_error) counted[it->second] = 0;
      continue;
    }
    Push(d, &split->shared.errors);
    bool in_inventory = d.loc.file >= inventories && d.loc.file < inventories + inventories_.size();
    if (in_inventory && d.severity == Severity::kError && !rule_error)
      return;  // broken: not usable
  }
  bool counts_known = std::accumulate(counted.begin(), counted.end(), size_t{0}) == report.plans;
  for (size_t k = 0; k < split->plans.size(); ++k) {
    if (split->plans.size() == 1) {
      split->plans[k].solo = split->shared;
      split->plans[k].solo->plans = report.plans;
    } else if (counts_known && Empty(split->shared)) {
      split->plans[k].solo = Findings{{}, {}, counted[k]};
    }
  }
  split->usable = true;
}

// A group's report from entries, sorted and deduplicated as a lint's.
eval::LintReport GroupLint::Compose(const std::vector<const Findings*>& parts, size_t plans) const {
  eval::LintReport report;
  report.ruleset_digest = engine_->ruleset_digest();
  report.rules = engine_->program()->rules.size();
  report.files = inventories_.size() + plans_.size();
  report.plans = plans;
  for (const Findings* f : parts) {
    report.violations.insert(report.violations.end(), f->violations.begin(), f->violations.end());
    report.errors.Append(f->errors);
  }
  const SourceManager& sources = *sources_;
  eval::SortViolations(sources, &report.violations, /*drop_repeats=*/true);
  report.errors.Sort();
  return report;
}

}  // namespace

bool LintGroups(const Engine& engine, const LintOptions& lint, SourceManager* sources,
                const GroupFiles& groups, const std::vector<SkippedFile>& skipped,
                eval::LintReport* report, std::string* error, FindingStore* cache) {
  *report = eval::LintReport{};
  report->ruleset_digest = engine.ruleset_digest();
  report->rules = engine.program() != nullptr ? engine.program()->rules.size() : 0;
  std::optional<CacheKeys> keys;
  std::map<std::string, FileId, std::less<>> policies;  // every source so far is a policy file
  if (cache != nullptr && engine.program() != nullptr) {
    keys.emplace(engine, lint);
    for (FileId f = 0; f < engine.sources().size(); ++f)
      policies.emplace(engine.sources().Path(f), f);
  }
  // Each group's files are read as it comes, so that only one group's texts
  // are held at a time. A file that cannot be read still stops the run
  // before anything is printed: the report is printed when all are linted.
  for (size_t g = 0; g < groups.count; ++g) {
    std::vector<TextFile> plans, inventories;
    if (!groups.read(g, &plans, &inventories, error)) return false;
    Merge(keys ? GroupLint(&engine, lint, sources, cache, *keys, policies, plans, inventories).Run()
               : engine.Lint(std::move(plans), std::move(inventories), lint, sources),
          report);
  }
  for (const SkippedFile& f : skipped) {
    Diagnostic note = f.note;
    note.loc.file = engine.AddSource(sources, f.path, f.text);
    Push(note, &report->errors);
  }
  eval::SortViolations(*sources, &report->violations);
  report->errors.Sort();
  return true;
}

}  // namespace capops::lint
