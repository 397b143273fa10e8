// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>

#include "engine/eval/evaluator.h"
#include "tests/support/fixture.h"

namespace capops::eval {
namespace {

using testing::CompilePolicy;
using testing::LintText;

// The planner hoists clause 4 ahead of the second scan and answers that
// scan from an index by pool: a run that followed the plan would evaluate
// clause 4 once per `a` and clause 3 only for the candidates of the join.
const char* kRule = R"(@id("T-1") rule r {
  for a in plan.allocations
  for b in plan.allocations
  where b.pool == a.pool && b.id != a.id
  where a.gpus > 100
  deny "{a.id} {b.id}"
}
)";

const char* kPlan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
allocations:
  - {id: x1, pool: p1, gpus: 2}
  - {id: x2, pool: p1, gpus: 200}
  - {id: x3, pool: p2, gpus: 1}
)";

const char* kInventory = R"(apiVersion: capops.dev/v1
kind: Inventory
)";

std::vector<std::pair<int, int>> Counts(const Coverage& coverage) {
  std::vector<std::pair<int, int>> out;
  for (const ClauseCoverage& c : coverage.rules.at("T-1")) {
    out.emplace_back(static_cast<int>(c.seen_true), static_cast<int>(c.seen_false));
  }
  return out;
}

TEST_CASE("coverage counts each clause as written, whatever the plan reorders or joins",
          "[eval][ir]") {
  for (bool optimize : {true, false}) {
    CAPTURE(optimize);
    auto c = CompilePolicy(kRule, false);
    REQUIRE(c->ok);
    c->engine.options().optimize = optimize;
    Coverage coverage;
    LintOptions lint;
    lint.coverage = &coverage;
    LintReport r = LintText(*c, kPlan, kInventory, lint);
    REQUIRE(r.violations.size() == 1);
    CHECK(r.violations[0].message == "x2 x1");
    // Clause 3 runs for all nine pairs and holds for two; clause 4 runs for
    // those two and holds for one. No `when`: the statement is not counted.
    std::vector<std::pair<int, int>> expected{{0, 0}, {0, 0}, {2, 7}, {1, 1}, {0, 0}};
    CHECK(Counts(coverage) == expected);
  }
}

// The facts of kPlan and kInventory, loaded by `engine`.
Facts LoadedFacts(Engine* engine) {
  Facts facts;
  Diagnostics problems;
  REQUIRE(engine->LoadFacts({TextFile{"plan.yaml", kPlan}},
                            {TextFile{"inventory.yaml", kInventory}}, &facts, &problems));
  return facts;
}

// A why-not focus: the record with this id.
std::function<bool(const Value&)> IdIs(const char* id) {
  return [id](const Value& v) { return v.Id() == id; };
}

TEST_CASE("why-not stops each path at its first false clause as written", "[eval][ir]") {
  auto c = CompilePolicy(kRule, false);
  REQUIRE(c->ok);
  Facts facts = LoadedFacts(&c->engine);

  std::optional<WhyNotResult> x1 = c->engine.WhyNot("T-1", facts, IdIs("x1"));
  REQUIRE(x1.has_value());
  CHECK(x1->in_domain);
  REQUIRE(x1->outcomes.size() == 3);  // one per `b`, with `a` the chosen fact
  CHECK(x1->outcomes[0].failed_clause == "where b.pool == a.pool && b.id != a.id");
  CHECK(x1->outcomes[1].failed_clause == "where a.gpus > 100");  // the planner runs it first
  CHECK(x1->outcomes[1].trace.value == "false");
  REQUIRE(x1->outcomes[1].bindings.size() == 2);
  CHECK(x1->outcomes[1].bindings[0].value == "x1");
  CHECK(x1->outcomes[1].bindings[1].value == "x2");
  CHECK(x1->outcomes[2].failed_clause == "where b.pool == a.pool && b.id != a.id");
  CHECK_FALSE(x1->outcomes[0].fired);

  std::optional<WhyNotResult> x2 = c->engine.WhyNot("T-1", facts, IdIs("x2"));
  REQUIRE(x2.has_value());
  REQUIRE(x2->outcomes.size() == 3);
  CHECK(x2->outcomes[0].fired);  // b = x1
  CHECK(x2->outcomes[0].bindings.size() == 2);
  CHECK(x2->outcomes[1].failed_clause == "where b.pool == a.pool && b.id != a.id");

  std::optional<WhyNotResult> none = c->engine.WhyNot("T-1", facts, IdIs("x9"));
  REQUIRE(none.has_value());
  CHECK_FALSE(none->in_domain);
  CHECK(none->outcomes.empty());
}

TEST_CASE("why-not says a binding fires only when one of its statements does", "[eval][ir]") {
  auto c = CompilePolicy(R"(@id("T-2") rule r {
  for a in plan.allocations
  deny when a.gpus > 100 at a.gpus "{a.id} is large"
  deny when a.pool == "p9" "{a.id} is on p9"
  deny when a.gpus / 0 > 1 "never"
}
)",
                         false);
  REQUIRE(c->ok);
  Facts facts = LoadedFacts(&c->engine);

  // Every clause passes for x1, and no statement fires: each says why not.
  std::optional<WhyNotResult> x1 = c->engine.WhyNot("T-2", facts, IdIs("x1"));
  REQUIRE(x1.has_value());
  REQUIRE(x1->outcomes.size() == 1);
  const WhyNotOutcome& quiet = x1->outcomes[0];
  CHECK_FALSE(quiet.fired);
  CHECK(quiet.failed_clause.empty());
  REQUIRE(quiet.statements.size() == 3);
  CHECK(quiet.statements[0].trace.clause == "deny when a.gpus > 100");
  CHECK(quiet.statements[0].trace.value == "false");
  CHECK_FALSE(quiet.statements[0].trace.values.empty());
  CHECK(quiet.statements[1].trace.clause == "deny when a.pool == \"p9\"");
  CHECK_FALSE(quiet.statements[1].fired);
  CHECK(quiet.statements[2].error == "division by zero");

  // For x2 the first statement fires, with the finding's message.
  std::optional<WhyNotResult> x2 = c->engine.WhyNot("T-2", facts, IdIs("x2"));
  REQUIRE(x2->outcomes.size() == 1);
  CHECK(x2->outcomes[0].fired);
  REQUIRE(x2->outcomes[0].statements.size() == 3);
  CHECK(x2->outcomes[0].statements[0].fired);
  CHECK(x2->outcomes[0].statements[0].message == "x2 is large");
  CHECK(x2->outcomes[0].statements[0].trace.value == "true");
}

TEST_CASE("why-not ends a path at a `for` over nothing, and follows every binding without a fact",
          "[eval][ir]") {
  auto c = CompilePolicy(R"(@id("T-3") rule r {
  for a in plan.allocations
  for b in plan.allocations.filter(x, x.pool == a.pool && x.id != a.id)
  deny "{a.id} {b.id}"
}
)",
                         false);
  REQUIRE(c->ok);
  Facts facts = LoadedFacts(&c->engine);
  // x3 is alone on its pool: the inner `for` has nothing to range over.
  std::optional<WhyNotResult> x3 = c->engine.WhyNot("T-3", facts, IdIs("x3"));
  REQUIRE(x3->outcomes.size() == 1);
  CHECK(x3->outcomes[0].no_items);
  CHECK(x3->outcomes[0].error.empty());
  CHECK(x3->outcomes[0].failed_clause ==
        "for b in plan.allocations.filter(x, x.pool == a.pool && x.id != a.id)");
  CHECK(x3->outcomes[0].trace.value == "[]");

  // Without a fact: every binding, x1 and x2 firing, x3 stopping.
  std::optional<WhyNotResult> all = c->engine.WhyNot("T-3", facts, nullptr);
  CHECK(all->in_domain);
  CHECK_FALSE(all->capped);
  REQUIRE(all->outcomes.size() == 3);
  CHECK(all->outcomes[0].fired);
  CHECK(all->outcomes[1].fired);
  CHECK(all->outcomes[2].no_items);
  std::optional<WhyNotResult> two = c->engine.WhyNot("T-3", facts, nullptr, 2);
  CHECK(two->capped);
  CHECK(two->outcomes.size() == 2);
}

TEST_CASE("every finding explained has a trace, also of a rule without `where`", "[eval][ir]") {
  auto c = CompilePolicy(R"(@id("T-4") rule r {
  for a in plan.allocations
  let used = [a].timeline(x, [], x.gpus)
  for o in used.over(100)
  deny when a.pool == "p1" "{a.id} over"
}
@id("T-5") rule s {
  for a in plan.allocations
  deny "{a.id}"
}
)",
                         false);
  REQUIRE(c->ok);
  LintOptions explain;
  explain.trace = true;
  LintReport r = LintText(*c, kPlan, kInventory, explain);
  std::vector<std::string> traced;
  for (const Violation& v : r.violations) {
    std::string clauses = v.rule_id + ":";
    for (const TraceStep& step : v.trace) clauses += " " + step.clause + " = " + step.value + ";";
    traced.push_back(clauses);
  }
  std::sort(traced.begin(), traced.end());
  CHECK(traced ==
        std::vector<std::string>{
            "T-4: for o in used.over(100) = at all times: 200 (x2); deny when a.pool == "
            "\"p1\" = true;",
            "T-5: for a in plan.allocations = [{id: \"x1\", pool: \"p1\", gpus: 2}, "
            "{id: \"x2\", pool: \"p1\", gpus: 200}, {id: \"x3\", pool: \"p2\", gpus: 1}];",
            "T-5: for a in plan.allocations = [{id: \"x1\", pool: \"p1\", gpus: 2}, "
            "{id: \"x2\", pool: \"p1\", gpus: 200}, {id: \"x3\", pool: \"p2\", gpus: 1}];",
            "T-5: for a in plan.allocations = [{id: \"x1\", pool: \"p1\", gpus: 2}, "
            "{id: \"x2\", pool: \"p1\", gpus: 200}, {id: \"x3\", pool: \"p2\", gpus: 1}];"});
  // Without --explain, no trace is kept.
  for (const Violation& v : LintText(*c, kPlan, kInventory).violations) CHECK(v.trace.empty());
}

}  // namespace
}  // namespace capops::eval
