// SPDX-License-Identifier: Apache-2.0
// Engine: compiles policies through syntax → check, and lints fact files
// through facts → eval. The stages do the work; this file sequences them.
#include "engine/api/engine.h"

#include <algorithm>
#include <map>

#include "engine/api/lint_run.h"
#include "engine/common/sha256.h"

namespace capops {

namespace {

std::string Sha256Hex(const std::vector<const std::string*>& parts) {
  Sha256 h;
  for (const std::string* p : parts) {
    // Length-prefixed, no ambiguity at joins: this digest's own framing (8
    // bytes, least significant first on every host; not Sha256::Add's),
    // which reports and caches record.
    char size[8];
    for (size_t i = 0; i < sizeof size; ++i)
      size[i] = static_cast<char>(static_cast<uint64_t>(p->size()) >> (8 * i) & 0xff);
    h.Update(std::string_view(size, sizeof size)).Update(*p);
  }
  return "sha256:" + h.Hex();
}

// Tests live in `*_test.cpl` files, which hold nothing else, so a test file
// never adds to the rule set and a rule file never hides a test.
void CheckTestPlacement(const SourceManager& sources, const syntax::Module& m, Diagnostics* found) {
  std::string_view path = sources.Path(m.file);
  constexpr std::string_view kSuffix = "_test.cpl";
  bool test_file =
      path.size() >= kSuffix.size() && path.substr(path.size() - kSuffix.size()) == kSuffix;
  if (!test_file) {
    for (const syntax::TestDecl& t : m.tests) {
      found->Error(sources, t.name_span, "test `" + t.name + "` is in a policy file").help =
          "move it to a `*_test.cpl` file beside the policies";
    }
    return;
  }
  auto misplaced = [&](const Span& span, const std::string& what) {
    found->Error(sources, span, what + " in a test file").help =
        "a `*_test.cpl` file holds only `test` declarations; move it to a policy file";
  };
  for (const syntax::Rule& r : m.rules) misplaced(r.name_span, "rule `" + r.name + "`");
  for (const syntax::Param& p : m.params) misplaced(p.name_span, "param `" + p.name + "`");
  for (const syntax::FunctionDecl& f : m.functions)
    misplaced(f.name_span, "function `" + f.name + "`");
  for (const syntax::RecordDecl& r : m.records) misplaced(r.name_span, "record `" + r.name + "`");
  for (const syntax::EnumDecl& e : m.enums) misplaced(e.name_span, "enum `" + e.name + "`");
}

// The canonical forms of the modules that declare something, sorted; a test
// file (only `test` declarations) adds nothing to the rule set.
std::vector<std::string> CanonicalModules(const check::Program& program) {
  std::vector<std::string> parts;
  for (const auto& m : program.modules) {
    if (m->rules.empty() && m->params.empty() && m->functions.empty() && m->records.empty() &&
        m->enums.empty()) {
      continue;
    }
    parts.push_back(syntax::CanonicalModule(*m));
  }
  std::sort(parts.begin(), parts.end());
  return parts;
}

}  // namespace

Engine::Engine(EngineOptions options) : options_(std::move(options)) {}
Engine::~Engine() = default;

void Engine::AddPolicy(std::string path, std::string text) {
  policy_files_.push_back(sources_.Add(std::move(path), std::move(text)));
}

// A literal pattern that RE2 refuses is a policy error, found once at
// compile time rather than once per fact at run time.
void Engine::CheckRegexLiterals(Diagnostics* diagnostics) const {
  for (size_t m = 0; m < program_->modules.size(); ++m) {
    const check::ModuleTables& tables = program_->tables[m];
    syntax::ForEachExpr(*program_->modules[m], [&](const syntax::Expr& e) {
      if (e.kind != syntax::ExprKind::kCall ||
          tables.functions[e.id] != check::FunctionId::kMatches)
        return;
      if (tables.symbols[e.id].kind == check::SymbolKind::kFunction || e.args.size() != 2) return;
      const syntax::Expr& pattern = *e.args[1];
      if (pattern.kind != syntax::ExprKind::kLiteral || !pattern.literal.is(ValueKind::kString))
        return;
      std::string error = eval::CheckRegex(std::string(pattern.literal.string_value()));
      if (!error.empty()) diagnostics->Error(sources_, pattern.span, error);
    });
  }
}

bool Engine::Compile(Diagnostics* diagnostics) {
  std::vector<std::unique_ptr<syntax::Module>> modules;
  Diagnostics found;
  for (FileId f : policy_files_) {
    syntax::ParseResult parsed = syntax::Parse(sources_, f, options_.parse);
    found.Append(parsed.diagnostics);
    if (parsed.module) CheckTestPlacement(sources_, *parsed.module, &found);
    if (parsed.module) modules.push_back(std::move(parsed.module));
  }
  if (!found.HasErrors()) {
    check::CheckResult checked = check::Check(std::move(modules), sources_);
    found.Append(checked.diagnostics);
    program_ = std::move(checked.program);
  }
  std::vector<Value> defaults;
  if (program_) defaults = eval::EvaluateParams(*program_, sources_, &found);
  if (program_) CheckRegexLiterals(&found);
  found.Sort();
  diagnostics->Append(found);
  if (found.HasErrors()) {
    program_.reset();
    return false;
  }
  plan_ = std::make_unique<plan::ProgramPlan>(plan::Build(*program_));
  values_ = eval::ParamValues(std::move(defaults));
  DefaultSettings();
  SettingsChanged();
  return true;
}

// The digest ties a report to the exact rule set: the canonical form of each
// module (sorted, so file names and load order do not count), every param's
// current value by qualified name and every value set for a single rule.
// Layout, comments and tests do not count; see syntax::CanonicalModule.
void Engine::ComputeDigest() {
  std::vector<std::string> parts = CanonicalModules(*program_);
  std::vector<std::string> values;
  for (const ParamSetting& s : settings_)
    values.push_back("value " + s.qualified + " = " + s.value.ToLiteral());
  for (const auto& [at, s] : rule_settings_)
    values.push_back("rule " + s.source.rule + " value " + s.qualified + " = " +
                     s.value.ToLiteral());
  std::sort(values.begin(), values.end());
  parts.insert(parts.end(), values.begin(), values.end());
  std::vector<const std::string*> pointers;
  for (const std::string& part : parts) pointers.push_back(&part);
  digest_ = Sha256Hex(pointers);
}

FileId Engine::AddSource(std::string path, std::string text, std::optional<FileStamp> stamp) {
  return AddSource(&sources_, std::move(path), std::move(text), stamp);
}

FileId Engine::AddSource(SourceManager* sources, std::string path, std::string text,
                         std::optional<FileStamp> stamp) const {
  FileId id = sources->Add(std::move(path), std::move(text), stamp);
  if (sources->file(id).size() >= options_.release_text_bytes) sources->ReleaseText(id);
  return id;
}

std::string Engine::CanonicalForm() const {
  std::string out;
  if (!program_) return out;
  for (const std::string& part : CanonicalModules(*program_)) out += part;
  return out;
}

eval::EvalOptions Engine::EvalOptionsFor(const LintOptions& lint) const {
  eval::EvalOptions eval = options_.eval;
  eval.plan = options_.optimize ? plan_.get() : nullptr;
  eval.trace = lint.trace;
  eval.coverage = lint.coverage;
  eval.profile = lint.profile;
  return eval;
}

eval::LintReport Engine::Lint(std::vector<TextFile> plans, std::vector<TextFile> inventories,
                              const LintOptions& lint, SourceManager* sources) const {
  if (!program_) {
    eval::LintReport empty;
    return empty;
  }
  LintRun run(*program_, values_, digest_, options_, EvalOptionsFor(lint), lint.skip_rules,
              sources);
  run.KeepFacts(lint.facts);
  run.Load(std::move(inventories), std::move(plans));
  eval::LintReport report = run.Finish();
  NameParams(&report);
  return report;
}

eval::LintReport Engine::Lint(std::vector<TextFile> plans, std::vector<TextFile> inventories,
                              const LintOptions& lint) {
  return Lint(std::move(plans), std::move(inventories), lint, &sources_);
}

bool Engine::LoadFacts(const std::vector<TextFile>& plans, const std::vector<TextFile>& inventories,
                       eval::Facts* facts, Diagnostics* problems, SourceManager* sources) const {
  if (!program_) return false;
  LintRun run(*program_, values_, digest_, options_, EvalOptionsFor({}), {}, sources);
  run.Load(inventories, plans);
  return run.FirstPlanFacts(facts, problems);
}

eval::TraceStep Engine::ExpressionResult::AsTraceStep() const {
  return eval::TraceStep{text, value.is_error() ? "error" : eval::TraceText(value), loc, trace};
}

Engine::ExpressionResult Engine::EvaluateExpression(std::string text, const eval::Facts& facts,
                                                    bool trace, SourceManager* sources) {
  ExpressionResult result;
  if (!program_) return result;
  result.text = text;
  FileId file = sources->Add("<expression>", std::move(text));
  result.loc = SourceLoc{file, 1, 1};
  syntax::ExpressionParseResult parsed = syntax::ParseExpression(*sources, file, options_.parse);
  result.diagnostics.Append(parsed.diagnostics);
  if (!parsed.expr) return result;
  check::ModuleTables tables;
  uint32_t slots = 0;
  TypeId type = check::CheckExpression(program_.get(), *parsed.expr, parsed.node_count, *sources,
                                       &tables, &slots, &result.diagnostics);
  if (result.diagnostics.HasErrors()) return result;
  result.compiled = true;
  result.type = program_->schema.Name(type);
  result.value = eval::EvaluateExpression(*program_, tables, slots, *parsed.expr, values_.values(),
                                          facts, *sources, RunBudget(EvalOptionsFor({}), facts),
                                          trace ? &result.trace : nullptr);
  return result;
}

std::optional<eval::WhyNotResult> Engine::WhyNot(const std::string& rule_id,
                                                 const eval::Facts& facts,
                                                 const std::function<bool(const Value&)>& focus,
                                                 const SourceManager& sources,
                                                 size_t max_outcomes) const {
  if (!program_) return std::nullopt;
  for (const check::RuleInfo& rule : program_->rules) {
    if (rule.id == rule_id)
      return eval::WhyNot(*program_, rule, values_, facts, sources,
                          RunBudget(EvalOptionsFor({}), facts), focus, max_outcomes);
  }
  return std::nullopt;
}

}  // namespace capops
