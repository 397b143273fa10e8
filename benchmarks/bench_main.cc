// SPDX-License-Identifier: Apache-2.0
// capops_bench: the performance benchmarks (see README.md). Registers the
// benchmarks for the sizes the environment asks for, runs them with Google
// Benchmark's usual flags (--benchmark_filter, --benchmark_format=json …),
// then removes the corpora it generated.
#include <benchmark/benchmark.h>

#include "benchmarks/bench_corpora.h"
#include "benchmarks/bench_registry.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  using namespace capops::bench;
  std::vector<size_t> sizes = BenchSizes();
  RegisterCompileBenchmark();
  RegisterScenarioBenchmark();
  RegisterLspBenchmark();
  RegisterDiscoveryBenchmarks();
  for (size_t n : sizes) {
    RegisterStageBenchmarks(n);
    RegisterLintBenchmark(n);
    // --fix relints its plan: at 100k each round would take seconds.
    if (n <= 10000) RegisterFixBenchmark(n);
  }
  // As written (quadratic joins and all) only at the smallest: the planned
  // rules are the ones that grow.
  std::vector<size_t> rule_sizes = RuleSizes(sizes);
  for (size_t n : rule_sizes) RegisterRuleBenchmarks(n, n == rule_sizes.front());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  RemoveTemporaryCorpora();
  return 0;
}
