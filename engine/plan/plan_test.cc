// SPDX-License-Identifier: Apache-2.0
#include "engine/plan/plan.h"

#include <catch2/catch.hpp>

#include "tests/support/fixture.h"

namespace capops::plan {
namespace {

using testing::CompilePolicy;
using testing::Findings;
using testing::LintText;

// The findings of `cpl` over the facts, planned and as written.
std::pair<std::vector<std::string>, std::vector<std::string>> BothWays(const std::string& cpl,
                                                                       const std::string& plan,
                                                                       const std::string& inventory,
                                                                       bool typed) {
  auto c = CompilePolicy(cpl, typed);
  REQUIRE(c->ok);
  auto planned = Findings(LintText(*c, plan, inventory));
  c->engine.options().optimize = false;
  auto as_written = Findings(LintText(*c, plan, inventory));
  return {planned, as_written};
}

// The plan dump of the rules of `cpl`, without the standard library's functions.
std::string RulesDump(const std::string& cpl) {
  auto c = CompilePolicy(cpl);
  REQUIRE(c->ok);
  std::string dump = Dump(*c->engine.program(), *c->engine.plan(), c->engine.sources());
  return dump.substr(0, dump.find("\nfn ") + 1);
}

TEST_CASE("the plan dump shows hoisted clauses, joins and invariant expressions", "[plan]") {
  CHECK(RulesDump(R"(@id("T-1") rule r {
  for a in plan.allocations
  for b in plan.allocations
  where b.pool == a.pool && b.id != a.id
  where a.gpus > 1
  let total = sum(plan.allocations.map(x, x.gpus))
  let mine = plan.allocations.filter(y, y.demand == a.demand)
  let cited = plan.allocations.exists(z, a.id in z.evidence)
  deny "{a.id} {b.id} {total} {size(mine)} {cited}"
}
)") == R"(rule T-1 (8 slots)
  [1] scan $0 a <- plan.allocations
  [4] filter a.gpus > 1
  [2] scan $1 b <- plan.allocations
      join by `b.pool` == `a.pool`
  [3] filter b.pool == a.pool && b.id != a.id
  [5] let $3 total = sum(plan.allocations.map(x, x.gpus))
  [6] let $5 mine = plan.allocations.filter(y, y.demand == a.demand)
  [7] let $7 cited = plan.allocations.exists(z, a.id in z.evidence)
  emit deny
  once `sum(plan.allocations.map(x, x.gpus))`
  join `plan.allocations.filter(y, y.demand == a.demand)` by `y.demand` == `a.demand`
  join `plan.allocations.exists(z, a.id in z.evidence)` by each of `z.evidence` for `a.id`
)");
}

// Only a `let` looking up a field of the loop's own variable in a list of
// the facts is read ahead, and it belongs to the nearest `for` before it.
TEST_CASE("lookups of a loop's item in the facts are read ahead", "[plan]") {
  CHECK(RulesDump(R"(@id("T-1") rule r {
  for a in plan.allocations
  let d = plan.demands[a.demand]
  let by_name = plan.demands[d.id]
  let p = inventory.pools[a.pool]
  let again = plan.demands[a.demand + ""]
  for s in inventory.supply
  let q = inventory.pools[a.pool]
  let t = inventory.accelerator_types[s.accelerator]
  deny "{d.id} {by_name.id} {p.id} {again.id} {q.id} {t.id}"
}
)") == R"(rule T-1 (8 slots)
  [1] scan $0 a <- plan.allocations
      reads ahead plan.demands[a.demand]
      reads ahead inventory.pools[a.pool]
  [2] let $1 d = plan.demands[a.demand]
  [3] let $2 by_name = plan.demands[d.id]
  [4] let $3 p = inventory.pools[a.pool]
  [5] let $4 again = plan.demands[a.demand + ""]
  [6] scan $5 s <- inventory.supply
      reads ahead inventory.accelerator_types[s.accelerator]
  [7] let $6 q = inventory.pools[a.pool]
  [8] let $7 t = inventory.accelerator_types[s.accelerator]
  emit deny
)");
}

// Lookups read ahead change no finding, whatever the keys hold: an id found
// before, one never found, one missing, one not a string.
TEST_CASE("reading lookups ahead changes no finding", "[plan]") {
  const char* plan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
demands:
  - {id: d1, gpus: 1}
  - {id: d2, gpus: 2}
allocations:
  - {id: a1, demand: d1}
  - {id: a2, demand: d2}
  - {id: a3, demand: d1}
  - {id: a4, demand: dx}
  - {id: a5, demand: 7}
  - {id: a6}
  - {id: a7, demand: d2}
)";
  const char* cpl = R"(@id("T-1") rule r {
  for a in plan.allocations
  let d = plan.demands[a.demand]
  deny "{a.id} {d.id} {d.gpus}"
}
)";
  auto [planned, as_written] =
      BothWays(cpl, plan, "apiVersion: capops.dev/v1\nkind: Inventory\n", false);
  CHECK(planned == as_written);
  auto count = [&, &lines = planned](const std::string& part) {
    return std::count_if(lines.begin(), lines.end(),
                         [&](const std::string& s) { return s.find(part) != std::string::npos; });
  };
  CHECK(count("error") == 3);    // `dx` is no id, 7 no string, a6 has no `demand`
  CHECK(count("a7 d2 2") == 1);  // found again after them
}

TEST_CASE("a where passes an earlier where only to leave a loop", "[plan]") {
  auto c = CompilePolicy(R"(@id("T-1") rule r {
  for a in plan.allocations
  let same = plan.allocations.filter(b, b.pool == a.pool)
  where size(same) > 1
  where a.gpus > 1
  deny "{a.id}"
}
)");
  REQUIRE(c->ok);
  std::string dump = Dump(*c->engine.program(), *c->engine.plan(), c->engine.sources());
  CHECK(dump.substr(0, dump.find("\n  join")) == R"(rule T-1 (3 slots)
  [1] scan $0 a <- plan.allocations
  [2] let $2 same = plan.allocations.filter(b, b.pool == a.pool)
  [3] filter size(same) > 1
  [4] filter a.gpus > 1
  emit deny)");
}

TEST_CASE("remembered per loop values: costly calls, not cheap ones nor never-repeating values",
          "[plan]") {
  auto c = CompilePolicy(R"(fn cheap(n: int): bool = n > 1
fn costly(xs: list<ref Supply>): int = size(xs.filter(x, x != ""))
fn indirect(xs: list<ref Supply>): int = costly(xs) + 1
@id("T-1") rule r {
  for p in inventory.pools
  for a in plan.allocations
  let fresh = a.evidence.map(e, e)
  let counted = costly(a.evidence) + indirect(a.evidence)
  where cheap(a.gpus)
  let seen = plan.allocations.filter(x, x.evidence == fresh)
  let kept = plan.allocations.filter(x, x.evidence == a.evidence)
  deny "{p.id} {counted} {size(seen)} {size(kept)}"
}
)");
  REQUIRE(c->ok);
  std::string dump = Dump(*c->engine.program(), *c->engine.plan(), c->engine.sources());
  CHECK(dump.find("once per loop values `costly(a.evidence)`") != std::string::npos);
  CHECK(dump.find("once per loop values `indirect(a.evidence)`") != std::string::npos);
  CHECK(dump.find("`cheap(") == std::string::npos);
  // `fresh` is a new list each time: remembering per its value only stores.
  CHECK(dump.find("once per loop values `plan.allocations.filter(x, x.evidence == fresh)`") ==
        std::string::npos);
  // `a.evidence` is a fact, the same list whenever `a` is.
  CHECK(dump.find("once per loop values `plan.allocations.filter(x, x.evidence == a.evidence)`") !=
        std::string::npos);
}

TEST_CASE("no join where the list depends on the loop or the key on other variables", "[plan]") {
  auto c = CompilePolicy(R"(@id("T-1") rule r {
  for a in plan.allocations
  let same = a.evidence.filter(e, e == a.id)
  let mixed = plan.allocations.filter(b, b.gpus + a.gpus == 4)
  let any = plan.allocations.all(b, b.pool == a.pool)
  deny "{size(same)} {size(mixed)} {any}"
}
)");
  REQUIRE(c->ok);
  std::string dump = Dump(*c->engine.program(), *c->engine.plan(), c->engine.sources());
  CHECK(dump.find("join") == std::string::npos);
}

// Facts where keys are sometimes missing, not strings or lists of mixed
// kinds: such items cannot be indexed and must still be compared.
const char* kOddPlan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
allocations:
  - {id: a1, pool: p1, gpus: 2, evidence: [e1, e2]}
  - {id: a2, pool: p1, gpus: 3, evidence: [e2]}
  - {id: a3, pool: 7, gpus: 1, evidence: [7, e1]}
  - {id: a4, gpus: 5, evidence: e1}
  - {id: a5, pool: p2, gpus: 1, evidence: []}
  - {id: a6, pool: p1, gpus: 2, evidence: [e1, e1]}
demands:
  - {id: d1, pool: p1, cite: e1}
  - {id: d2, pool: 7, cite: 7}
  - {id: d3, cite: e2}
)";

TEST_CASE("planned and as-written runs agree on odd keys, errors included", "[plan]") {
  const char* cpl = R"(@id("T-1") rule joined {
  for d in plan.demands
  for a in plan.allocations
  where a.pool == d.pool && a.gpus > 1
  deny "{d.id} {a.id}"
}
@id("T-2") rule filtered {
  for d in plan.demands
  let same = plan.allocations.filter(a, d.pool == a.pool)
  let citing = plan.allocations.filter(a, d.cite in a.evidence)
  let total = sum(plan.allocations.map(a, a.pool == d.pool, a.gpus))
  let one = plan.allocations.exists_one(a, a.pool == d.pool && a.gpus == 3)
  let some = plan.allocations.exists(a, a.gpus > 2 && a.pool == d.pool)
  deny "{d.id}: {same.map(a, a.id)} {citing.map(a, a.id)} {total} {one} {some}"
}
)";
  auto [planned, as_written] =
      BothWays(cpl, kOddPlan, "apiVersion: capops.dev/v1\nkind: Inventory\n", false);
  CHECK(planned == as_written);
  CHECK(planned.size() > 4);  // the facts do reach every kind of outcome
  bool has_error = std::any_of(planned.begin(), planned.end(),
                               [](const std::string& s) { return s.rfind("error", 0) == 0; });
  CHECK(has_error);
}

TEST_CASE("a function's list parameter and any-of conditions are joined too", "[plan]") {
  auto c = CompilePolicy(
      R"(fn on(xs: list<any>, id: any): list<any> = xs.filter(a, has(a.pool) && a.pool == id)
@id("T-1") rule r {
  for d in plan.demands
  let mine = on(plan.allocations, d.pool)
  let named = plan.allocations.filter(a, a.pool in [d.pool, "p2"])
  let near = plan.demands.filter(x, x.cite == d.cite)
  let via = plan.allocations.filter(a, near.exists(y, y.pool == a.pool))
  let either = plan.demands.filter(x, x.id == d.id || x.cite == d.id && x.pool != "")
  deny "{size(mine)} {size(named)} {size(via)} {size(either)}"
}
)",
      false);
  REQUIRE(c->ok);
  std::string dump = Dump(*c->engine.program(), *c->engine.plan(), c->engine.sources());
  CHECK(dump.find("join `xs.filter(a, has(a.pool) && a.pool == id)` by `a.pool` == `id`, an "
                  "index per list passed") != std::string::npos);
  CHECK(dump.find("join `plan.allocations.filter(a, a.pool in [d.pool, \"p2\"])` by `a.pool` for "
                  "each of `[d.pool, \"p2\"]`") != std::string::npos);
  CHECK(dump.find("join `plan.allocations.filter(a, near.exists(y, y.pool == a.pool))` by "
                  "`a.pool` for each of `near`") != std::string::npos);
  CHECK(dump.find("join `plan.demands.filter(x, x.id == d.id || x.cite == d.id && x.pool != \"\")` "
                  "either by `x.id` == `d.id` or by `x.cite` == `d.id`") != std::string::npos);
}

// The facts of kOddPlan again, with more items on one pool than a per-list
// join leaves to a scan, so that its index is built and used.
std::string ManyOnOnePool() {
  std::string plan = kOddPlan;
  plan = plan.substr(0, plan.find("demands:"));
  for (int i = 0; i < 40; ++i) {
    plan += "  - {id: m" + std::to_string(i) + ", pool: " + (i % 3 == 0 ? "p1" : "p2") +
            ", gpus: " + std::to_string(i % 4) + ", evidence: [e" + std::to_string(i % 2) + "]}\n";
  }
  plan += R"(  - {id: m-odd, pool: [p1], gpus: 1, evidence: [e1]}
demands:
  - {id: d1, pool: p1, cite: e1}
  - {id: d2, pool: 7, cite: 7}
  - {id: d3, cite: e2}
  - {id: d4, pool: p2, cite: e1}
  - {id: d5, pool: p1, cite: e0}
)";
  return plan;
}

TEST_CASE("planned and as-written runs agree on joins by list and by any of several keys",
          "[plan]") {
  const char* cpl =
      R"(fn on(xs: list<any>, id: any): list<any> = xs.filter(a, has(a.pool) && a.pool == id)
fn heavy(xs: list<any>, id: any): int = sum(xs.map(a, has(a.pool) && a.pool == id && a.gpus > 1, a.gpus))
@id("T-1") rule by_list {
  for d in plan.demands
  let mine = on(plan.allocations, d.pool)
  let big = on(plan.allocations.filter(a, a.gpus > 1), d.pool)
  let fresh = on(plan.allocations.filter(a, a.id != d.id), d.pool)
  deny "{d.id}: {mine.map(a, a.id)} {big.map(a, a.id)} {size(fresh)} {heavy(plan.allocations, d.pool)}"
}
@id("T-2") rule any_of {
  for d in plan.demands
  let named = plan.allocations.filter(a, has(a.pool) && a.pool in [d.pool, "p2", d.pool])
  let near = plan.demands.filter(x, has(x.pool) && x.cite == d.cite)
  let via = plan.allocations.filter(a, has(a.pool) && near.exists(y, y.pool == a.pool))
  let some = plan.allocations.exists(a, has(a.pool) && a.pool in [d.pool] && a.gpus > 2)
  let either = plan.allocations.filter(a, a.id == "m7" || has(a.pool) && a.pool == d.pool)
  deny "{d.id}: {named.map(a, a.id)} {via.map(a, a.id)} {some} {either.map(a, a.id)}"
}
)";
  auto [planned, as_written] =
      BothWays(cpl, ManyOnOnePool(), "apiVersion: capops.dev/v1\nkind: Inventory\n", false);
  CHECK(planned == as_written);
  for (const auto& f : planned) UNSCOPED_INFO(f);
  CHECK(planned.size() > 8);
  bool has_error = std::any_of(planned.begin(), planned.end(),
                               [](const std::string& s) { return s.rfind("error", 0) == 0; });
  CHECK(has_error);  // a pool that is not a string, a missing one: errors both ways
}

// Functions whose body joins a parameter, called with a loop's variable.
const char* kCallJoins =
    R"(fn on_pool(a: any, d: any, n: any): bool = a.pool == d.pool && a.gpus >= n
fn via(a: any, d: any): bool = on_pool(a, d, 0) && has(a.pool)
fn cites(a: any, c: any): bool = has(a.evidence) && c in a.evidence
fn same(a: any, b: any): bool = a.pool == b.pool
fn loose(a: any, d: any): bool = a.pool == d.pool || a.gpus > 2
)";

TEST_CASE("a call whose body joins the parameter it is passed the loop's variable in is joined",
          "[plan]") {
  auto c = CompilePolicy(std::string(kCallJoins) + R"(@id("T-1") rule r {
  for d in plan.demands
  let some = plan.allocations.exists(a, on_pool(a, d, 2) && a.id != "")
  let nested = plan.allocations.filter(a, via(a, d))
  let citing = plan.allocations.filter(a, cites(a, d.cite))
  let either = plan.allocations.filter(a, on_pool(a, d, 1) || cites(a, d.cite))
  let twice = plan.allocations.filter(a, same(a, a))
  let part = plan.allocations.filter(a, on_pool(a.evidence, d, 1))
  let wide = plan.allocations.filter(a, loose(a, d))
  for b in plan.allocations
  where on_pool(b, d, 1)
  deny "{some} {size(nested)} {size(citing)} {size(either)} {size(twice)} {size(part)} {size(wide)}"
}
)",
                         false);
  REQUIRE(c->ok);
  std::string dump = Dump(*c->engine.program(), *c->engine.plan(), c->engine.sources());
  auto has = [&](const std::string& line) {
    INFO(dump);
    CHECK(dump.find(line) != std::string::npos);
  };
  has("join `plan.allocations.exists(a, on_pool(a, d, 2) && a.id != \"\")` by `a.pool` == "
      "`d.pool` in `on_pool(a, d, 2)`\n");
  has("join `plan.allocations.filter(a, via(a, d))` by `a.pool` == `d.pool` in `on_pool(a, d, 0)` "
      "in `via(a, d)`\n");
  has("join `plan.allocations.filter(a, cites(a, d.cite))` by each of `a.evidence` for `c` in "
      "`cites(a, d.cite)`\n");
  has("join `plan.allocations.filter(a, on_pool(a, d, 1) || cites(a, d.cite))` either by "
      "`a.pool` == `d.pool` in `on_pool(a, d, 1)` or by each of `a.evidence` for `c` in "
      "`cites(a, d.cite)`\n");
  has("  [9] scan $15 b <- plan.allocations\n      join by `a.pool` == `d.pool` in "
      "`on_pool(b, d, 1)`\n");
  // The variable passed twice, a part of it passed, a body that is no
  // conjunction: every item is visited.
  CHECK(dump.find("join `plan.allocations.filter(a, same(a, a))`") == std::string::npos);
  CHECK(dump.find("join `plan.allocations.filter(a, on_pool(a.evidence") == std::string::npos);
  CHECK(dump.find("join `plan.allocations.filter(a, loose(a, d))`") == std::string::npos);
}

// The odd keys of kOddPlan, a pool that is a list, and demands whose
// probes find nothing, are not strings, or whose other arguments fail.
std::string CallJoinPlan() {
  std::string plan = kOddPlan;
  plan = plan.substr(0, plan.find("demands:"));
  return plan + R"(  - {id: a7, pool: p2, gpus: 4, evidence: [e3]}
  - {id: a9, pool: [p1], gpus: 4}
demands:
  - {id: d1, pool: p1, cite: e1, gpus: 2}
  - {id: d2, pool: 7, cite: 7, gpus: 1}
  - {id: d3, cite: e2, gpus: 1}
  - {id: d4, pool: p2, cite: e1, gpus: 0}
  - {id: d5, pool: p9, cite: e9}
  - {id: d6, pool: p1, cite: e2, gpus: many}
)";
}

// A function of another module (the standard library's) joins as well, its
// key and probe evaluated against that module's tables.
TEST_CASE("a join through a call of another module's function agrees with the rule as written",
          "[plan]") {
  const char* cpl = R"(@id("T-1") rule r {
  for t in inventory.accelerator_types
  let same = inventory.accelerator_types.filter(u, same_hardware(u, t))
  deny "{t.id}: {same.map(u, u.id)}"
}
)";
  auto c = CompilePolicy(cpl);
  REQUIRE(c->ok);
  std::string dump = Dump(*c->engine.program(), *c->engine.plan(), c->engine.sources());
  CHECK(dump.find("join `inventory.accelerator_types.filter(u, same_hardware(u, t))` by "
                  "`x.model` == `y.model` in `same_hardware(u, t)`\n") != std::string::npos);
  auto [planned, as_written] =
      BothWays(cpl, testing::ReadSourceFile("examples/visual-inspection/plan.yaml"),
               testing::ReadSourceFile("examples/visual-inspection/inventory.yaml"), true);
  for (const auto& f : planned) UNSCOPED_INFO(f);
  CHECK(planned == as_written);
  CHECK(planned.size() == 3);  // one per accelerator type, each the same hardware as itself
}

// Each kind of join through a call, one whose other argument may fail, and
// one whose other argument calls the function again (`deeper`, as `deep`).
const char* kThroughCalls = R"(@id("T-1") rule through_calls {
  for d in plan.demands
  let some = plan.allocations.exists(a, on_pool(a, d, 2) && a.id != "")
  let nested = plan.allocations.filter(a, via(a, d))
  let citing = plan.allocations.filter(a, cites(a, d.cite))
  let either = plan.allocations.filter(a, on_pool(a, d, 1) || cites(a, d.cite))
  let enough = plan.allocations.exists(a, on_pool(a, d, d.gpus))
  let none = plan.allocations.filter(x, on_pool(x, plan.demands[0], size(d.id) + 9))
  let deep = plan.allocations.filter(a, on_pool(a, d, size(none)))
  let deeper = plan.allocations.filter(a, on_pool(a, d, size(plan.allocations.filter(x,
    on_pool(x, plan.demands[0], size(d.id) + 9)))))
  deny "{d.id}: {some} {nested.map(a, a.id)} {citing.map(a, a.id)} {either.map(a, a.id)} {enough} {deep.map(a, a.id)} {deeper.map(a, a.id)}"
}
)";

TEST_CASE("planned and as-written runs agree on joins through calls, errors included", "[plan]") {
  std::string cpl = std::string(kCallJoins) + kThroughCalls + R"(@id("T-3") rule scanned {
  for d in plan.demands
  for a in plan.allocations
  where on_pool(a, d, d.gpus)
  deny "{d.id} {a.id}"
}
)";
  auto [planned, as_written] =
      BothWays(cpl, CallJoinPlan(), "apiVersion: capops.dev/v1\nkind: Inventory\n", false);
  for (const auto& f : planned) UNSCOPED_INFO(f);
  CHECK(planned == as_written);
  auto count = [&, &lines = planned](const std::string& part) {
    return std::count_if(lines.begin(), lines.end(),
                         [&](const std::string& s) { return s.find(part) != std::string::npos; });
  };
  CHECK(count("error") >= 3);
}

TEST_CASE("a join through a call whose other arguments fail answers with the failure", "[plan]") {
  std::string cpl = std::string(kCallJoins) + kThroughCalls;
  // Every pool a string: no item is kept aside, a candidate of every probe.
  const char* plan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
allocations:
  - {id: a1, pool: p1, gpus: 2, evidence: [e1, e2]}
  - {id: a2, pool: p1, gpus: 3, evidence: [e2]}
  - {id: a3, pool: p3, gpus: 1, evidence: [7, e1]}
  - {id: a4, pool: p4, gpus: 5, evidence: [e1]}
demands:
  - {id: d1, pool: p1, cite: e1, gpus: 2}
  - {id: d4, pool: p4, cite: e1, gpus: 1}
  - {id: d5, pool: p9, cite: e9}
)";
  auto [planned, as_written] =
      BothWays(cpl, plan, "apiVersion: capops.dev/v1\nkind: Inventory\n", false);
  for (const auto& f : planned) UNSCOPED_INFO(f);
  CHECK(planned == as_written);
  REQUIRE(planned.size() == 3);
  CHECK(planned[0].find("d1: true [a1, a2] [a1, a3, a4] [a1, a2, a3, a4] true [a1, a2] [a1, a2]") !=
        std::string::npos);
  // `deeper` calls `on_pool` for d1 while its own call's arguments are
  // evaluated: d4's probe is still its own pool.
  CHECK(planned[1].find("d4: true [a4] [a1, a3, a4] [a1, a3, a4] true [a4] [a4]") !=
        std::string::npos);
  // d5's probe `p9` selects nothing, yet its `gpus` is missing: every call
  // is an error, and so is the answer, not false.
  CHECK(planned[2].find("`d5` has no field `gpus`") != std::string::npos);
}

// The work of a rule that asks, for each demand, which allocations a
// function says are its own: linear in the facts when the call is joined.
TEST_CASE("a join through a call visits each demand's own allocations only", "[plan]") {
  auto c = CompilePolicy(R"(fn of(a: any, d: any): bool = a.demand == d.id && a.gpus > 0
@id("T-1") rule r {
  for d in plan.demands
  where !plan.allocations.exists(a, of(a, d) && a.gpus > 2)
  deny "{d.id}"
}
)",
                         false);
  REQUIRE(c->ok);
  auto visited = [&](int demands) {
    std::string plan = "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands:\n";
    for (int i = 0; i < demands; ++i)
      plan += "  - {id: d" + std::to_string(i) + ", slice: training, gpus: 4}\n";
    plan += "allocations:\n";
    for (int i = 0; i < 4 * demands; ++i) {
      plan += "  - {id: a" + std::to_string(i) + ", demand: d" + std::to_string(i % demands) +
              ", pool: p, gpus: " + std::to_string(1 + i % 2) + "}\n";
    }
    eval::Profile profile;
    LintOptions options;
    options.profile = &profile;
    eval::LintReport r =
        LintText(*c, plan, "apiVersion: capops.dev/v1\nkind: Inventory\n", options);
    CHECK(r.errors.empty());
    CHECK(r.violations.size() == static_cast<size_t>(demands));
    return profile.rules["T-1"].visited;
  };
  uint64_t small = visited(50), large = visited(200);
  INFO(small << " items visited for 50 demands, " << large << " for 200");
  CHECK(large <= 5 * small);  // four times the facts; sixteen times the work unjoined
}

// Each demand builds the list of the pools of its kind (a new list each
// time, of few items), then what stands on them and what that holds.
const char* kSharedSpares = R"(@id("T-1") rule r {
  for d in plan.demands
  let spares = inventory.pools.filter(p, p.kind == d.kind)
  let standing = plan.allocations.filter(a, spares.exists(p, p.id == a.pool))
  let held = sum(standing.map(a, a.gpus))
  deny "{d.id} {size(standing)} {held}"
}
@id("T-2") rule long_lists {
  for d in plan.demands
  let mine = plan.allocations.filter(a, a.gpus > 1 && d.kind != "k1")
  let held = sum(plan.allocations.map(a, mine.exists(b, b.id == a.id), a.gpus))
  deny "{d.id} {size(mine)} {held}"
}
)";

std::string SharedSparesPlan(int demands) {
  std::string plan = "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands:\n";
  for (int i = 0; i < demands; ++i)
    plan += "  - {id: d" + std::to_string(i) + ", kind: k" + std::to_string(i % 3) + "}\n";
  plan += "  - {id: d-none, kind: k9}\n  - {id: d-odd, kind: 7}\nallocations:\n";
  for (int i = 0; i < 4 * demands; ++i) {
    plan += "  - {id: a" + std::to_string(i) + ", pool: p" + std::to_string(i % 7) +
            ", gpus: " + std::to_string(1 + i % 3) + "}\n";
  }
  return plan;
}

const char* kSharedSparesInventory = R"(apiVersion: capops.dev/v1
kind: Inventory
pools:
  - {id: p0, kind: k0}
  - {id: p1, kind: k0}
  - {id: p2, kind: k1}
  - {id: p3, kind: k1}
  - {id: p4, kind: k2}
  - {id: p5, kind: k7}
  - {id: p6, kind: k2}
)";

TEST_CASE("what a short list built afresh selects is remembered by the list's items", "[plan]") {
  auto c = CompilePolicy(kSharedSpares, false);
  REQUIRE(c->ok);
  std::string dump = Dump(*c->engine.program(), *c->engine.plan(), c->engine.sources());
  INFO(dump);
  CHECK(dump.find("once per loop values, lists by their items `plan.allocations.filter(a, "
                  "spares.exists(p, p.id == a.pool))`\n") != std::string::npos);
  // `standing` holds a remembered list: the same one whenever `spares` has
  // the same items.
  CHECK(dump.find("once per loop values, lists by their items `standing.map(a, a.gpus)`\n") !=
        std::string::npos);
  CHECK(dump.find("once per loop values, lists by their items `plan.allocations.map(a, "
                  "mine.exists(b, b.id == a.id), a.gpus)`\n") != std::string::npos);
  // `spares` reads the outermost loop's variable, whose values never repeat.
  CHECK(dump.find("values `inventory.pools.filter(") == std::string::npos);
}

TEST_CASE("planned and as-written runs agree on values remembered by a list's items", "[plan]") {
  auto c = CompilePolicy(kSharedSpares, false);
  REQUIRE(c->ok);
  auto run = [&](int demands) {
    eval::Profile profile;
    LintOptions options;
    options.profile = &profile;
    std::vector<std::string> planned =
        Findings(LintText(*c, SharedSparesPlan(demands), kSharedSparesInventory, options));
    return std::make_pair(planned, profile.rules["T-1"].visited);
  };
  auto [small, small_visited] = run(30);
  auto [large, large_visited] = run(120);
  c->engine.options().optimize = false;
  auto [as_written, unused] = run(30);
  CHECK(small == as_written);
  for (const auto& f : small) UNSCOPED_INFO(f);
  // Each rule: a finding per demand, and an error for `d-odd`, whose kind
  // (an int) is compared with strings. T-2's lists are too long to be
  // compared by their items.
  REQUIRE(small.size() == 64);
  CHECK(std::count_if(small.begin(), small.end(), [](const std::string& f) {
          return f.find(" d0 35 71 |") != std::string::npos;
        }) == 1);
  CHECK(std::count_if(small.begin(), small.end(), [](const std::string& f) {
          return f.find(" d1 0 0 |") != std::string::npos;
        }) == 1);
  INFO(small_visited << " items visited for 30 demands, " << large_visited << " for 120");
  CHECK(large_visited <= 5 * small_visited);  // four times the facts; sixteen times the work
}

// Rules whose calls read three loop variables, more than an expression is
// remembered per: T-1 calls `backed`, which the test gives; T-2 gives
// `cited` a list built afresh for each allocation.
std::string CallsPolicy(const std::string& backed) {
  return backed + R"(
fn cited(ids: list<any>, supply: list<any>): int = size(supply.filter(s, ids.exists(i, i == s.id)))
@id("T-1") rule r {
  for a in plan.allocations
  let p = inventory.pools[a.pool]
  let d = plan.demands[a.demand]
  let q = inventory.pools[a.spare]
  where backed(p, d, q, inventory.supply) < a.gpus
  deny "{a.id} {backed(p, d, q, inventory.supply)}"
}
@id("T-2") rule by_items {
  for a in plan.allocations
  let p = inventory.pools[a.pool]
  let d = plan.demands[a.demand]
  let q = inventory.pools[a.spare]
  let n = cited([p.id, q.id, d.id], inventory.supply)
  where n > 0
  deny "{a.id} {n}"
}
)";
}

std::string CallsPlan(int allocations) {
  std::string plan =
      "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands:\n  - {id: d0}\n  - {id: d1}\n"
      "allocations:\n";
  for (int i = 0; i < allocations; ++i) {
    plan += "  - {id: a" + std::to_string(i) + ", pool: p" + std::to_string(i % 3) + ", spare: p" +
            std::to_string(i / 3 % 3) + ", demand: d" + std::to_string(i % 2) +
            ", gpus: " + std::to_string(i % 9) + "}\n";
  }
  return plan;
}

// Twenty supply records: two in each of r0 and r1 (p0 and p1), two held
// for d1, the rest elsewhere; `p1` and `p2` are also supply ids.
std::string CallsInventory() {
  std::string inventory =
      "apiVersion: capops.dev/v1\nkind: Inventory\npools:\n  - {id: p0, region: r0}\n"
      "  - {id: p1, region: r1}\n  - {id: p2, region: r2}\nsupply:\n"
      "  - {id: p1, region: r0}\n  - {id: p2, region: r0}\n  - {id: s2, region: r1}\n"
      "  - {id: s3, region: r1}\n  - {id: s4, demand: d1}\n  - {id: s5, demand: d1}\n";
  for (int i = 6; i < 20; ++i) inventory += "  - {id: s" + std::to_string(i) + ", region: r9}\n";
  return inventory;
}

TEST_CASE("a costly function is called once per distinct arguments (short lists by their items)",
          "[plan]") {
  auto c = CompilePolicy(CallsPolicy(R"(fn backed(p: any, d: any, q: any, supply: list<any>): int =
  size(supply.filter(s, has(s.region) && (s.region == p.region || s.region == q.region) ||
    has(s.demand) && s.demand == d.id)))"),
                         false);
  REQUIRE(c->ok);
  std::string dump = Dump(*c->engine.program(), *c->engine.plan(), c->engine.sources());
  CHECK(dump.find("fn backed\n  calls remembered by their arguments\n") != std::string::npos);
  auto run = [&](int allocations) {
    eval::Profile profile;
    LintOptions options;
    options.profile = &profile;
    std::vector<std::string> found =
        Findings(LintText(*c, CallsPlan(allocations), CallsInventory(), options));
    return std::make_tuple(found, profile.rules["T-1"].visited, profile.rules["T-2"].visited);
  };
  auto [planned, backed_visited, cited_visited] = run(180);
  c->engine.options().optimize = false;
  auto [as_written, backed_as_written, cited_as_written] = run(180);
  CHECK(planned == as_written);
  for (const auto& f : planned) UNSCOPED_INFO(f);
  // Findings that differ by the arguments: pool p2 with spare p2 for d0 is
  // backed by no record (a8); [p1, p0] cites one record (a1), [p2, p1] and
  // [p1, p2] two (a5, a7), [p0, p0] none (a0).
  auto count = [&planned = planned](const std::string& part) {
    return std::count_if(planned.begin(), planned.end(),
                         [&](const std::string& f) { return f.find(part) != std::string::npos; });
  };
  CHECK(count(" a8 0 |") == 1);
  CHECK(count(" a1 1 |") == 1);
  CHECK(count(" a5 2 |") == 1);
  CHECK(count(" a7 2 |") == 1);
  CHECK(count("| a=a0 ") == 0);  // 0 GPUs, no record cited
  // 180 allocations against 20 records: as written, every call reads them
  // all; remembered, each of the 18 combinations of arguments of `backed`
  // is computed at most twice. Not remembered by its arguments, the plan
  // still joins `backed`'s records by region and demand, and the rule
  // visits 1,626 items (checked). `cited`'s filter is remembered in its
  // body by its list's items as well: this checks its keys, not its cost.
  INFO(backed_visited << " " << backed_as_written << " " << cited_visited << " "
                      << cited_as_written);
  CHECK(backed_as_written >= 180 * 20);
  CHECK(backed_visited <= 2 * 180 + 2 * 18 * 20);
  CHECK(cited_as_written >= 180 * 20);
  CHECK(cited_visited <= 2 * 180 + 2 * 18 * 4);
}

// 300 allocations each on a pool of its own and 300 on one pool, the
// first ones first (`late`) or last (`early`), and their inventory.
struct Repeats {
  std::string late, early, inventory;
};
Repeats RepeatsLateOrEarly() {
  std::string inventory = "apiVersion: capops.dev/v1\nkind: Inventory\npools:\n";
  std::vector<std::string> unique, repeated;
  for (int i = 0; i < 300; ++i) {
    inventory += "  - {id: u" + std::to_string(i) + ", region: r" + std::to_string(i) + "}\n";
    unique.push_back("  - {id: a" + std::to_string(i) + ", pool: u" + std::to_string(i) +
                     ", spare: u0, demand: d0, gpus: 0}\n");
    repeated.push_back("  - {id: b" + std::to_string(i) + ", pool: u1, spare: u0, demand: d0, " +
                       "gpus: 0}\n");
  }
  inventory += "supply:\n";
  for (int i = 0; i < 20; ++i)
    inventory += "  - {id: s" + std::to_string(i) + ", region: r" + std::to_string(i) + "}\n";
  std::string head =
      "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands:\n  - {id: d0}\nallocations:\n";
  std::string late = head, early = head;
  for (const std::string& a : unique) late += a;
  for (const std::string& b : repeated) late += b, early += b;
  for (const std::string& a : unique) early += a;
  return {late, early, inventory};
}

TEST_CASE("a costly function whose first calls do not repeat is called directly after them",
          "[plan]") {
  // This `backed` reads every record: no join answers `!=`.
  auto c = CompilePolicy(CallsPolicy(R"(fn backed(p: any, d: any, q: any, supply: list<any>): int =
  size(supply.filter(s, s.region != p.region && s.region != q.region && s.id != d.id)))"),
                         false);
  REQUIRE(c->ok);
  Repeats facts = RepeatsLateOrEarly();
  auto steps = [&](const std::string& plan) {
    eval::Profile profile;
    LintOptions options;
    options.profile = &profile;
    std::vector<std::string> found = Findings(LintText(*c, plan, facts.inventory, options));
    CHECK(found.empty());  // no GPUs held, no error
    return profile.rules["T-1"].steps;
  };
  // The same 600 calls of `backed`. Repeats first: they are remembered, and
  // the 300 distinct calls after them are each computed once. Distinct
  // first: none of the first 256 repeats, so all 600 are computed.
  uint64_t repeats_early = steps(facts.early), repeats_late = steps(facts.late);
  INFO(repeats_early << " steps with the repeats first, " << repeats_late << " last");
  CHECK(repeats_late > repeats_early * 3 / 2);
}

TEST_CASE("a hoisted where skips loops it does not read", "[plan]") {
  const char* cpl = R"(@id("T-1") rule r {
  for a in plan.allocations
  for b in plan.allocations
  for c in plan.allocations
  where a.gpus == 5
  deny "{a.id} {b.id} {c.id}"
}
)";
  auto [planned, as_written] =
      BothWays(cpl, kOddPlan, "apiVersion: capops.dev/v1\nkind: Inventory\n", false);
  CHECK(planned == as_written);
  CHECK(planned.size() == 36);
}

}  // namespace
}  // namespace capops::plan

namespace capops::plan {
namespace {

// The kinds and clause (or statement) indexes of a rule's ops, with `j`
// after a scan that joins.
std::string Shape(const RuleProgram& program) {
  std::string out;
  for (const Op& op : program.ops) {
    static const char* const kKinds[] = {"scan", "let", "filter", "emit"};  // by OpKind
    const char* kind = kKinds[static_cast<int>(op.kind)];
    out += std::string(kind) + std::to_string(op.index) + (op.join >= 0 ? "j" : "") + " ";
  }
  return out;
}

TEST_CASE("the IR runs clauses in the planner's order, and as written keeps the author's",
          "[plan][ir]") {
  auto c = testing::CompilePolicy(R"(@id("T-1") rule r {
  for a in plan.allocations
  for b in plan.allocations
  where b.pool == a.pool && b.id != a.id
  let n = a.gpus + b.gpus
  where a.gpus > 1
  deny "{a.id} {b.id}"
  warn when n > 4 "{n}"
}
)");
  REQUIRE(c->ok);
  const check::RuleInfo& rule = c->engine.program()->rules[0];
  const RuleProgram& planned = c->engine.plan()->rules[0];
  CHECK(Shape(planned) == "scan0 filter4 scan1j filter2 let3 emit0 emit1 ");
  CHECK(planned.emits_at() == 5);
  RuleProgram written = AsWritten(rule, c->engine.program()->tables[rule.module]);
  CHECK(Shape(written) == "scan0 scan1 filter2 let3 filter4 emit0 emit1 ");
  CHECK(written.emits_at() == 5);
  // Scans and lets bind the slots the checker gave their variables.
  const auto& slots = c->engine.program()->tables[rule.module].slots;
  CHECK(written.ops[3].slot == slots[rule.rule->clauses[3].id]);
  CHECK(written.ops[1].slot != written.ops[0].slot);
  CHECK(written.ops[6].expr == rule.rule->emits[1].when.get());
  CHECK(written.ops[5].expr == nullptr);
}

}  // namespace
}  // namespace capops::plan
