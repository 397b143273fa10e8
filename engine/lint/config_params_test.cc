// SPDX-License-Identifier: Apache-2.0
// Params set by a config: by qualified name, by package and for one rule;
// their errors, located in the config; per-rule values read by that rule
// alone (and the functions it calls); the provenance findings name; the
// digest. A tiny pack: two rules read `max_gpus`, one through a function.
#include "engine/lint/config_params.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/report/report.h"
#include "engine/workspace/config_file.h"
#include "tests/support/fixture.h"

namespace capops::lint {
namespace {

using testing::Compiled;
using testing::CompilePolicy;

const char* kPack = R"(package team.gpu

param max_gpus: int = 8
param min_gpus: int = 1
param lead: duration = 2d

fn too_big(n: int): bool = n > max_gpus

@id("T-BIG") rule big {
  for a in plan.allocations
  where a.gpus > max_gpus
  deny at a.gpus "`{a.id}` takes {a.gpus} GPUs"
}

@id("T-FN") rule big_by_fn {
  for a in plan.allocations
  where too_big(a.gpus)
  deny at a.gpus "`{a.id}` is big"
}

@id("T-SMALL") rule small {
  for a in plan.allocations
  where a.gpus < min_gpus
  deny at a.gpus "`{a.id}` is small"
}
)";

const char* kPlan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
allocations:
  - {id: a1, gpus: 2}
  - {id: a2, gpus: 16}
  - {id: a3, gpus: 4}
)";

const char* kInventory = "apiVersion: capops.dev/v1\nkind: Inventory\n";

std::unique_ptr<Compiled> Pack() {
  auto c = CompilePolicy(kPack, false);
  REQUIRE(testing::Lines(c->diagnostics) == std::vector<std::string>{});
  return c;
}

// The config text applied to `c`'s engine: "line:col: message | help" per problem.
std::vector<std::string> Apply(Compiled* c, SourceManager* sources, const std::string& text) {
  FileId f = sources->Add("cfg/.capops.yaml", text);
  workspace::ConfigResult r =
      workspace::ParseConfig(workspace::MemoryFileSystem(), *sources, f, {});
  Diagnostics problems = r.diagnostics;
  if (!problems.HasErrors()) ApplyConfigParams(r.config, &c->engine, &problems);
  problems.Sort();
  std::vector<std::string> out;
  for (const Diagnostic& d : problems.items()) {
    out.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " +
                  d.message + (d.help.empty() ? "" : " | " + d.help));
  }
  return out;
}

// "RULE allocation" per finding, in report order.
std::vector<std::string> Fired(Compiled* c) {
  std::vector<std::string> out;
  for (const eval::Violation& v : testing::LintText(*c, kPlan, kInventory).violations)
    out.push_back(v.rule_id + " " + v.message.substr(1, v.message.find('`', 1) - 1));
  return out;
}

TEST_CASE("params: a rule reads the params of the functions it calls", "[lint][params]") {
  auto c = Pack();
  const check::Program& program = *c->engine.program();
  auto names = [&](const std::string& id) {
    std::vector<std::string> out;
    for (const check::RuleInfo& r : program.rules) {
      if (r.id != id) continue;
      for (uint32_t p : r.params) out.push_back(program.params[p].decl->name);
    }
    return out;
  };
  CHECK(names("T-BIG") == std::vector<std::string>{"max_gpus"});
  CHECK(names("T-FN") == std::vector<std::string>{"max_gpus"});
  CHECK(names("T-SMALL") == std::vector<std::string>{"min_gpus"});
}

TEST_CASE("params: the three config forms", "[lint][params]") {
  SourceManager sources;
  SECTION("by qualified name, for every rule that reads it") {
    auto c = Pack();
    REQUIRE(Apply(c.get(), &sources, "params:\n  team.gpu.max_gpus: 3\n").empty());
    CHECK(Fired(c.get()) == std::vector<std::string>{"T-BIG a2", "T-FN a2", "T-BIG a3", "T-FN a3"});
  }
  SECTION("by package") {
    auto c = Pack();
    REQUIRE(Apply(c.get(), &sources, "params:\n  team.gpu:\n    max_gpus: 3\n    min_gpus: 3\n")
                .empty());
    CHECK(Fired(c.get()) ==
          std::vector<std::string>{"T-SMALL a1", "T-BIG a2", "T-FN a2", "T-BIG a3", "T-FN a3"});
    CHECK(*c->engine.Param("team.gpu.min_gpus") == Value::Int(3));
  }
  SECTION("for one rule: only that rule's findings change") {
    auto c = Pack();
    CHECK(Fired(c.get()) == std::vector<std::string>{"T-BIG a2", "T-FN a2"});
    REQUIRE(Apply(c.get(), &sources, "rules:\n  params:\n    T-BIG: {max_gpus: 3}\n").empty());
    CHECK(Fired(c.get()) == std::vector<std::string>{"T-BIG a2", "T-FN a2", "T-BIG a3"});
    CHECK(*c->engine.Param("max_gpus") == Value::Int(8));  // the package's value stands
  }
  SECTION("for one rule, read through the function it calls") {
    auto c = Pack();
    REQUIRE(
        Apply(c.get(), &sources, "rules:\n  params:\n    T-FN: {team.gpu.max_gpus: 20}\n").empty());
    CHECK(Fired(c.get()) == std::vector<std::string>{"T-BIG a2"});
  }
  SECTION("a rule's value wins over the package's, whatever the order") {
    auto c = Pack();
    REQUIRE(Apply(c.get(), &sources,
                  "rules:\n  params:\n    T-BIG: {max_gpus: 20}\nparams:\n  max_gpus: 3\n")
                .empty());
    CHECK(Fired(c.get()) == std::vector<std::string>{"T-FN a2", "T-FN a3"});
  }
}

TEST_CASE("params: config mistakes are located errors", "[lint][params]") {
  SourceManager sources;
  auto c = Pack();
  CHECK(Apply(c.get(), &sources,
              "params:\n"
              "  team.gp: {max_gpus: 3}\n"
              "  team.gpu: {max_gpu: 3}\n"
              "  team.gpu.lead: 5\n"
              "  team.gpu.min_gpus: 12GB\n"
              "rules:\n"
              "  params:\n"
              "    T-BIGG: {max_gpus: 3}\n"
              "    T-SMALL: {max_gpus: 3}\n"
              "    T-BIG: {lead: 1d, max_gpu: 2}\n") ==
        std::vector<std::string>{
            "2:12: unknown package `team.gp` | did you mean `team.gpu`?",
            "3:23: unknown param `team.gpu.max_gpu` | did you mean `team.gpu.max_gpus`?",
            "4:18: expected a duration such as `8h` or `5d`, got `5` | add a unit (w, d, h, m, "
            "s), e.g. `5h` or `5d`",
            "5:22: expected an integer, got `12GB` | param `min_gpus` is declared `int`",
            "8:24: unknown rule `T-BIGG` | did you mean `T-BIG`?",
            "9:25: `T-SMALL` does not read `max_gpus` | it reads `min_gpus`",
            "10:19: `T-BIG` does not read `lead` | it reads `max_gpus`",
            "10:32: unknown param `max_gpu` | did you mean `max_gpus`?"});
  SourceManager more;
  CHECK(Apply(c.get(), &more, "rules:\n  params:\n    T-BIG: 3\n") ==
        std::vector<std::string>{
            "3:12: params of `T-BIG` must be a map of param names to values, not `3` | e.g. "
            "`T-BIG: {max_memory_pressure: 0.95}`"});
}

TEST_CASE("params: findings name the params they rest on and where each was set",
          "[lint][params]") {
  SourceManager sources;
  auto c = Pack();
  REQUIRE(Apply(c.get(), &sources,
                "params:\n  team.gpu.min_gpus: 0\nrules:\n  params:\n    T-BIG: {max_gpus: 3}\n")
              .empty());
  eval::LintReport r = testing::LintText(*c, kPlan, kInventory);
  std::map<std::string, std::string> named;  // rule → its first finding's params
  for (const eval::Violation& v : r.violations) {
    std::string text;
    if (v.params) {
      for (const eval::ParamUse& p : *v.params) text += report::ParamText(p) + "; ";
    }
    named.emplace(v.rule_id, text);
  }
  CHECK(named["T-BIG"] == "max_gpus = 3 (cfg/.capops.yaml:5, for T-BIG); ");
  CHECK(named["T-FN"] == "max_gpus = 8 (pack default, test.cpl:3); ");
  std::ostringstream text;
  report::WriteText(c->engine.sources(), r, {}, text);
  CHECK(text.str().find("\n  = param: max_gpus = 3 (cfg/.capops.yaml:5, for T-BIG)\n") !=
        std::string::npos);
  std::ostringstream json;
  report::WriteJson(c->engine.sources(), r, "0", json);
  nlohmann::json params = nlohmann::json::parse(json.str())["violations"][0]["params"];
  CHECK(params == nlohmann::json::parse(R"([{"name": "team.gpu.max_gpus", "value": 3,
                                             "set_at": "cfg/.capops.yaml:5, for T-BIG"}])"));
  // Set for the whole package: the config's line alone.
  const ParamSetting& min = c->engine.param_settings()[1];
  CHECK(min.source.Text() == "cfg/.capops.yaml:2");
  CHECK(c->engine.param_settings()[0].source.Text() == "pack default, test.cpl:3");
}

TEST_CASE("params: the digest follows values set for one rule", "[lint][params]") {
  auto digest_with = [](const std::string& config) {
    SourceManager sources;
    auto c = Pack();
    REQUIRE(Apply(c.get(), &sources, config).empty());
    return c->engine.ruleset_digest();
  };
  std::string none = digest_with("{}\n");
  std::string three = digest_with("rules:\n  params:\n    T-BIG: {max_gpus: 3}\n");
  std::string four = digest_with("rules:\n  params:\n    T-BIG: {max_gpus: 4}\n");
  std::string other_rule = digest_with("rules:\n  params:\n    T-FN: {max_gpus: 3}\n");
  CHECK(three != none);
  CHECK(three != four);
  CHECK(three != other_rule);
  CHECK(three == digest_with("rules:\n  params:\n    T-BIG: {team.gpu.max_gpus: 3}\n"));
}

}  // namespace
}  // namespace capops::lint
