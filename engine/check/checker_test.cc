// SPDX-License-Identifier: Apache-2.0
#include "engine/check/checker.h"

#include <catch2/catch.hpp>

#include "tests/support/fixture.h"

namespace capops::check {
namespace {

using testing::CompilePolicy;
using testing::Lines;

// "line:col: message" of every diagnostic of a rule whose body is `body`
// (the body starts on line 2), type-checked against the shipped schema.
std::vector<std::string> ErrorsOfRule(const std::string& body) {
  auto c = CompilePolicy("@id(\"T-1\") rule r {\n" + body + "\n}\n");
  return Lines(c->diagnostics);
}

struct IllTyped {
  const char* body;
  std::vector<std::string> errors;
};

// Each snippet is wrong in one way; the expected messages were reviewed.
const IllTyped kIllTyped[] = {
    {"  for a in plan.allocations\n  let p = inventory.pools[a.pool]\n  where p.rol == "
     "production\n  deny at a.pool \"x\"",
     {"4:9: no field `rol` on `Pool`"}},
    {"  for a in plan.allocations\n  where a.gpu > 1\n  deny at a.pool \"x\"",
     {"3:9: no field `gpu` on `Allocation`"}},
    {"  for a in plan.allocations\n  where a.gpus + 80GiB > 1\n  deny at a.pool \"x\"",
     {"3:9: no operator `+` for `int` and `bytes`"}},
    {"  where 80GiB + 5d > 1d\n  deny \"x\"", {"2:9: no operator `+` for `bytes` and `duration`"}},
    {"  where 80GiB + 5GB/s > 1B\n  deny \"x\"",
     {"2:9: no operator `+` for `bytes` and `bytes/s`"}},
    {"  where 80GiB < 5GB/s\n  deny \"x\"", {"2:9: cannot order `bytes` and `bytes/s` with `<`"}},
    {"  where 2027-04-12 + 80GiB > 2027-04-12\n  deny \"x\"",
     {"2:9: no operator `+` for `date` and `bytes`"}},
    {"  where 5d - 2027-04-12 > 1d\n  deny \"x\"",
     {"2:9: no operator `-` for `duration` and `date`"}},
    {"  where 1 == \"one\"\n  deny \"x\"",
     {"2:9: `==` between `int` and `string` is always false"}},
    {"  for p in inventory.pools\n  where p.role == \"production\"\n  deny at p.role \"x\"",
     {"3:9: `==` between `PoolRole` and `string` is always false"}},
    {"  for p in inventory.pools\n  where p.role == exploration\n  deny at p.role \"x\"",
     {"3:9: `==` between `PoolRole` and `Slice` is always false"}},
    {"  for d in plan.demands\n  where d.gpus > 1\n  deny at d.id \"x\"",
     {"3:9: `d.gpus` is optional and may be absent"}},
    {"  for d in plan.demands\n  where d.window.start > 2027-01-01\n  deny at d.id \"x\"",
     {"3:9: `d.window` is optional and may be absent"}},
    {"  for d in plan.demands\n  where has(d.window) && d.window.end > 2027-01-01\n  deny at d.id "
     "\"x\"",
     {"3:26: `d.window.end` is optional and may be absent"}},
    {"  for a in plan.allocations\n  where a.gpus\n  deny at a.pool \"x\"",
     {"3:9: `where` must be a bool, not `int`"}},
    {"  for a in plan.allocations\n  let x = a.gpus > 1 && \"yes\"\n  deny at a.pool \"x\"",
     {"3:25: the right side of `&&` must be a bool, not `string`"}},
    {"  for a in plan.allocations\n  where !a.gpus\n  deny at a.pool \"x\"",
     {"3:10: the operand of `!` must be a bool, not `int`"}},
    {"  for a in plan.allocations\n  where -a.pool == 1\n  deny at a.pool \"x\"",
     {"3:9: `-` needs a number, duration or quantity, not `ref Pool`"}},
    {"  for a in plan.allocations\n  deny at a.gpus * 2 \"x\"",
     {"3:11: `at` must point at a value in the facts, such as `a.pool`"}},
    {"  for a in plan.allocations\n  deny at \"here\" \"x\"",
     {"3:11: `at` must point at a value in the facts, such as `a.pool`"}},
    {"  for a in plan.allocations\n  let p = inventory.pools[a.pool]\n  deny at a.pool \"pool "
     "{p}\"",
     {"4:25: a message shows values, not a whole `Pool`"}},
    {"  for a in plan.allocations\n  deny at a.pool \"{a.evidence.map(e, inventory.supply[e])}\"",
     {"3:20: a message shows values, not a whole `list<Supply>`"}},
    {"  for a in plan.allocations\n  where a.gpus.size() > 1\n  deny at a.pool \"x\"",
     {"3:9: `size` needs a list, map or string, not `int`"}},
    {"  for a in plan.allocations\n  where a.pool.startsWith(1)\n  deny at a.pool \"x\"",
     {"3:9: this function needs strings, not `ref Pool` and `int`"}},
    {"  for a in plan.allocations\n  where size(a.gpus) > 1\n  deny at a.pool \"x\"",
     {"3:9: `size` needs a list, map or string, not `int`"}},
    {"  where sum(plan.allocations.map(a, a.pool)) > 1\n  deny \"x\"",
     {"2:9: `sum` needs numbers, durations or quantities, not `list<ref Pool>`",
      "2:9: cannot order `ref Pool` and `int` with `>`"}},
    {"  where max(plan.allocations) == 1\n  deny \"x\"",
     {"2:9: `==` between `Allocation` and `int` is always false",
      "2:9: `min` and `max` need ordered values, not `list<Allocation>`"}},
    {"  for a in plan.allocations\n  where inventory.pools[a.demand].hosts > 1\n  deny at a.pool "
     "\"x\"",
     {"3:25: cannot index `list<Pool>` with `ref Demand`"}},
    {"  for a in plan.allocations\n  where inventory.pools[1.5].hosts > 1\n  deny at a.pool \"x\"",
     {"3:25: cannot index `list<Pool>` with `double`"}},
    {"  for a in plan.allocations\n  where plan.metadata[0] == 1\n  deny at a.pool \"x\"",
     {"3:9: cannot index `Metadata`"}},
    {"  for a in plan.metadata\n  deny \"x\"", {"2:12: `for` needs a list, not `Metadata`"}},
    {"  for a in plan.allocations\n  where a.gpus in a.evidence\n  deny at a.pool \"x\"",
     {"3:9: `int` is never in `list<ref Supply>`"}},
    {"  for a in plan.allocations\n  where a.pool in 5\n  deny at a.pool \"x\"",
     {"3:9: `in` needs a list, set or map on the right, not `int`"}},
    {"  where plan.allocations.all(a, a.gpus)\n  deny \"x\"",
     {"2:33: the condition of `all` must be a bool, not `int`"}},
    {"  where plan.allocations.filter(a, a.pool).size() > 0\n  deny \"x\"",
     {"2:36: the condition of `filter` must be a bool, not `ref Pool`"}},
    {"  where plan.allocations.map(a, a.gpus, a.pool).size() > 0\n  deny \"x\"",
     {"2:33: the filter of `map` must be a bool, not `int`"}},
    {"  where plan.metadata.exists(x, true)\n  deny \"x\"",
     {"2:9: `exists` needs a list or a map, not `Metadata`"}},
    {"  for a in plan.allocations\n  where [a.gpus, a.pool].size() > 0\n  deny at a.pool \"x\"",
     {"3:18: list elements of different types: `int` and `ref Pool`"}},
    {"  for a in plan.allocations\n  where (a.gpus > 1 ? a.pool : a.gpus) == 1\n  deny at a.pool "
     "\"x\"",
     {"3:10: the branches of `?:` are of different types: `ref Pool` and `int`"}},
    {"  for a in plan.allocations\n  where a.gpus > 1 ? a.pool : \"x\"\n  deny at a.pool \"x\"",
     {"3:9: the branches of `?:` are of different types: `ref Pool` and `string`"}},
    {"  where PoolRole.producton == PoolRole.research\n  deny \"x\"",
     {"2:9: `PoolRole` has no member `producton`"}},
    {"  where PoolRole == research\n  deny \"x\"", {"2:9: `PoolRole` is a type, not a value"}},
    {"  for a in plan.allocations\n  where has(a.pol)\n  deny at a.pool \"x\"",
     {"3:13: no field `pol` on `Allocation`"}},
    {"  for a in plan.allocations\n  where has(a.gpus.x)\n  deny at a.pool \"x\"",
     {"3:13: `has` needs a record or a map, not `int`"}},
    {"  for a in plan.allocations\n  let a = 1\n  deny at a.pool \"x\"",
     {"3:7: `a` is already bound in this rule",
      "4:11: `at` must point at a value in the facts, such as `a.pool`",
      "4:11: cannot read field `pool` of `int`"}},
    {"  for a in plan.allocations\n  where a.window.start > 2027-01-01\n  deny at a.pool \"x\"",
     {"3:9: `a.window` is optional and may be absent"}},
    {"  for a in plan.allocations\n  where a.gpus / 80GiB > 1\n  deny at a.pool \"x\"",
     {"3:9: no operator `/` for `int` and `bytes`"}},
    {"  where 40TB / 5GB/s > 1\n  deny \"x\"", {"2:9: cannot order `duration` and `int` with `>`"}},
    {"  for a in plan.allocations\n  where a.gpus < 2027-01-01\n  deny at a.pool \"x\"",
     {"3:9: cannot order `int` and `date` with `<`"}},
    {"  for a in plan.allocations\n  deny when a.gpus at a.pool \"x\"",
     {"3:13: `when` must be a bool, not `int`"}},
    {"  where plan.substitutes.exists(s, s.validation[quality] == failed && s.validation[\"x\"] == "
     "passed)\n  deny \"x\"",
     {"2:84: keys of `map<ValidationCheck, ValidationStatus>` are `ValidationCheck`, not "
      "`string`"}},
    {"  where inventory.pools.exists(p, p.accelerator == plan.allocations[0].pool)\n  deny \"x\"",
     {"2:35: `==` between `ref AcceleratorType` and `ref Pool` is always false"}},
    {"  where 7 % 2.5 > 1\n  deny \"x\"", {"2:9: no operator `%` for `int` and `double`"}},
    {"  where int(plan.metadata) > 1\n  deny \"x\"", {"2:9: `int` cannot convert `Metadata`"}},
    {"  where [1 if 2].size() > 0\n  deny \"x\"",
     {"2:15: the condition of a list element must be a bool, not `int`"}},
    {"  for a in plan.allocations\n  where [a.gpus if true, a.pool if false].size() > 0\n  deny at "
     "a.pool \"x\"",
     {"3:26: list elements of different types: `int` and `ref Pool`"}},
    {"  for a in plan.allocations\n  where [a.max_hold if has(a.queue_position)].size() > 0\n  "
     "deny at a.pool \"x\"",
     {"3:10: `a.max_hold` is optional and may be absent"}},
    {"  for a in plan.allocations\n  where a.?queue_position > 1\n  deny at a.pool \"x\"",
     {"3:9: `a.?queue_position` is `optional<int>` where a value is needed"}},
    {"  for a in plan.allocations\n  where a.?window.start > 2027-01-01\n  deny at a.pool \"x\"",
     {"3:9: `a.?window` is `optional<Window>` where a value is needed"}},
    {"  for a in plan.allocations\n  where a.?queue_position.orValue() > 1\n  deny at a.pool \"x\"",
     {"3:9: `orValue` takes 1 argument"}},
    {"  for a in plan.allocations\n  where a.gpus.orValue(1) > 1\n  deny at a.pool \"x\"",
     {"3:9: `orValue` needs an optional such as `a.?b`, not `int`"}},
    {"  for a in plan.allocations\n  where a.?queue_position.orValue(\"none\") == \"x\"\n  deny at "
     "a.pool \"x\"",
     {"3:9: the default of `orValue` is `string`, not `int`"}},
    {"  for a in plan.allocations\n  where a.?queue_postion.hasValue()\n  deny at a.pool \"x\"",
     {"3:9: no field `queue_postion` on `Allocation`"}},
    {"  for a in plan.allocations\n  where a.gpus.?x.hasValue()\n  deny at a.pool \"x\"",
     {"3:9: cannot read field `x` of `int`"}},
    {"  for a in plan.allocations\n  let q = a.?queue_position\n  deny at a.pool \"{q}\"",
     {"4:20: `q` is `optional<int>` where a value is needed"}},
    {"  for a in plan.allocations\n  where plan.allocations.exists(b, let a = b.gpus; a > 1)\n  "
     "deny at a.pool \"x\"",
     {"3:36: `a` is already bound in this rule"}},
    {"  for a in plan.allocations\n  where (let g = a.pool; g + 1) > 2\n  deny at a.pool \"x\"",
     {"3:26: no operator `+` for `ref Pool` and `int`"}},
    {"  for a in plan.allocations\n  where (let g = a.gpus; g) > 2 && g > 1\n  deny at a.pool "
     "\"x\"",
     {"3:36: unknown name `g`"}},  // bound in the let's body only
};

TEST_CASE("ill-typed rules are rejected with located messages", "[check]") {
  STATIC_REQUIRE(sizeof(kIllTyped) / sizeof(kIllTyped[0]) >= 40);
  for (const IllTyped& c : kIllTyped) {
    INFO(c.body);
    CHECK(ErrorsOfRule(c.body) == c.errors);
  }
}

TEST_CASE("well-typed rules check cleanly", "[check]") {
  const char* bodies[] = {
      "  for a in plan.allocations\n  let p = inventory.pools[a.pool]\n"
      "  where p.role == production_replacement && a.gpus > 4\n  deny at a.pool \"{a.id} on "
      "{p.id}\"",
      "  for d in plan.demands\n  where has(d.window) && has(d.window.end)\n"
      "  where d.window.end - d.window.start > 5d\n  deny at d.window.end \"{d.id}\"",
      "  for d in plan.demands\n  where !has(d.gpus) || d.gpus > 2\n  deny at d.slice "
      "\"{d.slice}\"",
      "  for d in plan.demands\n  where has(d.dataset) && has(d.requires) && "
      "has(d.requires.storage_read)\n"
      "  where d.dataset.size / d.requires.storage_read > 1d\n  deny at d.dataset.size \"slow\"",
      "  where sum(plan.allocations.map(a, a.gpus)) > 64 && 80GiB == 85899345920B\n  deny \"many\"",
      "  for s in plan.substitutes\n  where ValidationCheck.numerics in s.validation && "
      "s.validation[numerics] != passed\n"
      "  deny at s.candidate \"{s.candidate}\"",
      "  for d in plan.demands\n  where plan.demands.map(x, has(x.gpus), x.gpus).size() > 0\n  "
      "deny at d.id \"x\"",
      "  for a in plan.allocations\n  deny when a.gpus > 8 at a.gpus \"{a.evidence} "
      "{a.evidence.size()}\"",
      "  for a in plan.allocations\n  let m = [\"queue\" if !has(a.queue_position), "
      "string(a.max_hold) if has(a.max_hold)]\n"
      "  where size(m) > 0\n  deny at a.id \"{m.join(', ')}\"",
      "  for a in plan.allocations\n  where [a.gpus if a.gpus > 1, 2, a.queue_position if "
      "has(a.queue_position)].size() > 1\n"
      "  deny at a.id \"x\"",
      "  for a in plan.allocations\n  let q = a.?queue_position\n  where q.hasValue() && "
      "q.orValue(0) > 3\n"
      "  deny at a.id \"{q.orValue(0)}\"",
      "  for a in plan.allocations\n  where a.?window.?end.orValue(2027-01-01) > 2027-06-01\n  "
      "deny at a.id \"x\"",
      "  for a in plan.allocations\n  where (a.gpus > 1 ? a.?max_hold : a.?max_hold).orValue(1d) > "
      "2d\n  deny at a.id \"x\"",
      "  for d in plan.demands\n  where d.?requires.?memory.orValue(0B) > 80GiB\n  deny at d.id "
      "\"x\"",
      "  for s in plan.substitutes\n  where s.validation.?numerics.orValue(passed) != passed\n  "
      "deny at s.candidate \"x\"",
      "  for a in plan.allocations\n  where plan.allocations.exists(b, let d = "
      "plan.demands[b.demand]; d.slice == training)\n"
      "  deny at a.id \"x\"",
      // a let's variable is a fact where its value is one, so a finding may point at it
      "  for a in plan.allocations\n  deny at (let p = inventory.pools[a.pool]; p.role) \"x\"",
  };
  for (const char* body : bodies) {
    INFO(body);
    CHECK(ErrorsOfRule(body).empty());
  }
}

TEST_CASE("an optional used as a value names its type and how to unwrap it", "[check]") {
  auto c = CompilePolicy(
      "@id(\"T-1\") rule r {\n  for a in plan.allocations\n  where a.?queue_position > 1\n"
      "  deny at a.id \"x\"\n}\n");
  REQUIRE(c->diagnostics.items().size() == 1);
  const Diagnostic& d = c->diagnostics.items()[0];
  CHECK(d.message == "`a.?queue_position` is `optional<int>` where a value is needed");
  CHECK(d.help ==
        "unwrap it with `a.?queue_position.orValue(…)`, or test it with "
        "`a.?queue_position.hasValue()`");
}

TEST_CASE("names resolve to locals, params, roots and enum members", "[check]") {
  auto c = CompilePolicy(
      "@id(\"T-1\") rule r {\n"
      "  for a in plan.allocations\n"
      "  let p = inventory.pools[a.pool]\n"
      "  where p.role == production_replacement && a.gpus > limit\n"
      "  deny at a.pool \"{a.id}\"\n"
      "}\n"
      "param limit: int = 4\n");
  REQUIRE(c->ok);
  const Program& program = *c->engine.program();
  REQUIRE(program.rules.size() == 1);
  CHECK(program.rules[0].id == "T-1");
  CHECK(program.rules[0].slot_count == 2);
  CHECK(program.rules[0].cost == "O(|plan.allocations|)");
  CHECK(program.schema.Name(program.params.back().type) == "int");
}

TEST_CASE("unknown names are errors with did-you-mean", "[check]") {
  REQUIRE(ErrorsOfRule("  for alloc in plan.allocations\n"
                       "  where allco.gpus > 1 && p.role == production_replacment\n"
                       "  deny \"x\"") ==
          std::vector<std::string>{"3:9: unknown name `allco`", "3:27: unknown name `p`",
                                   "3:37: unknown name `production_replacment`"});
  auto c = CompilePolicy(
      "@id(\"T\") rule r {\n  where allco > 1 && production_replacment\n  deny \"x\"\n}\n");
  REQUIRE(c->diagnostics.size() == 2);
  CHECK(c->diagnostics[1].help == "did you mean `production_replacement`?");
}

TEST_CASE("a variable is visible only after its clause", "[check]") {
  CHECK(ErrorsOfRule("  let d = a.demand\n  for a in plan.allocations\n  deny \"x\"") ==
        std::vector<std::string>{"2:11: unknown name `a`"});
}

TEST_CASE("macro variables are scoped to the macro", "[check]") {
  CHECK(
      ErrorsOfRule("  where plan.allocations.exists(x, x.gpus > 1) && x.gpus > 0\n  deny \"x\"") ==
      std::vector<std::string>{"2:51: unknown name `x`"});
}

TEST_CASE("functions are checked by name and arity", "[check]") {
  auto errors = ErrorsOfRule(
      "  where size(plan.demands, 1) > 0 && plan.metadata.name.startWith(\"x\") && "
      "lenght(plan.demands) > 0\n"
      "  deny \"x\"");
  CHECK(errors == std::vector<std::string>{"2:9: `size` takes 1 argument",
                                           "2:38: unknown method `startWith`",
                                           "2:75: unknown function `lenght`"});
}

TEST_CASE("enum members: bare when unique, qualified always", "[check]") {
  auto c = CompilePolicy(
      "enum Light { red, amber, green }\n"
      "enum Flag { red, white }\n"
      "@id(\"T\") rule r {\n  where Light.red != Light.green && red == Flag.white\n  deny "
      "\"x\"\n}\n");
  CHECK(Lines(c->diagnostics) ==
        std::vector<std::string>{"4:37: `red` is a member of `Light` and `Flag`"});
  CHECK(c->diagnostics[0].help == "qualify it, as in `Light.red`");
}

TEST_CASE("params are scoped by package and imported", "[check]") {
  testing::Compiled c;
  testing::AddStdlib(&c.engine);
  c.engine.AddPolicy("a.cpl", "package team.a\nparam limit: int = 4\n");
  c.engine.AddPolicy(
      "b.cpl",
      "package team.b\n@id(\"B\") rule r { where size(plan.demands) > limit deny \"x\" }\n");
  c.engine.AddPolicy("c.cpl",
                     "package team.c\nimport team.a\nimport team.z\n"
                     "@id(\"C\") rule r { where size(plan.demands) > limit deny \"x\" }\n");
  c.ok = c.engine.Compile(&c.diagnostics);
  REQUIRE(Lines(c.diagnostics) ==
          std::vector<std::string>{"2:46: param `limit` is declared in package `team.a`",
                                   "3:8: no loaded policy file has `package team.z`"});
  CHECK(c.diagnostics[0].help == "add `import team.a` after the `package` line");
}

TEST_CASE("rule metadata is checked", "[check]") {
  auto c = CompilePolicy(
      "rule no_id { deny \"x\" }\n"
      "@id(\"T-1\") @severity(fatal) rule a { deny \"x\" }\n"
      "@id(\"T-1\") rule b { deny \"x\" }\n");
  REQUIRE(Lines(c->diagnostics) == std::vector<std::string>{"1:6: rule `no_id` has no `@id`",
                                                            "2:12: unknown severity `fatal`",
                                                            "3:17: rule id `T-1` is used twice"});
  CHECK(c->diagnostics[1].help == "use `error`, `warning` or `info`");
  REQUIRE(c->diagnostics[2].related.size() == 1);
  CHECK(c->diagnostics[2].related[0].loc.line == 2);
}

TEST_CASE("params: known types, typed constant defaults, no duplicates", "[check]") {
  auto c = CompilePolicy(
      "param a: Slise = exploration\n"
      "param b: int = plan.x\n"
      "param a: int = 1\n"
      "param c: set<Slice> = {exploration, \"training\"}\n"
      "param d: list<string> = [1, 2]\n");
  REQUIRE(Lines(c->diagnostics) ==
          std::vector<std::string>{
              "1:10: unknown type `Slise`",
              "2:16: a param default must be a constant, but `plan` is not",
              "2:16: no field `x` on `CapacityPlan`",
              "3:7: param `a` is declared twice in package ``",
              "4:37: set elements of different types: `Slice` and `string`",
              "5:25: param `d` is declared `list<string>` but its default is `list<int>`"});
  CHECK(c->diagnostics[0].help == "did you mean `Slice`?");
}

TEST_CASE("a param whose default cannot be evaluated does not compile", "[check]") {
  auto c = CompilePolicy("param a: int = 1 / 0\n");
  REQUIRE_FALSE(c->ok);
  CHECK(Lines(c->diagnostics) ==
        std::vector<std::string>{"1:16: param `a` has no value: division by zero"});
}

TEST_CASE("schema declarations are checked", "[check]") {
  auto c = CompilePolicy(
      "record R { id: string, n: int, n: int }\n"
      "record S { r: ref Nope, q: lst<int>, m: map<int, string>, o?: int = 1, d: int = 1 + 1 }\n"
      "record T { x: ref S }\n"
      "enum Slice { a }\n");
  CHECK(Lines(c->diagnostics) ==
        std::vector<std::string>{"1:32: field `n` is declared twice in `R`",
                                 "2:15: unknown type `Nope`", "2:28: unknown type `lst`",
                                 "2:45: map keys must be `string` or an enum, not `int`",
                                 "2:59: an optional field cannot also have a default",
                                 "2:81: a field default must be a literal, an enum member or `[]`",
                                 "3:15: `ref S` needs `S` to have a field `id: string`",
                                 "4:6: type `Slice` is declared twice"});
}

TEST_CASE("a range bounds a number with bounds of its type", "[check]") {
  auto c = CompilePolicy(
      "record R { a: int in 0.5.., b: double in 1.0..0.0, c: double in 0..1 = 2,\n"
      "  d: bytes in 1..2, e: int in \"a\"..3, f: list<int> in 0.., g: int in 3..3 = 3 }\n");
  CHECK(Lines(c->diagnostics) ==
        std::vector<std::string>{
            "1:22: range bound `0.5` is not an `int`",
            "1:39: the range `1.0..0.0` is empty: its low bound is above its high one",
            "1:72: the default of `c` is outside its range `0.0..1.0`",
            "2:12: a range bounds a number, and `d` is a `bytes`",
            "2:31: range bound `\"a\"` is not an `int`",
            "2:52: a range bounds a number, and `f` is a `list<int>`"});
  // An int bound of a double field is widened; the range reaches the schema.
  auto ok = CompilePolicy("record R { a?: double in 0..1, b: int in ..-1 }\n");
  REQUIRE(ok->ok);
  const RecordDef& r =
      ok->engine.program()->schema.records[ok->engine.program()->schema.record_by_name.at("R")];
  CHECK(r.Find("a")->range.low.is(ValueKind::kDouble));
  CHECK(r.Find("a")->range.Text() == "0.0..1.0");
  CHECK(r.Find("b")->range.Text() == "..-1");
  CHECK_FALSE(r.Find("b")->range.Holds(Value::Int(0)));
}

TEST_CASE("cost bounds multiply loops and macro nests", "[check]") {
  auto c = CompilePolicy(
      "@id(\"A\") rule a {\n  for a in plan.allocations\n  for p in inventory.pools\n"
      "  where a.pool == p.id && a.evidence.exists(e, e == 'x')\n  deny at a.pool \"x\"\n}\n"
      "@id(\"B\") rule b {\n  where 1 > 0\n  deny \"x\"\n}\n");
  REQUIRE(c->ok);
  const auto& rules = c->engine.program()->rules;
  CHECK(rules[0].cost == "O(|plan.allocations| · |inventory.pools| · |a.evidence|)");
  CHECK(rules[1].cost == "O(1)");
}

TEST_CASE("the shipped pack type-checks", "[check]") {
  testing::Compiled c;
  testing::AddStdlib(&c.engine);
  testing::AddPolicyDir("policies/capops-ai", &c.engine);
  CHECK(c.engine.Compile(&c.diagnostics));
  CHECK(Lines(c.diagnostics).empty());
}

TEST_CASE("functions are typed, package-scoped and cannot recurse", "[check]") {
  auto ok = CompilePolicy(
      "fn gpus_of(a: Allocation): int = a.gpus\n"
      "fn doubled(a: Allocation): int = gpus_of(a) * 2\n"
      "@id(\"F\") rule r {\n  for a in plan.allocations\n  where doubled(a) > 8\n  deny at a.gpus "
      "\"{a.id}\"\n}\n");
  CHECK(Lines(ok->diagnostics).empty());
  auto bad = CompilePolicy(
      "fn loop(n: int): int = loop(n - 1)\n"
      "fn first(n: int): int = second(n)\n"
      "fn second(n: int): int = n\n"
      "fn text(n: int): string = n + 1\n"
      "@id(\"F\") rule r {\n  where second(1, 2) > 0 && second('x') > 0\n  deny \"x\"\n}\n");
  CHECK(Lines(bad->diagnostics) ==
        std::vector<std::string>{
            "1:24: `loop` is called before it is declared",
            "2:25: `second` is called before it is declared",
            "4:27: function `text` is declared to return `string` but returns `int`",
            "6:9: `second` takes 1 argument",
            "6:36: argument `n` of `second` is `int`, not `string`"});
}

TEST_CASE("enum members are the YAML spelling", "[check]") {
  CHECK(EnumDef::FactSpelling("production_replacement") == "production-replacement");
  CHECK(EnumDef::FactSpelling("training") == "training");
}

}  // namespace
}  // namespace capops::check
