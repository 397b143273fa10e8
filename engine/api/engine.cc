// Engine: compiles policies through syntax → check, and lints fact files
// through facts → eval. The stages do the work; this file sequences them.
#include "engine/api/engine.h"

#include "engine/api/lint_run.h"

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
  if (!program_) {
    eval::LintReport empty;
    return empty;
  }
  LintRun run(*program_, params_, digest_, options_, &sources_);
  for (const TextFile& f : inventories) run.Load(f, false);
  for (const TextFile& f : plans) run.Load(f, true);
  return run.Finish();
}

bool Engine::LoadFacts(const std::vector<TextFile>& plans, const std::vector<TextFile>& inventories,
                       eval::Facts* facts, Diagnostics* problems) {
  if (!program_) return false;
  LintRun run(*program_, params_, digest_, options_, &sources_);
  for (const TextFile& f : inventories) run.Load(f, false);
  for (const TextFile& f : plans) run.Load(f, true);
  return run.FirstPlanFacts(facts, problems);
}

eval::TraceStep Engine::ExpressionResult::AsTraceStep() const {
  return eval::TraceStep{text, value.is_error() ? "error" : eval::TraceText(value), loc, trace};
}

Engine::ExpressionResult Engine::EvaluateExpression(std::string text, const eval::Facts& facts, bool trace) {
  ExpressionResult result;
  if (!program_) return result;
  result.text = text;
  FileId file = sources_.Add("<expression>", std::move(text));
  result.loc = SourceLoc{file, 1, 1};
  syntax::ExpressionParseResult parsed = syntax::ParseExpression(sources_, file, options_.parse);
  result.diagnostics.Append(parsed.diagnostics);
  if (!parsed.expr) return result;
  check::ModuleTables tables;
  uint32_t slots = 0;
  TypeId type = check::CheckExpression(program_.get(), *parsed.expr, parsed.node_count, sources_, &tables, &slots,
                                       &result.diagnostics);
  if (result.diagnostics.HasErrors()) return result;
  result.compiled = true;
  result.type = program_->schema.Name(type);
  result.value = eval::EvaluateExpression(*program_, tables, slots, *parsed.expr, params_, facts, sources_,
                                          options_.eval, trace ? &result.trace : nullptr);
  return result;
}

std::optional<eval::WhyNotResult> Engine::WhyNot(const std::string& rule_id, const eval::Facts& facts,
                                                 const std::function<bool(const Value&)>& focus) {
  if (!program_) return std::nullopt;
  for (const check::RuleInfo& rule : program_->rules) {
    if (rule.id == rule_id) return eval::WhyNot(*program_, rule, params_, facts, sources_, options_.eval, focus);
  }
  return std::nullopt;
}

}  // namespace capops
