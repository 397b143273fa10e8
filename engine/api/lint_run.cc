// SPDX-License-Identifier: Apache-2.0
// LintRun: the fact side of Engine::Lint. Every file is loaded first, since
// inventories merge across files; then each document meets the schema of its
// kind; a plan whose facts (or inventory) break the schema is not evaluated —
// rules over invalid facts would mislead — and that is said in the report.
#include "engine/api/lint_run.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <tuple>

#include "engine/api/fact_names.h"
#include "engine/common/parallel.h"
#include "engine/eval/shared_indexes.h"
#include "engine/facts/scalar_fix.h"
#include "engine/facts/validate.h"

namespace capops {

// The step budget grows with the facts: a linear rule over 100k
// allocations needs far more steps than one over a hundred.
eval::EvalOptions RunBudget(eval::EvalOptions eval, const eval::Facts& facts) {
  uint64_t mib = std::max<uint64_t>(1, (facts.file_bytes + (1u << 20) - 1) >> 20);
  eval.max_steps = eval.max_steps > UINT64_MAX / mib ? UINT64_MAX : eval.max_steps * mib;
  return eval;
}

namespace {

// What one evaluation of a rule cost, added to its line of the profile.
void Charge(const std::string& rule, const eval::EvalResult& part,
            std::chrono::steady_clock::duration took, eval::Profile* profile) {
  eval::RuleCost& cost = profile->rules[rule];
  cost.nanos +=
      static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(took).count());
  ++cost.evaluations;
  cost.steps += part.steps;
  cost.bytes += part.bytes;
  cost.visited += part.visited;
  cost.index_probes += part.index_probes;
  cost.index_picked += part.index_picked;
  cost.findings += part.violations.size() + part.errors.size();
}

}  // namespace

LintRun::LintRun(const check::Program& program, const eval::ParamValues& params,
                 const std::string& digest, const EngineOptions& options, eval::EvalOptions eval,
                 std::set<std::string> skip_rules, SourceManager* sources)
    : program_(program),
      params_(params),
      options_(options),
      eval_(std::move(eval)),
      skip_rules_(std::move(skip_rules)),
      sources_(sources) {
  report_.ruleset_digest = digest;
  report_.rules = program.rules.size();
}

// The size from which a fact file is read in halves on two threads
// (facts::LoadOptions::halves_from): below it, starting a thread costs
// about what it saves.
constexpr size_t kReadInHalvesFrom = size_t{4} << 20;

size_t LintRun::jobs() const {
  return options_.jobs == 0 ? DefaultJobs() : options_.jobs;
}

// Files are added in order (FileIds as a sequential run gives them), parsed
// in parallel, then taken in order.
// The texts move into the source manager: a large plan is held once, and
// only until its documents are loaded when it can be read back from disk.
void LintRun::Load(std::vector<TextFile> inventories, std::vector<TextFile> plans) {
  std::vector<FileId> ids;
  size_t inventory_files = inventories.size();
  for (auto* files : {&inventories, &plans}) {
    for (TextFile& f : *files) {
      fact_bytes_ += f.text.size();
      ids.push_back(sources_->Add(std::move(f.path), std::move(f.text), f.stamp));
    }
  }
  // A large plan takes most of the loading: on more than one thread, it is
  // read in two halves at once rather than beside an idle thread.
  facts::LoadOptions load = options_.facts;
  if (jobs() > 1) load.halves_from = std::min(load.halves_from, kReadInHalvesFrom);
  std::vector<facts::LoadResult> loaded(ids.size());
  ParallelFor(ids.size(), jobs(), [&](size_t i) {
    loaded[i] = facts::LoadYamlReleasing(sources_, ids[i], load, options_.release_text_bytes);
  });
  for (size_t i = 0; i < ids.size(); ++i)
    Accept(ids[i], std::move(loaded[i]), i >= inventory_files);
}

namespace {

// A file that yielded no document and does not even name our apiVersion may
// be any file on the machine (a mistyped --inventory): its errors are
// reported, its lines are not quoted.
bool MayBeAnyFile(const SourceFile& file, const facts::LoadResult& loaded) {
  if (!loaded.documents.empty()) return false;
  std::optional<std::string> text = file.ReadText();
  return text && text->find(facts::kApiVersion) == std::string::npos;
}

}  // namespace

void LintRun::Accept(FileId id, facts::LoadResult loaded, bool is_plan_file) {
  if (MayBeAnyFile(sources_->file(id), loaded)) sources_->Withhold(id);
  for (facts::AliasUse& use : loaded.aliases) {
    alias_uses_.emplace(std::make_tuple(use.use.file, use.use.line, use.use.column),
                        std::move(use));
  }
  for (const facts::MergedValue& m : loaded.merged)
    merged_.emplace(std::make_tuple(m.at.file, m.at.line, m.at.column), merges_.size() + m.site);
  merges_.insert(merges_.end(), std::make_move_iterator(loaded.merges.begin()),
                 std::make_move_iterator(loaded.merges.end()));
  report_.errors.Append(loaded.diagnostics);
  ++report_.files;
  if (loaded.documents.empty() && !loaded.diagnostics.HasErrors()) {
    report_.errors.Error(SourceLoc{id, 1, 1}, "no documents in this file").help =
        "a fact file holds YAML documents with `apiVersion: capops.dev/v1` and a `kind`";
  }
  for (facts::Document& d : loaded.documents) {
    if (d.kind == facts::DocumentKind::kCapacityPlan && !is_plan_file) {
      report_.errors.Error(d.loc, "a `CapacityPlan` document in an inventory file").help =
          "lint it as a plan file instead";
      continue;
    }
    if (d.kind == facts::DocumentKind::kCapacityPlan) plans_.push_back(documents_.size());
    if (is_plan_file) plan_files_.insert(id);
    documents_.push_back(std::move(d));
  }
}

namespace {

// `from` added to `*into`, without repeats (a few record indexes at most).
void AddUnlisted(const std::vector<uint32_t>& from, std::vector<uint32_t>* into) {
  for (uint32_t record : from) {
    if (std::find(into->begin(), into->end(), record) == into->end()) into->push_back(record);
  }
}

}  // namespace

void LintRun::Validate() {
  const TypeTable& schema = program_.schema;
  valid_.assign(documents_.size(), true);
  unlisted_.assign(documents_.size(), {});
  std::vector<Diagnostics> problems(documents_.size());
  ParallelFor(documents_.size(), jobs(), [&](size_t i) {
    facts::Document& d = documents_[i];
    if (schema.Document(facts::DocumentKindName(d.kind)) == nullptr) {
      // An untyped rule set: values are typed by their text alone.
      d.root = facts::TypeByText(std::move(d.root), &problems[i]);
      return;
    }
    facts::ValidateOptions options;
    options.key_at = facts::KeyLocator(*sources_, d.loc.file);
    facts::Document taken{d.kind, std::move(d.root), d.loc};
    d.root =
        facts::ValidateDocument(schema, std::move(taken), &problems[i], options, &unlisted_[i]);
    valid_[i] = !problems[i].HasErrors();
  });
  for (const Diagnostics& p : problems) report_.errors.Append(p);
}

// The inventory files' documents merge into the inventory every plan shares;
// an `Inventory` document inside a plan file adds to it for that file's
// plans only, so that one plan file cannot supply another's facts.
void LintRun::MergeInventories() {
  std::vector<const facts::Document*> shared;
  std::map<FileId, std::vector<const facts::Document*>> own;
  bool shared_valid = true;
  for (size_t i = 0; i < documents_.size(); ++i) {
    const facts::Document& d = documents_[i];
    if (d.kind != facts::DocumentKind::kInventory) continue;
    if (plan_files_.count(d.loc.file) != 0) {
      own[d.loc.file].push_back(&d);
      bool& valid = own_valid_.emplace(d.loc.file, true).first->second;
      valid = valid && valid_[i];
      AddUnlisted(unlisted_[i], &own_unlisted_[d.loc.file]);
    } else {
      shared.push_back(&d);
      shared_valid = shared_valid && valid_[i];
      AddUnlisted(unlisted_[i], &inventory_unlisted_);
    }
  }
  for (auto& [file, unlisted] : own_unlisted_) AddUnlisted(inventory_unlisted_, &unlisted);
  Diagnostics problems;
  inventory_ = facts::MergeDocuments(shared, &problems);
  inventory_valid_ = shared_valid && !problems.HasErrors();
  report_.errors.Append(problems);
  for (auto& [file, documents] : own) {
    std::vector<const facts::Document*> all = shared;
    all.insert(all.end(), documents.begin(), documents.end());
    Diagnostics merged;
    own_inventory_[file] = facts::MergeDocuments(all, &merged);
    bool valid = inventory_valid_ && own_valid_[file];
    for (const Diagnostic& d : merged.items()) {
      if (d.loc.file != file) continue;  // the shared documents' own, said once above
      report_.errors.Add(d.severity, d.loc, d.message) = d;
      valid = valid && d.severity != Severity::kError;
    }
    own_valid_[file] = valid;
  }
  for (size_t index : plans_) {
    FileId file = documents_[index].loc.file;
    if (!shared.empty() || own.count(file) != 0 || !without_inventory_.insert(file).second)
      continue;
    report_.errors.Error(documents_[index].loc, "no `Inventory` document was given").help =
        "pass `--inventory FILE`, or put `inventory.yaml` next to the plan";
  }
}

// The inventory a plan document is linted against, and whether it is valid.
std::pair<const Value*, bool> LintRun::InventoryFor(FileId plan_file) const {
  auto it = own_inventory_.find(plan_file);
  if (it == own_inventory_.end()) return {&inventory_, inventory_valid_};
  return {&it->second, own_valid_.at(plan_file)};
}

const std::vector<uint32_t>& LintRun::InventoryUnlisted(FileId plan_file) const {
  auto it = own_unlisted_.find(plan_file);
  return it == own_unlisted_.end() ? inventory_unlisted_ : it->second;
}

// False, with a note in the report, when the plan's facts are not fit for rules.
bool LintRun::ReadyToEvaluate(size_t index, eval::Facts* out) {
  const TypeTable& schema = program_.schema;
  eval::Facts& facts = *out;
  auto [inventory, inventory_valid] = InventoryFor(documents_[index].loc.file);
  facts = eval::Facts{documents_[index].root, *inventory, fact_bytes_};
  bool ok = valid_[index] && inventory_valid;
  const RecordDef* plan_record = schema.Document("CapacityPlan");
  const RecordDef* inventory_record = schema.Document("Inventory");
  // Without any inventory, every reference into it dangles: the one error
  // that no `Inventory` was given says it all.
  if (without_inventory_.count(documents_[index].loc.file) != 0) return false;
  if (plan_record != nullptr && inventory_record != nullptr) {
    Diagnostics dangling;
    // A list hidden by a misspelt key (either document) leaves its records'
    // references unchecked: that key's error says so, once.
    facts::CheckReferences(
        schema,
        {{plan_record, facts.plan, unlisted_[index]},
         {inventory_record, facts.inventory, InventoryUnlisted(documents_[index].loc.file)}},
        &dangling);
    ok = ok && !dangling.HasErrors();
    report_.errors.Append(dangling);
  }
  if (!ok) {
    eval::NoteNotEvaluated(&report_.errors, documents_[index].loc);
    return false;
  }
  return true;
}

// Every rule over every plan, as tasks on the threads; then each plan's
// results merged in rule order and sorted, as eval::Evaluate does.
void LintRun::EvaluatePlans() {
  std::vector<eval::Facts> facts;
  for (size_t index : plans_) {
    eval::Facts f;
    if (!ReadyToEvaluate(index, &f)) continue;
    if (keep_facts_ != nullptr) keep_facts_->push_back({documents_[index].loc, f});
    facts.push_back(std::move(f));
  }
  size_t rules = program_.rules.size();
  std::vector<eval::EvalResult> results(facts.size() * rules);
  std::vector<size_t> enabled;  // skipped rules left out
  for (size_t rule = 0; rule < rules; ++rule) {
    if (skip_rules_.count(program_.rules[rule].id) == 0) enabled.push_back(rule);
  }
  // Coverage counters are shared; a profile times each rule alone.
  bool one_by_one = eval_.coverage != nullptr || eval_.profile != nullptr;
  size_t threads = one_by_one ? 1 : jobs();
  // Each plan's rules in groups, dealt round-robin: a group shares passes
  // over the facts (eval::EvaluateRules); eight groups a thread, taken as
  // threads come free, leave little for one thread to finish alone while
  // the others wait (rules differ widely in cost).
  size_t groups = eval_.profile != nullptr ? enabled.size()
                  : threads == 1           ? 1
                                           : std::min(enabled.size(), threads * 8);
  eval::SharedIndexes indexes;  // the join indexes of this call's facts, built once for every rule
  ParallelFor(facts.size() * groups, threads, [&](size_t task) {
    size_t plan = task / groups;
    std::vector<size_t> group;
    for (size_t i = task % groups; i < enabled.size(); i += groups) group.push_back(enabled[i]);
    auto started = std::chrono::steady_clock::now();
    std::vector<eval::EvalResult> parts = eval::EvaluateRules(
        program_, group, params_, facts[plan], *sources_, RunBudget(eval_, facts[plan]), &indexes);
    if (eval_.profile != nullptr) {
      auto took = std::chrono::steady_clock::now() - started;
      Charge(program_.rules[group[0]].id, parts[0], took, eval_.profile);
    }
    for (size_t i = 0; i < group.size(); ++i)
      results[plan * rules + group[i]] = std::move(parts[i]);
  });
  if (eval_.profile != nullptr) eval_.profile->shared_indexes += indexes.size();
  for (size_t p = 0; p < facts.size(); ++p) {
    eval::EvalResult r;
    for (size_t rule = 0; rule < rules; ++rule)
      eval::AppendResult(std::move(results[p * rules + rule]), &r);
    eval::SortResult(*sources_, &r);
    ++report_.plans;
    report_.violations.insert(report_.violations.end(),
                              std::make_move_iterator(r.violations.begin()),
                              std::make_move_iterator(r.violations.end()));
    report_.errors.Append(r.errors);
  }
}

// Sorted by file, line, column, rule; inventory-only findings repeat for
// every plan, so exact repeats go.
void LintRun::SortAndDedupe() {
  eval::SortViolations(*sources_, &report_.violations, /*drop_repeats=*/true);
  report_.errors.Sort();
}

void LintRun::FillFirstPlan(eval::Facts* facts) const {
  facts->inventory = inventory_;
  facts->file_bytes = fact_bytes_;
  if (!plans_.empty()) {
    facts->plan = documents_[plans_[0]].root;
    facts->inventory = *InventoryFor(documents_[plans_[0]].loc.file).first;
  }
}

bool LintRun::FirstPlanFacts(eval::Facts* facts, Diagnostics* problems) {
  Validate();
  MergeInventories();
  FillFirstPlan(facts);
  report_.errors.Sort();
  problems->Append(report_.errors);
  return !report_.errors.HasErrors();
}

// Labels the evaluator worded after the rule's variables (`d.slice`) are
// worded after the facts (demand `explore`: `slice`), from one walk of the
// documents for the places labelled; a place the walk does not find keeps
// the evaluator's words. Nothing is walked when no finding has a label.
void LintRun::NameLabels() {
  std::set<std::tuple<FileId, uint32_t, uint32_t>> wanted;
  for (const eval::Violation& v : report_.violations) {
    for (const eval::Label& l : v.labels) {
      if (!l.value.empty()) wanted.emplace(l.loc.file, l.loc.line, l.loc.column);
    }
    for (const eval::Evidence& e : v.evidence) {
      if (e.loc.valid() && !e.at_fact) wanted.emplace(e.loc.file, e.loc.line, e.loc.column);
    }
  }
  if (wanted.empty()) return;
  FactNames names(program_.schema, documents_, wanted);
  std::vector<SourceLoc> owners;
  for (eval::Violation& v : report_.violations) {
    for (eval::Evidence& e : v.evidence) {
      if (e.loc.valid() && !e.at_fact) e.shown = names.Binding(e.loc, e.value);
    }
    if (v.labels.empty()) continue;
    owners = v.at_owners;
    for (const eval::Evidence& e : v.evidence) owners.push_back(e.loc);
    for (eval::Label& l : v.labels) {
      if (l.value.empty()) continue;
      const FactName* name = names.Find(l.loc, l.field, owners);
      if (name != nullptr && !name->path.empty()) l.message = name->Said(l.value);
      l.value.clear();
      l.field.clear();
    }
  }
}

// A finding or an error at a value used through an alias (`*x`) also points
// at the anchor, where the value is written; one at a value merged in by
// `<<` (located where it is written) names the `<<` that brought it into
// the fact the finding is about.
void LintRun::PointAtAnchors() {
  if (alias_uses_.empty() && merged_.empty()) return;
  auto at = [](const SourceLoc& loc) { return std::make_tuple(loc.file, loc.line, loc.column); };
  auto use_at = [&](const SourceLoc& loc) -> const facts::AliasUse* {
    auto it = alias_uses_.find(at(loc));
    return it == alias_uses_.end() ? nullptr : &it->second;
  };
  auto said = [](const facts::AliasUse& use) { return "`&" + use.name + "` is defined here"; };
  auto said_merged = [](const facts::MergeSite& m) {
    return m.name.empty() ? std::string("merged in here") : "merged in here from `&" + m.name + "`";
  };
  for (eval::Violation& v : report_.violations) {
    if (const facts::AliasUse* use = use_at(v.loc)) v.labels.push_back({use->anchor, said(*use)});
    if (const facts::MergeSite* m = CopyOf(v)) {
      v.via = m->site;
      v.labels.push_back({m->site, said_merged(*m)});
    }
    v.at_owners.clear();
  }
  report_.errors.Annotate([&](Diagnostic& d) {
    if (const facts::AliasUse* use = use_at(d.loc)) d.related.push_back({use->anchor, said(*use)});
    // An error in the text is in every copy of it.
    auto [begin, end] = merged_.equal_range(at(d.loc));
    for (auto it = begin; it != end; ++it) {
      const facts::MergeSite& m = merges_[it->second];
      d.related.push_back({m.site, said_merged(m)});
    }
  });
}

// A finding at a merged value is about one of its copies, or about it where
// it is written: of the maps it was read through (`at`'s, innermost first,
// then the records the rule bound, innermost first), the first that it was
// merged into names the copy, or that it was merged from the original.
const facts::MergeSite* LintRun::CopyOf(const eval::Violation& v) const {
  auto [begin, end] = merged_.equal_range(std::make_tuple(v.loc.file, v.loc.line, v.loc.column));
  if (begin == end) return nullptr;
  std::vector<SourceLoc> maps = v.at_owners;
  for (auto e = v.evidence.rbegin(); e != v.evidence.rend(); ++e) maps.push_back(e->loc);
  for (const SourceLoc& map : maps) {
    for (auto it = begin; it != end; ++it) {
      if (merges_[it->second].into == map) return &merges_[it->second];
    }
    for (auto it = begin; it != end; ++it) {
      if (merges_[it->second].from == map) return nullptr;
    }
  }
  return nullptr;
}

eval::LintReport LintRun::Finish(eval::Facts* first_plan) {
  Validate();
  MergeInventories();
  if (first_plan != nullptr) FillFirstPlan(first_plan);
  EvaluatePlans();
  NameLabels();
  PointAtAnchors();
  // Before the texts of large files are gone from memory for good.
  facts::AttachScalarFixes(*sources_, &report_.errors);
  SortAndDedupe();
  return std::move(report_);
}

}  // namespace capops
