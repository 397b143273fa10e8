// LintRun: the fact side of Engine::Lint. Every file is loaded first, since
// inventories merge across files; then each document meets the schema of its
// kind; a plan whose facts (or inventory) break the schema is not evaluated —
// rules over invalid facts would mislead — and that is said in the report.
#include "engine/api/lint_run.h"

#include <algorithm>
#include <tuple>

#include "engine/facts/validate.h"

namespace capops {

LintRun::LintRun(const check::Program& program, const std::vector<Value>& params, const std::string& digest,
                 const EngineOptions& options, SourceManager* sources)
    : program_(program), params_(params), options_(options), sources_(sources) {
  report_.ruleset_digest = digest;
  report_.rules = program.rules.size();
}

void LintRun::Load(const TextFile& file, bool is_plan_file) {
  FileId id = sources_->Add(file.path, file.text);
  facts::LoadResult loaded = facts::LoadYaml(*sources_, id, options_.facts);
  report_.errors.Append(loaded.diagnostics);
  ++report_.files;
  if (loaded.documents.empty() && !loaded.diagnostics.HasErrors()) {
    report_.errors.Error(SourceLoc{id, 1, 1}, "no documents in this file")
        .help = "a fact file holds YAML documents with `apiVersion: capops.dev/v1` and a `kind`";
  }
  for (facts::Document& d : loaded.documents) {
    if (d.kind == facts::DocumentKind::kCapacityPlan && !is_plan_file) {
      report_.errors.Error(d.loc, "a `CapacityPlan` document in an inventory file")
          .help = "lint it as a plan file instead";
      continue;
    }
    if (d.kind == facts::DocumentKind::kCapacityPlan) plans_.push_back(documents_.size());
    documents_.push_back(std::move(d));
  }
}

void LintRun::Validate() {
  const TypeTable& schema = program_.schema;
  valid_.assign(documents_.size(), true);
  for (size_t i = 0; i < documents_.size(); ++i) {
    facts::Document& d = documents_[i];
    if (schema.Document(facts::DocumentKindName(d.kind)) == nullptr) continue;  // an untyped rule set
    Diagnostics problems;
    d.root = facts::ValidateDocument(schema, d, &problems);
    valid_[i] = !problems.HasErrors();
    report_.errors.Append(problems);
  }
}

void LintRun::MergeInventories() {
  std::vector<const facts::Document*> inventories;
  for (size_t i = 0; i < documents_.size(); ++i) {
    if (documents_[i].kind != facts::DocumentKind::kInventory) continue;
    inventories.push_back(&documents_[i]);
    inventory_valid_ = inventory_valid_ && valid_[i];
  }
  Diagnostics problems;
  inventory_ = facts::MergeDocuments(inventories, &problems);
  inventory_valid_ = inventory_valid_ && !problems.HasErrors();
  report_.errors.Append(problems);
  if (inventories.empty() && !plans_.empty()) {
    report_.errors.Error(documents_[plans_[0]].loc, "no `Inventory` document was given")
        .help = "pass `--inventory FILE`, or put `inventory.yaml` next to the plan";
  }
}

void LintRun::EvaluatePlan(size_t index) {
  const TypeTable& schema = program_.schema;
  eval::Facts facts{documents_[index].root, inventory_};
  bool ok = valid_[index] && inventory_valid_;
  const RecordDef* plan_record = schema.Document("CapacityPlan");
  const RecordDef* inventory_record = schema.Document("Inventory");
  if (plan_record != nullptr && inventory_record != nullptr) {
    Diagnostics dangling;
    facts::CheckReferences(schema, {{plan_record, facts.plan}, {inventory_record, facts.inventory}}, &dangling);
    ok = ok && !dangling.HasErrors();
    report_.errors.Append(dangling);
  }
  if (!ok) {
    Diagnostic& d = report_.errors.Add(Severity::kInfo, documents_[index].loc,
                                       "rules were not evaluated on this plan: its facts do not match the schema");
    d.code = "schema";
    d.help = "fix the schema errors of this plan and its inventory first";
    d.length = 1;
    return;
  }
  eval::EvalResult r = eval::Evaluate(program_, params_, facts, *sources_, options_.eval);
  ++report_.plans;
  report_.violations.insert(report_.violations.end(), std::make_move_iterator(r.violations.begin()),
                            std::make_move_iterator(r.violations.end()));
  report_.errors.Append(r.errors);
}

// Sorted by file, line, column, rule; inventory-only findings repeat for
// every plan, so exact repeats go.
void LintRun::SortAndDedupe() {
  auto key = [&](const eval::Violation& v) {
    return std::make_tuple(sources_->Path(v.loc.file), v.loc.line, v.loc.column, std::string_view(v.rule_id),
                           std::string_view(v.message));
  };
  auto& violations = report_.violations;
  std::stable_sort(violations.begin(), violations.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
  violations.erase(std::unique(violations.begin(), violations.end(),
                               [&](const auto& a, const auto& b) { return key(a) == key(b); }),
                   violations.end());
  report_.errors.Sort();
}

bool LintRun::FirstPlanFacts(eval::Facts* facts, Diagnostics* problems) {
  Validate();
  MergeInventories();
  facts->inventory = inventory_;
  if (!plans_.empty()) facts->plan = documents_[plans_[0]].root;
  report_.errors.Sort();
  problems->Append(report_.errors);
  return !report_.errors.HasErrors();
}

eval::LintReport LintRun::Finish() {
  Validate();
  MergeInventories();
  for (size_t index : plans_) EvaluatePlan(index);
  SortAndDedupe();
  return std::move(report_);
}

}  // namespace capops
