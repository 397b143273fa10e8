// SPDX-License-Identifier: Apache-2.0
// The benchmarks of capops_bench, registered at startup (bench_main.cc)
// because the sizes come from the environment (bench_corpora.h). Each
// registers under a name `stage/allocations` that run-benchmarks reads.
#pragma once

#include <cstddef>

namespace capops::bench {

/// compile_pack: parsing and checking stdlib and policies/capops-ai.
void RegisterCompileBenchmark();

/// Over the corpus of `allocations`: yaml_floor (both files through
/// libfyaml's event parser, each scalar's text read: the floor), fact_load,
/// validate, evaluate, evaluate_trace, evaluate_as_written and
/// lint_in_process (Engine::Lint).
void RegisterStageBenchmarks(size_t allocations);

/// rule/<id>/<allocations> and rule_as_written/<id>/<allocations>: each
/// rule of the pack evaluated alone, planned (and as written when
/// `as_written`).
void RegisterRuleBenchmarks(size_t allocations, bool as_written);

/// capops_lint/<allocations>: the built capops-lint spawned on the corpus;
/// capops_lint_seed/<allocations>: the same with only the three seed rules
/// (CAP-ALC-001, CAP-SUP-001, CAP-CMP-001) enabled by a config file.
void RegisterLintBenchmark(size_t allocations);

/// fix_vs_lint/<allocations>: over the corpus with 1 % defects, each
/// iteration spawns the plain lint (`--max-repair-lints 0`: no repair
/// searched), the lint as run by default (repairs searched and shown)
/// and `--fix-dry-run`; its time is --fix's, its counters all three
/// (lint_ms, lint_repairs_ms, fix_ms) and fix_over_lint, --fix's time
/// over the plain lint's.
void RegisterFixBenchmark(size_t allocations);

/// capops_lint/scenario: capops-lint on examples/visual-inspection.
void RegisterScenarioBenchmark();

/// classify/<file> and classify_full_load/<file>: telling a plan from
/// foreign YAML (workspace::ClassifyFile) and the full load it replaced, over
/// an 8 MB one-line flow map, a 1,500-document Kubernetes dump and the
/// scenario plan.
void RegisterDiscoveryBenchmarks();

/// lsp/did_change_scenario: the language server, from a didChange of the
/// scenario plan to its publishDiagnostics (the pack compiled once).
void RegisterLspBenchmark();

}  // namespace capops::bench
