// SPDX-License-Identifier: Apache-2.0
// The in-process benchmarks, one per stage of a lint run: the YAML floor
// (libfyaml's event parser alone, the parser the fact loader is built on),
// fact loading, schema validation, compiling the shipped pack, evaluating it
// (planned as Engine::Lint does, with --explain's trace, and as written), a
// whole Engine::Lint, and the per-rule breakdown. Entry points:
// RegisterStageBenchmarks and RegisterRuleBenchmarks (bench_registry.h).
#include <benchmark/benchmark.h>
#include <libfyaml.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "benchmarks/bench_corpora.h"
#include "benchmarks/bench_registry.h"
#include "engine/facts/validate.h"

namespace capops::bench {

namespace {

void SetCorpusCounters(benchmark::State& state, const CorpusFiles& c) {
  state.counters["allocations"] = static_cast<double>(c.allocations);
  state.counters["bytes"] = static_cast<double>(c.bytes());
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(c.bytes()) / 1e6,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

/// Loaded and validated facts in the SourceManager that holds their text.
struct LoadedFacts {
  facts::Document inventory, plan;  // as loaded, not yet validated
};

LoadedFacts Load(SourceManager* sources, const CorpusFiles& c, const facts::LoadOptions& options) {
  LoadedFacts out;
  facts::LoadResult inv =
      facts::LoadYaml(*sources, sources->Add(c.inventory.path, c.inventory.text), options);
  facts::LoadResult plan =
      facts::LoadYaml(*sources, sources->Add(c.plan.path, c.plan.text), options);
  if (inv.documents.size() != 1 || plan.documents.size() != 1) return out;
  out.inventory = std::move(inv.documents[0]);
  out.plan = std::move(plan.documents[0]);
  return out;
}

/// What LintRun does before evaluating: validate each document, taking it
/// apart as the result is built, merge the inventories, check references
/// across them.
eval::Facts Validate(const TypeTable& schema, LoadedFacts loaded, Diagnostics* problems) {
  eval::Facts facts;
  facts.plan = facts::ValidateDocument(schema, std::move(loaded.plan), problems);
  facts::Document inventory{loaded.inventory.kind, Value(), loaded.inventory.loc};
  inventory.root = facts::ValidateDocument(schema, std::move(loaded.inventory), problems);
  facts.inventory = facts::MergeDocuments({&inventory}, problems);
  facts::CheckReferences(schema,
                         {{schema.Document("CapacityPlan"), facts.plan, {}},
                          {schema.Document("Inventory"), facts.inventory, {}}},
                         problems);
  return facts;
}

/// Parses `text` with libfyaml's event parser and reads each scalar's text,
/// as the fact loader must, doing nothing else. False when the parser could
/// not be made or the text does not parse.
bool ParseEvents(const std::string& text) {
  fy_parse_cfg cfg{};
  cfg.flags = FYPCF_QUIET;
  fy_parser* parser = fy_parser_create(&cfg);
  if (parser == nullptr) return false;
  bool ok = fy_parser_set_string(parser, text.data(), text.size()) == 0;
  while (ok) {
    fy_event* event = fy_parser_parse(parser);
    if (event == nullptr) break;
    if (event->type == FYET_SCALAR) {
      size_t length = 0;
      const char* value = fy_token_get_text(event->scalar.value, &length);
      benchmark::DoNotOptimize(value);
      benchmark::DoNotOptimize(length);
    }
    fy_parser_event_free(parser, event);
  }
  ok = ok && !fy_parser_get_stream_error(parser);
  fy_parser_destroy(parser);
  return ok;
}

// The floor every figure is compared with: both files parsed into events,
// each scalar's text read, nothing built.
void YamlFloor(benchmark::State& state, size_t n) {
  const CorpusFiles& c = CorpusOf(n);
  bool parsed = true;
  for (auto _ : state) {
    parsed = ParseEvents(c.inventory.text) && parsed;
    parsed = ParseEvents(c.plan.text) && parsed;
  }
  if (!parsed) state.SkipWithError("libfyaml did not parse the corpus");
  SetCorpusCounters(state, c);
}

void FactLoad(benchmark::State& state, size_t n) {
  const CorpusFiles& c = CorpusOf(n);
  EngineOptions options = BenchEngineOptions();
  bool loaded = true;
  for (auto _ : state) {
    SourceManager sources;
    LoadedFacts facts = Load(&sources, c, options.facts);
    loaded = loaded && !facts.plan.root.is(ValueKind::kNull);
  }
  if (!loaded) state.SkipWithError("the corpus did not load");
  SetCorpusCounters(state, c);
}

// Each iteration validates documents loaded for it (the load is not timed),
// as a lint run hands its documents over to be taken apart.
void ValidateFacts(benchmark::State& state, size_t n) {
  const CorpusFiles& c = CorpusOf(n);
  EngineOptions options = BenchEngineOptions();
  std::unique_ptr<Engine> engine = CompiledEngine(options);
  Diagnostics problems;
  for (auto _ : state) {
    state.PauseTiming();
    SourceManager sources;
    LoadedFacts loaded = Load(&sources, c, options.facts);
    problems = {};
    state.ResumeTiming();
    eval::Facts facts = Validate(engine->program()->schema, std::move(loaded), &problems);
    benchmark::DoNotOptimize(facts);
  }
  state.counters["schema_errors"] = static_cast<double>(problems.size());
  if (problems.HasErrors())
    state.SkipWithError(("the corpus breaks the schema: " + problems[0].message).c_str());
  SetCorpusCounters(state, c);
}

void CompilePack(benchmark::State& state) {
  EngineOptions options = BenchEngineOptions();
  size_t rules = 0;
  for (auto _ : state) {
    std::unique_ptr<Engine> engine = CompiledEngine(options);
    rules = engine->program()->rules.size();
  }
  state.counters["rules"] = static_cast<double>(rules);
  state.counters["bytes"] = static_cast<double>(PackBytes());
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(PackBytes()) / 1e6,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

/// The fixture of kind T for the corpus of `n` allocations, made by
/// `make(n)`. One per kind is kept at a time: a 100k corpus's holds
/// hundreds of MB.
template <class T, class Make>
T& Cached(size_t n, Make make) {
  static std::unique_ptr<T> fixture;
  static size_t size = 0;
  if (fixture == nullptr || size != n) {
    fixture.reset();
    fixture = make(n);
    size = n;
  }
  return *fixture;
}

/// A compiled engine and validated facts for one corpus.
struct EvalFixture {
  std::unique_ptr<Engine> engine;
  eval::Facts facts;
  size_t fact_bytes = 0;
};

/// What Engine::Lint evaluates with: the engine's rule plan (or none, as
/// written) and its step budget scaled by MiB of facts.
eval::EvalOptions LintOptions(const EvalFixture& f, bool planned) {
  eval::EvalOptions options = f.engine->options().eval;
  options.plan = planned ? f.engine->plan() : nullptr;
  uint64_t mib = std::max<uint64_t>(1, (f.fact_bytes + (1u << 20) - 1) >> 20);
  options.max_steps = options.max_steps > UINT64_MAX / mib ? UINT64_MAX : options.max_steps * mib;
  return options;
}

std::unique_ptr<EvalFixture> MakeEvalFixture(size_t n) {
  const CorpusFiles& c = CorpusOf(n);
  auto f = std::make_unique<EvalFixture>();
  f->engine = CompiledEngine(BenchEngineOptions());
  f->fact_bytes = c.bytes();
  Diagnostics problems;
  f->engine->LoadFacts({c.plan}, {c.inventory}, &f->facts, &problems);
  // The reference check, as Engine::Lint runs it before evaluating.
  const TypeTable& schema = f->engine->program()->schema;
  facts::CheckReferences(schema,
                         {{schema.Document("CapacityPlan"), f->facts.plan, {}},
                          {schema.Document("Inventory"), f->facts.inventory, {}}},
                         &problems);
  // One untimed evaluation first, so that the first evaluation benchmark
  // does not pay alone for growing the heap.
  eval::Evaluate(*f->engine->program(), f->engine->params(), f->facts, f->engine->sources(),
                 LintOptions(*f, true));
  return f;
}

void SetEvalCounters(benchmark::State& state, const eval::EvalResult& r) {
  state.counters["violations"] = static_cast<double>(r.violations.size());
  state.counters["rule_errors"] = static_cast<double>(r.errors.size());
  state.counters["steps"] = static_cast<double>(r.steps);
}

// The whole pack on one thread (Engine::Lint spreads the rules over its
// threads; lint_in_process shows that).
void Evaluate(benchmark::State& state, size_t n, bool planned, bool trace) {
  EvalFixture& f = Cached<EvalFixture>(n, MakeEvalFixture);
  eval::EvalOptions options = LintOptions(f, planned);
  options.trace = trace;
  eval::EvalResult result;
  for (auto _ : state) {
    result = eval::Evaluate(*f.engine->program(), f.engine->params(), f.facts, f.engine->sources(),
                            options);
  }
  SetEvalCounters(state, result);
  SetCorpusCounters(state, CorpusOf(n));
}

// Engine::Lint as the CLI calls it: load, validate, evaluate, sort, on the
// engine's threads. (Each call adds the fact texts to the engine's sources:
// a few copies at most.)
void LintInProcess(benchmark::State& state, size_t n) {
  const CorpusFiles& c = CorpusOf(n);
  std::unique_ptr<Engine> engine = CompiledEngine(BenchEngineOptions());
  eval::LintReport report;
  for (auto _ : state) {
    report = engine->Lint({c.plan}, {c.inventory});
  }
  state.counters["violations"] = static_cast<double>(report.violations.size());
  state.counters["errors"] = static_cast<double>(report.errors.size());
  SetCorpusCounters(state, c);
}

// One rule of the pack (eval::EvaluateRule), planned or as written, without
// a step or memory budget unless CAPOPS_BENCH_MAX_STEPS sets one: the
// breakdown shows each rule's full cost, and its growth.
void Rule(benchmark::State& state, size_t n, size_t index, bool planned) {
  EvalFixture& f = Cached<EvalFixture>(n, MakeEvalFixture);
  eval::EvalOptions options = LintOptions(f, planned);
  options.max_steps = MaxSteps().value_or(UINT64_MAX);
  if (!MaxSteps()) options.max_memory = UINT64_MAX;  // nor a memory budget: the whole cost
  eval::EvalResult result;
  for (auto _ : state) {
    result = eval::EvaluateRule(*f.engine->program(), index, f.engine->params(), f.facts,
                                f.engine->sources(), options);
  }
  SetEvalCounters(state, result);
  SetCorpusCounters(state, CorpusOf(n));
}

// Iterations are timed by the process's CPU time (every thread, should a
// stage use several): steadier than wall time on a machine that other work
// shares. Each iteration includes freeing what the previous one built.
benchmark::internal::Benchmark* Timed(benchmark::internal::Benchmark* b) {
  return b->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
}

}  // namespace

void RegisterCompileBenchmark() {
  Timed(benchmark::RegisterBenchmark("compile_pack", CompilePack));
}

void RegisterStageBenchmarks(size_t n) {
  std::string size = "/" + std::to_string(n);
  Timed(benchmark::RegisterBenchmark(("yaml_floor" + size).c_str(), YamlFloor, n));
  Timed(benchmark::RegisterBenchmark(("fact_load" + size).c_str(), FactLoad, n));
  // A fixed count: each iteration loads its documents first, untimed.
  Timed(benchmark::RegisterBenchmark(("validate" + size).c_str(), ValidateFacts, n))
      ->Iterations(n >= 100000  ? 1
                   : n >= 10000 ? 5
                                : 20);
  Timed(benchmark::RegisterBenchmark(("evaluate" + size).c_str(), Evaluate, n, true, false));
  Timed(benchmark::RegisterBenchmark(("evaluate_trace" + size).c_str(), Evaluate, n, true, true));
  Timed(benchmark::RegisterBenchmark(("evaluate_as_written" + size).c_str(), Evaluate, n, false,
                                     false));
  Timed(benchmark::RegisterBenchmark(("lint_in_process" + size).c_str(), LintInProcess, n));
}

void RegisterRuleBenchmarks(size_t n, bool as_written) {
  std::unique_ptr<Engine> engine = CompiledEngine(BenchEngineOptions());
  const std::vector<check::RuleInfo>& rules = engine->program()->rules;
  for (bool planned : {true, false}) {
    if (!planned && !as_written) continue;
    for (size_t i = 0; i < rules.size(); ++i) {
      std::string name =
          (planned ? "rule/" : "rule_as_written/") + rules[i].id + "/" + std::to_string(n);
      Timed(benchmark::RegisterBenchmark(name.c_str(), Rule, n, i, planned));
    }
  }
}

}  // namespace capops::bench
