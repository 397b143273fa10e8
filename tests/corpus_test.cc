// SPDX-License-Identifier: Apache-2.0
// The shipped pack over generated corpora (benchmarks/corpus.h): the
// planner's rewrites change no finding, and the number of threads changes
// no byte of any report.
#include "benchmarks/corpus.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/fixture.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<testing::Compiled> CompilePack() {
  auto c = std::make_unique<testing::Compiled>();
  testing::AddStdlib(&c->engine);
  testing::AddPolicyDir("policies/capops-ai", &c->engine);
  c->ok = c->engine.Compile(&c->diagnostics);
  return c;
}

TEST_CASE("the planner changes no finding of the pack over generated corpora", "[plan][corpus]") {
  auto pack = CompilePack();
  REQUIRE(pack->ok);
  for (uint64_t seed : {1, 2, 3}) {
    bench::CorpusOptions o;
    o.allocations = 800;
    o.pools = 40;  // many allocations a pool, so joins have several matches
    o.seed = seed;
    o.defects = 0.05;
    bench::Corpus corpus = bench::GenerateCorpus(o);
    INFO("seed " << seed);
    std::vector<TextFile> plans = {{"plan.yaml", corpus.plans[0]}};
    std::vector<TextFile> inventories = {{"inventory.yaml", corpus.inventory}};
    pack->engine.options().optimize = true;
    eval::LintReport planned = pack->engine.Lint(plans, inventories);
    pack->engine.options().optimize = false;
    eval::LintReport as_written = pack->engine.Lint(plans, inventories);
    CHECK(testing::Findings(planned) == testing::Findings(as_written));
    CHECK(planned.violations.size() > 30);
    CHECK(planned.errors.empty());
  }
}

// A corpus of several plan files, written to `dir`.
void WriteSmallCorpus(const fs::path& dir) {
  bench::CorpusOptions o;
  o.allocations = 600;
  o.pools = 30;
  o.plans = 3;
  o.defects = 0.05;
  std::string error;
  REQUIRE(bench::WriteCorpus(bench::GenerateCorpus(o), dir, &error));
}

TEST_CASE("reports are byte-identical with one thread and with two", "[cli][corpus]") {
  testing::TempDir tmp("capops-corpus");
  const fs::path& dir = tmp.dir();
  WriteSmallCorpus(dir);
  for (const char* format : {"text", "json", "sarif"}) {
    INFO(format);
    // The repair search (which runs after the lint, in the report's
    // order) is compared in one format: its lints cost more than the rest.
    std::string lints = std::string(format) == "json" ? "4" : "0";
    auto run = [&](const char* jobs) {
      return testing::RunCli({"--no-config", "-j", jobs, "--format", format, "--explain",
                              "--max-repair-lints", lints, dir.string()});
    };
    testing::CliResult one = run("1"), two = run("2");
    CHECK(one.exit_code == 1);
    CHECK(one.out.size() > 10000);
    CHECK(one.out == two.out);
    CHECK(one.err == two.err);
  }
}

}  // namespace
}  // namespace capops
