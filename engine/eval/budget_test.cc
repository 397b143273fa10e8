// SPDX-License-Identifier: Apache-2.0
#include "engine/eval/budget.h"

#include <catch2/catch.hpp>
#include <functional>
#include <random>
#include <string>

#include "engine/eval/evaluator.h"
#include "tests/support/fixture.h"

namespace capops::eval {
namespace {

using testing::CompilePolicy;
using testing::LintText;

const char* kPlan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
allocations:
  - {id: a1, demand: explore, pool: p-spare, gpus: 2}
  - {id: a2, demand: train, pool: p-research, gpus: 16}
)";

const char* kInventory = "apiVersion: capops.dev/v1\nkind: Inventory\npools: []\n";

const char* kHelpers = R"(
fn x4(s: string): string = s + s + s + s
fn x256(s: string): string = x4(x4(x4(x4(s))))
fn l4(l: list<string>): list<string> = l + l + l + l
fn l256(l: list<string>): list<string> = l4(l4(l4(l4(l))))
fn m4(m: any): any = {"a": m, "b": m, "c": m, "d": m}
fn m256(m: any): any = m4(m4(m4(m4(m))))
)";

struct Outcome {
  std::string value;  // the message, or "error: …"
  std::string help;   // the error's help
  uint64_t bytes = 0;
};

// Evaluates `expr` once per allocation `a` (the last one's value is shown)
// under the given budgets.
Outcome Run(const std::string& expr, uint64_t max_memory, uint64_t max_steps = 20'000'000) {
  auto c = CompilePolicy(std::string(kHelpers) +
                             "@id(\"T\") rule r {\n  for a in plan.allocations\n  let v = " + expr +
                             "\n  deny \"{v}\"\n}\n",
                         false);
  if (!c->ok) return {"compile error: " + c->diagnostics[0].message, ""};
  c->engine.options().eval.max_memory = max_memory;
  c->engine.options().eval.max_steps = max_steps;
  LintReport r = LintText(*c, kPlan, kInventory);
  if (!r.errors.empty()) {
    const Diagnostic& d = r.errors[0];
    return {"error: " + d.message.substr(d.message.find(": ") + 2), d.help};
  }
  REQUIRE(!r.violations.empty());
  return {r.violations.back().message, ""};
}

constexpr uint64_t kMiB = 1 << 20;

TEST_CASE("values that would pass the memory budget are refused before they are built", "[eval]") {
  const std::string refused = "error: evaluation budget of 1048576 bytes exceeded";
  for (const char* expr : {
           "size(x256(x256(x256(a.id))))",                    // a string doubled: 32 MiB
           "size(l256(l256([a.id])))",                        // a list doubled: 64 K items
           "size(string(m256(m256(a.id))))",                  // 4^8 copies of the id, as text
           "m256(m256(a.id))",                                // ... as a message shows it
           "l256(l4([x256(x4(a.id))])).join(',').size()",     // 1024 strings of 2 KiB joined
           "size(l256(l4([x256(x4(a.id))])).map(s, s + s))",  // a comprehension's strings
           "size(l256(l4([x256(x4(a.id))])).map(s, s.upperAscii()))",
       }) {
    INFO(expr);
    Outcome o = Run(expr, kMiB);
    CHECK(o.value == refused);
    CHECK(o.help.find("`--max-memory`") != std::string::npos);
    // With room enough, the same expression has its value.
    CHECK(Run(expr, 4096 * kMiB, UINT64_MAX).value.rfind("error", 0) == std::string::npos);
  }
}

TEST_CASE("work on long strings and lists counts steps", "[eval]") {
  // A quarter megabyte searched for a long needle costs 16k steps: 256
  // searches pass a budget of 1M.
  std::string scans =
      "l256(['a']).filter(i, x256(x256(x4('b'))).contains(x256('b') + a.id + i)).size()";
  Outcome o = Run(scans, 4096 * kMiB, 1'000'000);
  CHECK(o.value == "error: evaluation budget of 1000000 steps exceeded");
  CHECK(o.help.find("`--max-steps`") != std::string::npos);
  CHECK(Run(scans, 4096 * kMiB, 100'000'000).value == "0");
  // Comparing lists that share their parts costs their whole extent.
  CHECK(
      Run("m256(m256(m256(a.id))) == m256(m256(m256(a.id + '')))", 4096 * kMiB, 1'000'000).value ==
      "error: evaluation budget of 1000000 steps exceeded");
  CHECK(Run("m256(a.id) == m256(a.id + '')", 4096 * kMiB, 1'000'000).value == "true");
  CHECK(Run("a.id in l256(l256([a.id + 'x']))", 4096 * kMiB, 10'000).value ==
        "error: evaluation budget of 10000 steps exceeded");
}

TEST_CASE("a long needle is found in linear time, and where find finds it", "[eval]") {
  // 64K `a`s then `b`, in a megabyte of `a`s ending in that needle: a plain
  // search compares the needle at every place (billions of compares).
  CHECK(Run("x256(x256(x4(x4('a')))).contains(x256(x256('a')) + 'b')", 4096 * kMiB).value ==
        "false");
  CHECK(Run("(x256(x256(x4(x4('a')))) + 'b').contains(x256(x256('a')) + 'b')", 4096 * kMiB).value ==
        "true");
  // Against std::string::find on random texts of two letters.
  std::mt19937 random(7);
  auto text_of = [&](size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += "ab"[random() % 2];
    return s;
  };
  std::string checks;
  std::string expected;
  for (int i = 0; i < 40; ++i) {
    std::string haystack = text_of(200 + random() % 200);
    std::string needle = random() % 2 != 0 ? haystack.substr(random() % 150, 17 + random() % 40)
                                           : text_of(17 + random() % 10);
    checks += std::string(checks.empty() ? "" : " + ") + "('" + haystack + "'.contains('" + needle +
              "') ? 'y' : 'n')";
    expected += haystack.find(needle) != std::string::npos ? 'y' : 'n';
  }
  CHECK(Run(checks, 4096 * kMiB).value == expected);
}

TEST_CASE("a computed pattern's cost is charged before it runs", "[eval]") {
  // 4096 `a`s and an id as a pattern, against a megabyte of `a`s: RE2 may
  // fall back to a search in time text times pattern.
  Outcome o = Run("x256(x256(x4(x4('a')))).matches(x256(x4(x4('a'))) + a.id)", 4096 * kMiB);
  CHECK(o.value == "error: evaluation budget of 20000000 steps exceeded");
  CHECK(Run("x256(x4(x4('a'))).matches('^a+$')", 4096 * kMiB).value == "true");
  CHECK(Run("'x'.matches('(' + a.id)", 4096 * kMiB)
            .value.rfind("error: invalid regular expression `(a", 0) == 0);
}

TEST_CASE("an error about a long text quotes its start", "[eval]") {
  Outcome o = Run("int(x256(a.id))", 4096 * kMiB);
  CHECK(o.value.rfind("error: `int` cannot read `a1a1a1", 0) == 0);
  CHECK(o.value.size() < 200);
  CHECK(o.value.find("(512 bytes)") != std::string::npos);
}

TEST_CASE("a budget spent where no error reaches a clause is still reported", "[eval]") {
  // The last binding fires within the budget; tracing its clauses again
  // for the report spends it, and nothing is evaluated after that.
  auto c = CompilePolicy(std::string(kHelpers) + R"(@id("T") rule r {
  for a in plan.allocations
  where a.id == "a2" && size(x256(x256(x4(a.id)))) > 0
  deny "x"
}
)",
                         false);
  REQUIRE(c->ok);
  c->engine.options().eval.max_memory = 2 * kMiB;
  LintReport r = LintText(*c, kPlan, kInventory);
  CHECK(r.violations.size() == 1);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message ==
        "rule `T` could not be evaluated: evaluation budget of 2097152 bytes exceeded");
  CHECK(r.errors[0].help.find("`--max-memory`") != std::string::npos);
}

TEST_CASE("a standalone expression's value must fit the budget as text", "[eval]") {
  auto c = CompilePolicy(std::string(kHelpers) + "@id(\"T\") rule r { deny \"x\" }\n", false);
  REQUIRE(c->ok);
  c->engine.options().eval.max_memory = kMiB;
  // A few hundred bytes of maps, 4^12 leaves as text.
  Engine::ExpressionResult big =
      c->engine.EvaluateExpression("m256(m256(m256('a')))", Facts{}, false);
  REQUIRE(big.compiled);
  CHECK(big.value.string_value() == "evaluation budget of 1048576 bytes exceeded");
  Engine::ExpressionResult small = c->engine.EvaluateExpression("m256('a')", Facts{}, false);
  CHECK(small.value.is(ValueKind::kMap));
}

// The fewest steps (max_steps) with which `runs` runs to its end.
uint64_t FewestSteps(Engine* engine, const std::function<bool()>& runs) {
  for (uint64_t steps = 1; steps < 100'000; ++steps) {
    engine->options().eval.max_steps = steps;
    if (runs()) return steps;
  }
  return 0;
}

TEST_CASE("why-not and eval have the lint's step budget: per MiB of the fact files", "[eval]") {
  auto c = CompilePolicy(R"(@id("T") rule r {
  for a in plan.allocations
  where a.gpus > 100 || [1, 2, 3, 4].exists(i, i * a.gpus == 32)
  deny at a.id "x"
}
)",
                         false);
  REQUIRE(c->ok);
  Engine& engine = c->engine;
  // Over 2 MiB of files: a budget of three times the steps.
  std::string padded = std::string(kPlan) + "# " + std::string(2 * kMiB, 'x') + "\n";
  auto plan = [&](bool large) { return large ? padded : std::string(kPlan); };
  auto facts = [&](bool large) {
    Facts f;
    Diagnostics problems;
    REQUIRE(engine.LoadFacts({{"plan.yaml", plan(large)}}, {{"inventory.yaml", kInventory}}, &f,
                             &problems));
    return f;
  };
  CHECK(facts(true).file_bytes > 2 * kMiB);
  std::vector<std::pair<const char*, std::function<bool(bool)>>> runs = {
      {"lint", [&](bool large) { return LintText(*c, plan(large), kInventory).errors.empty(); }},
      {"why-not",
       [&](bool large) {
         auto r = engine.WhyNot("T", facts(large), [](const Value& v) { return v.Id() == "a2"; });
         return r->outcomes.size() == 1 && r->outcomes[0].error.empty();
       }},
      {"eval", [&](bool large) {
         return !engine
                     .EvaluateExpression("plan.allocations.map(a, a.gpus * 2)", facts(large), false)
                     .value.is_error();
       }}};
  for (const auto& [name, run] : runs) {
    INFO(name);
    uint64_t fewest = FewestSteps(&engine, [&, &run = run] { return run(false); });
    REQUIRE(fewest > 1);
    engine.options().eval.max_steps = fewest - 1;
    CHECK_FALSE(run(false));
    CHECK(run(true));
  }
}

TEST_CASE("Extent bounds a value's text and stops past its limit", "[eval]") {
  Value name = Value::String("abc");
  Value pair = Value::List({name, name});
  CHECK(Extent(name, 1000) >= name.ToString().size());
  CHECK(Extent(pair, 1000) >= pair.ToString().size());
  Value big = pair;
  for (int i = 0; i < 60; ++i) big = Value::Map({{"k", big}, {"l", big}});  // 2^61 leaves
  CHECK(Extent(big, 1'000'000) > 1'000'000);
  CHECK(Extent(big, 1'000'000) < 1'000'000 + 4096);
}

}  // namespace
}  // namespace capops::eval
