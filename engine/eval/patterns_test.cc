// SPDX-License-Identifier: Apache-2.0
// `matches` on many threads: literal patterns compiled once by the planner
// and shared, computed ones compiled into each evaluation's own cache. A
// cache shared by threads that clears itself would free a pattern another
// thread is matching with; under ASan or TSan (the `asan` and `tsan`
// presets) this test then fails.
#include <catch2/catch.hpp>

#include "benchmarks/corpus.h"
#include "engine/eval/builtins.h"
#include "tests/support/fixture.h"

namespace capops::eval {
namespace {

// Eight rules, so that `-j 8` runs them at once; each computes a pattern per
// allocation (1500 distinct ones a rule, past any cache's size) or matches
// literal ones.
const char* kPolicy = R"cpl(
@id("RX-1") rule r1 { for a in plan.allocations where !a.id.matches("^" + a.id + "$") deny "{a.id}" }
@id("RX-2") rule r2 { for a in plan.allocations where a.id.matches("7$") deny "{a.id}" }
@id("RX-3") rule r3 { for a in plan.allocations where !(a.id + a.pool).matches("^(" + a.id + ")" + a.pool) deny "{a.id}" }
@id("RX-4") rule r4 { for a in plan.allocations where a.id.matches("^a-0*[0-9]*(13|31)$") deny "{a.id}" }
@id("RX-5") rule r5 { for a in plan.allocations where a.pool.matches(a.id + "|^x") deny "{a.id}" }
@id("RX-6") rule r6 { for a in plan.allocations where !a.id.matches("(" + a.id + "){1}") deny "{a.id}" }
@id("RX-7") rule r7 { for a in plan.allocations where a.id.matches("0" + a.id.upperAscii() + "|9$") deny "{a.id}" }
@id("RX-8") rule r8 { for a in plan.allocations where a.demand.matches("^" + a.id) || a.id.matches("^a-0+5") deny "{a.id}" }
)cpl";

TEST_CASE("patterns match alike on eight threads, literal and computed", "[eval][regex]") {
  bench::CorpusOptions o;
  o.allocations = 1500;
  o.pools = 150;
  bench::Corpus corpus = bench::GenerateCorpus(o);
  std::vector<TextFile> plans = {{"plan.yaml", corpus.plans[0]}};
  std::vector<TextFile> inventories = {{"inventory.yaml", corpus.inventory}};
  auto c = testing::CompilePolicy(kPolicy);
  REQUIRE(c->ok);
  c->engine.options().jobs = 1;
  eval::LintReport one = c->engine.Lint(plans, inventories);
  CHECK(one.errors.empty());
  // a-000007, …: a tenth end in 7; a-000013 and a-000031, …; nine ids a
  // pool name cannot match; a-000009, a-000019, …: a tenth end in 9; a-00005x.
  std::map<std::string, size_t> by_rule;
  for (const Violation& v : one.violations) ++by_rule[v.rule_id];
  CHECK(by_rule ==
        std::map<std::string, size_t>{{"RX-2", 150}, {"RX-4", 30}, {"RX-7", 150}, {"RX-8", 111}});
  c->engine.options().jobs = 8;
  for (int round = 0; round < 3; ++round) {
    eval::LintReport eight = c->engine.Lint(plans, inventories);
    CHECK(testing::Findings(eight) == testing::Findings(one));
  }
}

TEST_CASE("the literal patterns of a rule set are compiled once, when it is planned",
          "[eval][regex]") {
  auto c = testing::CompilePolicy(R"(@id("T") rule r {
  for a in plan.allocations
  where a.id.matches("^a-[0-9]+$") && a.pool.matches("^a-[0-9]+$") && a.demand.matches("^" + a.id)
  deny "x"
})");
  REQUIRE(c->ok);
  const plan::ProgramPlan& p = *c->engine.plan();
  size_t compiled = 0;
  for (const plan::ModulePlan& m : p.modules) compiled += m.patterns.size();
  CHECK(compiled == 1);  // one text, written twice; the computed one is not
  std::string dump = plan::Dump(*c->engine.program(), p, c->engine.sources());
  CHECK(dump.find("  compiled pattern \"^a-[0-9]+$\"\n  compiled pattern \"^a-[0-9]+$\"\n") !=
        std::string::npos);
}

TEST_CASE("a computed pattern is compiled once per evaluation, and the cache stays bounded",
          "[eval][regex]") {
  PatternCache cache;
  Budget budget(UINT64_MAX, UINT64_MAX);
  std::string error;
  const plan::Regex* first = cache.Find("^a+$", &budget, &error);
  REQUIRE(first != nullptr);
  uint64_t steps = budget.steps();
  CHECK(cache.Find("^a+$", &budget, &error) == first);
  CHECK(budget.steps() == steps);  // found, not compiled again
  for (size_t i = 0; i < 3 * PatternCache::kMaxPatterns; ++i) {
    const plan::Regex* re = cache.Find("^" + std::to_string(i) + "$", &budget, &error);
    REQUIRE(re != nullptr);
    CHECK(re->PartialMatch(std::to_string(i)));
  }
  CHECK(cache.Find("(", &budget, &error) == nullptr);
  CHECK(error == "invalid regular expression `(`: missing ): (");
}

}  // namespace
}  // namespace capops::eval
