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
  }
  for (size_t n : RuleSizes(sizes)) RegisterRuleBenchmarks(n);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  RemoveTemporaryCorpora();
  return 0;
}
