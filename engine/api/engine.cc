// Engine: compiles policies through syntax → check, and lints fact files
// through facts → eval. The stages do the work; this file sequences them.
#include "engine/api/engine.h"

#include <openssl/evp.h>

#include <algorithm>
#include <map>

namespace capops {

namespace {

std::string Sha256Hex(const std::vector<const std::string*>& parts) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  for (const std::string* p : parts) {
    uint64_t size = p->size();
    EVP_DigestUpdate(ctx, &size, sizeof size);  // length-prefixed: no ambiguity at joins
    EVP_DigestUpdate(ctx, p->data(), p->size());
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(ctx, digest, &length);
  EVP_MD_CTX_free(ctx);
  static const char kHex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

}  // namespace

Engine::Engine(EngineOptions options) : options_(std::move(options)) {}
Engine::~Engine() = default;

void Engine::AddPolicy(std::string path, std::string text) {
  policy_files_.push_back(sources_.Add(std::move(path), std::move(text)));
}

bool Engine::Compile(Diagnostics* diagnostics) {
  std::vector<std::unique_ptr<syntax::Module>> modules;
  Diagnostics found;
  for (FileId f : policy_files_) {
    syntax::ParseResult parsed = syntax::Parse(sources_, f, options_.parse);
    found.Append(parsed.diagnostics);
    if (parsed.module) modules.push_back(std::move(parsed.module));
  }
  if (!found.HasErrors()) {
    check::CheckResult checked = check::Check(std::move(modules), sources_);
    found.Append(checked.diagnostics);
    program_ = std::move(checked.program);
  }
  if (program_) params_ = eval::EvaluateParams(*program_, sources_, &found);
  found.Sort();
  diagnostics->Append(found);
  if (found.HasErrors()) {
    program_.reset();
    return false;
  }
  // The digest ties a report to the exact rule set: texts in path order.
  std::vector<std::pair<std::string_view, const std::string*>> texts;
  for (FileId f : policy_files_) texts.emplace_back(sources_.Path(f), &sources_.file(f).text());
  std::sort(texts.begin(), texts.end());
  std::vector<const std::string*> parts;
  for (const auto& [path, text] : texts) parts.push_back(text);
  digest_ = Sha256Hex(parts);
  return true;
}

eval::LintReport Engine::Lint(const std::vector<TextFile>& plans, const std::vector<TextFile>& inventories) {
  eval::LintReport report;
  report.ruleset_digest = digest_;
  report.rules = program_ ? program_->rules.size() : 0;
  if (!program_) return report;

  // Every document of every file is loaded first: inventories merge across files.
  std::vector<facts::Document> documents;
  std::vector<std::pair<FileId, size_t>> plan_docs;  // file, index into documents
  std::vector<const facts::Document*> inventory_docs;
  auto load = [&](const TextFile& file, bool is_plan_file) {
    FileId id = sources_.Add(file.path, file.text);
    facts::LoadResult loaded = facts::LoadYaml(sources_, id, options_.facts);
    report.errors.Append(loaded.diagnostics);
    ++report.files;
    bool any = !loaded.documents.empty() || loaded.diagnostics.HasErrors();
    for (facts::Document& d : loaded.documents) {
      if (d.kind == facts::DocumentKind::kCapacityPlan && !is_plan_file) {
        report.errors.Error(d.loc, "a `CapacityPlan` document in an inventory file")
            .help = "lint it as a plan file instead";
        continue;
      }
      if (d.kind == facts::DocumentKind::kCapacityPlan) plan_docs.emplace_back(id, documents.size());
      documents.push_back(std::move(d));
    }
    if (!any) {
      report.errors.Error(SourceLoc{id, 1, 1}, "no documents in this file")
          .help = "a fact file holds YAML documents with `apiVersion: capops.dev/v1` and a `kind`";
    }
  };
  for (const TextFile& f : inventories) load(f, false);
  for (const TextFile& f : plans) load(f, true);
  for (const facts::Document& d : documents) {
    if (d.kind == facts::DocumentKind::kInventory) inventory_docs.push_back(&d);
  }

  eval::Facts facts;
  facts.inventory = facts::MergeDocuments(inventory_docs, &report.errors);
  if (inventory_docs.empty() && !plan_docs.empty()) {
    report.errors.Error(documents[plan_docs[0].second].loc, "no `Inventory` document was given")
        .help = "pass `--inventory FILE`, or put `inventory.yaml` next to the plan";
  }
  for (const auto& [file, index] : plan_docs) {
    facts.plan = documents[index].root;
    eval::EvalResult r = eval::Evaluate(*program_, params_, facts, sources_, options_.eval);
    ++report.plans;
    report.violations.insert(report.violations.end(), std::make_move_iterator(r.violations.begin()),
                             std::make_move_iterator(r.violations.end()));
    report.errors.Append(r.errors);
  }
  auto key = [&](const eval::Violation& v) {
    return std::make_tuple(sources_.Path(v.loc.file), v.loc.line, v.loc.column,
                           std::string_view(v.rule_id), std::string_view(v.message));
  };
  std::stable_sort(report.violations.begin(), report.violations.end(),
                   [&](const auto& a, const auto& b) { return key(a) < key(b); });
  // Inventory-only findings repeat for every plan: keep one of each.
  report.violations.erase(std::unique(report.violations.begin(), report.violations.end(),
                                      [&](const auto& a, const auto& b) { return key(a) == key(b); }),
                          report.violations.end());
  report.errors.Sort();
  return report;
}

}  // namespace capops
