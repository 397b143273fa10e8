// SPDX-License-Identifier: Apache-2.0
// End-to-end benchmarks: the built capops-lint spawned (posix_spawn) on a
// corpus and on the scenario example, as a user runs it — process start,
// policy compile, fact load, validation, evaluation and the text report
// (written to /dev/null). Wall time per run. (Not peak memory: a spawned
// child's ru_maxrss counts this process's memory from before its exec;
// run-benchmarks measures it with /usr/bin/time instead.) Also the same run
// with only the three seed rules enabled, through a config file as a user
// would select them. And `--fix-dry-run` beside the plain lint (no repair
// searched) and the lint that shows repairs, on a corpus with defects,
// each iteration running all three. Entry points:
// RegisterLintBenchmark, RegisterFixBenchmark, RegisterScenarioBenchmark.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "benchmarks/bench_corpora.h"
#include "benchmarks/bench_registry.h"

extern char** environ;

namespace capops::bench {

namespace {

struct Run {
  int exit_code = -1;  // -1: killed by a signal
  double seconds = 0;
};

// Runs `args` with stdout and stderr sent to /dev/null and waits for it.
bool Spawn(const std::vector<std::string>& args, Run* run, std::string* error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    *error = "cannot run `" + args[0] + "`: " + std::strerror(rc);
    return false;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) {
    *error = std::string("waitpid: ") + std::strerror(errno);
    return false;
  }
  run->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return true;
}

// Exit 0 (no findings) and 1 (findings) are both a finished run.
void CapopsLint(benchmark::State& state, std::vector<std::string> args, size_t bytes,
                size_t allocations) {
  for (auto _ : state) {
    Run run;
    std::string error;
    if (!Spawn(args, &run, &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    if (run.exit_code != 0 && run.exit_code != 1) {
      state.SkipWithError(("capops-lint exited with " + std::to_string(run.exit_code)).c_str());
      break;
    }
    state.SetIterationTime(run.seconds);
  }
  state.counters["allocations"] = static_cast<double>(allocations);
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(bytes) / 1e6,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

// The seed rules, one each of allocation, supply and compatibility: what a
// run costs when the rules are few and the load is nearly all of it.
constexpr const char* kSeedConfig =
    "# Written by capops_bench: only the seed rules run.\n"
    "rules:\n"
    "  enable: [CAP-ALC-001, CAP-SUP-001, CAP-CMP-001]\n";

// Writes the seed rules' config beside the corpus; its path, or "" (and
// `*error`) when it cannot be written.
std::string WriteSeedConfig(const CorpusFiles& c, std::string* error) {
  std::filesystem::path path = c.dir / "seed.capops.yaml";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << kSeedConfig;
  out.close();
  if (!out) {
    *error = "cannot write `" + path.string() + "`";
    return "";
  }
  return path.string();
}

// The share of each defect kind's sites the --fix benchmark breaks.
constexpr double kFixDefects = 0.01;

benchmark::internal::Benchmark* Spawned(benchmark::internal::Benchmark* b) {
  return b->Unit(benchmark::kMillisecond)->UseManualTime();
}

}  // namespace

void RegisterLintBenchmark(size_t n) {
  // The corpus is made when the benchmark first runs, not at registration,
  // so --benchmark_filter skips the corpora it does not need.
  auto run = [n](benchmark::State& state) {
    const CorpusFiles& c = CorpusOf(n);
    CapopsLint(state,
               {CAPOPS_LINT_PATH, "--no-config", "--max-file-size", "1073741824", "--max-values",
                "100000000", "--inventory", c.inventory.path, c.plan.path},
               c.bytes(), c.allocations);
  };
  Spawned(benchmark::RegisterBenchmark(("capops_lint/" + std::to_string(n)).c_str(), run));

  auto seed = [n](benchmark::State& state) {
    const CorpusFiles& c = CorpusOf(n);
    std::string error;
    std::string config = WriteSeedConfig(c, &error);
    if (config.empty()) {
      state.SkipWithError(error.c_str());
      return;
    }
    CapopsLint(state,
               {CAPOPS_LINT_PATH, "--config", config, "--max-file-size", "1073741824",
                "--max-values", "100000000", "--inventory", c.inventory.path, c.plan.path},
               c.bytes(), c.allocations);
  };
  Spawned(benchmark::RegisterBenchmark(("capops_lint_seed/" + std::to_string(n)).c_str(), seed));
}

void RegisterFixBenchmark(size_t n) {
  auto run = [n](benchmark::State& state) {
    const CorpusFiles& c = CorpusOf(n, kFixDefects);
    std::vector<std::string> shown = {CAPOPS_LINT_PATH, "--no-config",    "--max-file-size",
                                      "1073741824",     "--max-values",   "100000000",
                                      "--inventory",    c.inventory.path, c.plan.path};
    std::vector<std::string> plain = shown, fix = shown;
    plain.insert(plain.end() - 1, {"--max-repair-lints", "0"});
    fix.insert(fix.end() - 1, "--fix-dry-run");
    double plain_seconds = 0, shown_seconds = 0, fix_seconds = 0;
    for (auto _ : state) {
      Run p, s, f;
      std::string error;
      // All three in each iteration, one after another: the machine's load
      // weighs on them alike, and the ratios are read from one run.
      if (!Spawn(plain, &p, &error) || !Spawn(shown, &s, &error) || !Spawn(fix, &f, &error)) {
        state.SkipWithError(error.c_str());
        break;
      }
      if (p.exit_code != 1 || s.exit_code != 1 || f.exit_code < 0 || f.exit_code > 1) {
        state.SkipWithError(("capops-lint exited with " + std::to_string(p.exit_code) + ", " +
                             std::to_string(s.exit_code) + ", " + std::to_string(f.exit_code) +
                             " (1 expected: findings)")
                                .c_str());
        break;
      }
      plain_seconds += p.seconds;
      shown_seconds += s.seconds;
      fix_seconds += f.seconds;
      state.SetIterationTime(f.seconds);
    }
    double iterations = static_cast<double>(std::max<int64_t>(state.iterations(), 1));
    state.counters["allocations"] = static_cast<double>(c.allocations);
    state.counters["lint_ms"] = 1e3 * plain_seconds / iterations;
    state.counters["lint_repairs_ms"] = 1e3 * shown_seconds / iterations;
    state.counters["fix_ms"] = 1e3 * fix_seconds / iterations;
    state.counters["fix_over_lint"] = plain_seconds > 0 ? fix_seconds / plain_seconds : 0;
  };
  Spawned(benchmark::RegisterBenchmark(("fix_vs_lint/" + std::to_string(n)).c_str(), run));
}

void RegisterScenarioBenchmark() {
  std::string dir = (SourceDir() / "examples" / "visual-inspection").string();
  auto run = [dir](benchmark::State& state) {
    std::error_code ec;
    size_t bytes = std::filesystem::file_size(dir + "/plan.yaml", ec) +
                   std::filesystem::file_size(dir + "/inventory.yaml", ec);
    CapopsLint(state,
               {CAPOPS_LINT_PATH, "--no-config", "--inventory", dir + "/inventory.yaml",
                dir + "/plan.yaml"},
               bytes, 5);
  };
  Spawned(benchmark::RegisterBenchmark("capops_lint/scenario", run));
}

}  // namespace capops::bench
