#include "engine/check/checker.h"

#include <catch2/catch.hpp>

#include "tests/support/fixture.h"

namespace capops::check {
namespace {

using testing::CompilePolicy;
using testing::Lines;

const char* kRuleHead = "@id(\"T-1\") rule r {\n";

TEST_CASE("names resolve to locals, params, roots and enum members", "[check]") {
  auto c = CompilePolicy(std::string(kRuleHead) +
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
  CHECK(program.params.size() == 1);
}

TEST_CASE("unknown names are errors with did-you-mean", "[check]") {
  auto c = CompilePolicy(std::string(kRuleHead) +
                         "  for alloc in plan.allocations\n"
                         "  where allco.gpus > 1 && p.role == production_replacment\n"
                         "  deny \"x\"\n"
                         "}\n");
  REQUIRE_FALSE(c->ok);
  REQUIRE(Lines(c->diagnostics) == std::vector<std::string>{"3:9: unknown name `allco`",
                                                            "3:27: unknown name `p`",
                                                            "3:37: unknown name `production_replacment`"});
  CHECK(c->diagnostics[0].help == "did you mean `alloc`?");
  CHECK(c->diagnostics[2].help == "did you mean `production_replacement`?");
}

TEST_CASE("a variable is visible only after its clause", "[check]") {
  auto c = CompilePolicy(std::string(kRuleHead) +
                         "  let d = a.demand\n"
                         "  for a in plan.allocations\n"
                         "  deny \"x\"\n"
                         "}\n");
  REQUIRE(Lines(c->diagnostics) == std::vector<std::string>{"2:11: unknown name `a`"});
}

TEST_CASE("macro variables are scoped to the macro", "[check]") {
  auto c = CompilePolicy(std::string(kRuleHead) +
                         "  where plan.allocations.exists(x, x.gpus > 1) && x.gpus > 0\n"
                         "  deny \"x\"\n"
                         "}\n");
  REQUIRE(Lines(c->diagnostics) == std::vector<std::string>{"2:51: unknown name `x`"});
}

TEST_CASE("functions are checked by name and arity", "[check]") {
  auto c = CompilePolicy(std::string(kRuleHead) +
                         "  where size(plan.a, 1) > 0 && plan.b.startWith(\"x\") && lenght(plan.c) > 0\n"
                         "  deny \"x\"\n"
                         "}\n");
  REQUIRE(Lines(c->diagnostics) == std::vector<std::string>{"2:9: `size` takes 1 argument",
                                                            "2:32: unknown method `startWith`",
                                                            "2:57: unknown function `lenght`"});
  CHECK(c->diagnostics[1].help == "did you mean `startsWith`?");
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

TEST_CASE("params: known types, constant defaults, no duplicates", "[check]") {
  auto c = CompilePolicy(
      "param a: Slise = exploration\n"
      "param b: int = plan.x\n"
      "param a: int = 1\n");
  REQUIRE(Lines(c->diagnostics) == std::vector<std::string>{
                                       "1:10: unknown type `Slise`",
                                       "2:16: a param default must be a constant, but `plan` is not",
                                       "3:7: param `a` is declared twice"});
  CHECK(c->diagnostics[0].help == "did you mean `Slice`?");
}

TEST_CASE("a param whose default cannot be evaluated does not compile", "[check]") {
  auto c = CompilePolicy("param a: int = 1 / 0\n");
  REQUIRE_FALSE(c->ok);
  CHECK(Lines(c->diagnostics) == std::vector<std::string>{"1:16: param `a` has no value: division by zero"});
}

TEST_CASE("enum members are the YAML spelling", "[check]") {
  CHECK(EnumMemberValue("production_replacement") == "production-replacement");
  CHECK(EnumMemberValue("training") == "training");
}

}  // namespace
}  // namespace capops::check
