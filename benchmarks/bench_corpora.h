// SPDX-License-Identifier: Apache-2.0
// What the benchmarks run on: the corpora (generated once per run, or read
// from a directory), the shipped pack, and the settings read from the
// environment. Shared by the benchmark files of capops_bench.
//
// Environment:
//   CAPOPS_BENCH_SIZES       allocation counts to run, comma-separated
//                            (default 1000,10000,100000); pools are a tenth
//   CAPOPS_BENCH_RULE_SIZES  sizes of the per-rule breakdown (default: those
//                            of 10000 and 100000 among the sizes; `none` for
//                            none); each rule's growth between the two
//                            largest is its exponent
//   CAPOPS_BENCH_CORPUS_DIR  where corpora live: DIR/<allocations>/ holds
//                            inventory.yaml and plan.yaml (a corpus with
//                            defects, DIR/<allocations>-defects-<rate>/);
//                            missing ones are
//                            generated there and kept. Unset: a temporary
//                            directory, removed at exit.
//   CAPOPS_BENCH_SEED        the generator's seed (default 1)
//   CAPOPS_BENCH_MAX_STEPS   the evaluation step budget per rule, a count or
//                            `unlimited` (default: the engine's, scaled per
//                            MiB of facts as Engine::Lint does, except for
//                            the per-rule breakdown, which runs unlimited)
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/engine.h"

namespace capops::bench {

/// One corpus: an inventory and a single plan, on disk and in memory.
struct CorpusFiles {
  size_t allocations = 0;
  size_t pools = 0;
  std::filesystem::path dir;
  TextFile inventory;  // path and text
  TextFile plan;
  size_t bytes() const { return inventory.text.size() + plan.text.size(); }
};

/// Reads CAPOPS_BENCH_SIZES (or the defaults); exits with a message when it is malformed.
std::vector<size_t> BenchSizes();
/// Reads CAPOPS_BENCH_RULE_SIZES; by default 10000 when BenchSizes() has it.
std::vector<size_t> RuleSizes(const std::vector<size_t>& sizes);

/// The corpus of `allocations` allocations over a tenth as many pools,
/// with `defects` of each defect kind's sites broken (gen_corpus
/// --defects; 0: a clean corpus), made on first use. Exits with a message
/// when it cannot be written or read.
const CorpusFiles& CorpusOf(size_t allocations, double defects = 0);
/// Removes the temporary corpus directory, if one was made.
void RemoveTemporaryCorpora();

/// The source tree the binary was built from (stdlib/, policies/, examples/).
std::filesystem::path SourceDir();
/// The shipped pack as the CLI loads it by default: stdlib/*.cpl, then
/// policies/capops-ai/*.cpl (tests included), each path relative to SourceDir().
const std::vector<TextFile>& PackFiles();
/// Bytes of PackFiles().
size_t PackBytes();

/// Fact limits wide enough for the largest corpus (the defaults stop at
/// 16 MiB and a million values per file, below a 100k-allocation plan),
/// and the step budget of CAPOPS_BENCH_MAX_STEPS when set.
EngineOptions BenchEngineOptions();
/// CAPOPS_BENCH_MAX_STEPS, if set (`unlimited`: UINT64_MAX).
std::optional<uint64_t> MaxSteps();

/// An engine with the shipped pack compiled. Exits with the diagnostics when
/// the pack does not compile.
std::unique_ptr<Engine> CompiledEngine(const EngineOptions& options);

}  // namespace capops::bench
