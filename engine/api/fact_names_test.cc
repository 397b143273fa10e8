// SPDX-License-Identifier: Apache-2.0
// A finding's labels name the facts as a planner writes them (the record,
// its id, the field), never the rule's variables.
#include "engine/api/fact_names.h"

#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/fixture.h"

namespace capops {
namespace {

using testing::CompilePolicy;

const char* kPolicy = R"(@id("T-NEST") rule nest {
  for d in plan.demands
  where has(d.checkpoint) && d.checkpoint.restore_tested == false
  deny at d.id "{d.id}"
}
@id("T-POOL") rule pool {
  for a in plan.allocations
  let p = inventory.pools[a.pool]
  where p.role == production
  deny at a.pool "{a.id}"
}
@id("T-SUB") rule sub {
  for s in plan.substitutes
  where s.candidate == "a100"
  deny at s.replaces "{s.replaces}"
}
@id("T-START") rule start {
  for d in plan.demands
  where d.id == "none" && plan.metadata.owner != d.id
  deny at d.id "early"
}
)";

const char* kInventory = R"(apiVersion: capops.dev/v1
kind: Inventory
accelerator_types:
  - {id: h100, model: H100, memory: 80GiB, interconnect: nvlink}
  - {id: a100, model: A100, memory: 80GiB, interconnect: nvlink}
pools:
  - &base {id: p1, accelerator: h100, hosts: 1, gpus_per_host: 8, region: eu, role: &prod production}
  - {<<: *base, id: p2}
  - {id: p3, accelerator: h100, hosts: 1, gpus_per_host: 8, region: eu, role: *prod}
  - {id: p4, accelerator: h100, hosts: 1, gpus_per_host: 8, region: eu, role: research}
supply: []
)";

const char* kPlan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
metadata: {name: t, owner: o, period: {start: 2027-04-01, end: 2027-07-01}}
demands:
  - {id: given, slice: training, gpus: 8, checkpoint: {stoppable: true, restore_tested: false}}
  - {id: absent, slice: training, gpus: 8, checkpoint: {stoppable: true}}
  - {id: none, slice: training, gpus: 8}
allocations:
  - {id: on-p1, demand: none, pool: p1, gpus: 1}
  - {id: on-p2, demand: none, pool: p2, gpus: 1}
  - {id: on-p3, demand: none, pool: p3, gpus: 1}
  - {id: on-p4, demand: none, pool: p4, gpus: 1}
substitutes:
  - {replaces: h100, candidate: a100}
)";

// "line: label" of each finding of `rule`, in report order.
std::vector<std::string> LabelsOf(const eval::LintReport& report, const std::string& rule) {
  std::vector<std::string> out;
  for (const eval::Violation& v : report.violations) {
    if (v.rule_id != rule) continue;
    for (const eval::Label& l : v.labels)
      out.push_back(std::to_string(l.loc.line) + ": " + l.message);
  }
  return out;
}

TEST_CASE("labels name the record, its id and the field path", "[api][labels]") {
  auto c = CompilePolicy(kPolicy);
  REQUIRE(testing::Lines(c->diagnostics) == std::vector<std::string>{});
  eval::LintReport r = testing::LintText(*c, kPlan, kInventory);
  REQUIRE(testing::Lines(r.errors) == std::vector<std::string>{});
  // A nested field, written and absent (the schema's default filled in
  // where the map is).
  CHECK(LabelsOf(r, "T-NEST") ==
        std::vector<std::string>{
            "5: demand `given`: `checkpoint.restore_tested` is false",
            "6: demand `absent`: `checkpoint.restore_tested` is not set (false)"});
  // Inventory records. p2 has p1's `role` by `<<`: the same text, named
  // after the pool the rule was at. p3's is an alias of p1's, located where used.
  CHECK(LabelsOf(r, "T-POOL") ==
        std::vector<std::string>{"7: pool `p1`: `role` is \"production\"",
                                 "7: pool `p2`: `role` is \"production\"",
                                 "9: pool `p3`: `role` is \"production\""});
  // A list item without an id, and a value outside any record with one:
  // their path in the document.
  CHECK(LabelsOf(r, "T-SUB") ==
        std::vector<std::string>{"14: `substitutes[0].candidate` is \"a100\""});
  CHECK(LabelsOf(r, "T-START") == std::vector<std::string>{"3: `metadata.owner` is \"o\""});
}

TEST_CASE("labels name the records of a second document in the file", "[api][labels]") {
  auto c = CompilePolicy(kPolicy);
  REQUIRE(c->ok);
  std::string both = std::string(kPlan) + "---\n" + kInventory;
  eval::LintReport r = c->engine.Lint({{"plan.yaml", both}}, {});
  REQUIRE(testing::Lines(r.errors) == std::vector<std::string>{});
  // The inventory starts on line 16 of the file.
  CHECK(LabelsOf(r, "T-POOL") ==
        std::vector<std::string>{"22: pool `p1`: `role` is \"production\"",
                                 "22: pool `p2`: `role` is \"production\"",
                                 "24: pool `p3`: `role` is \"production\""});
}

TEST_CASE("a place no document has keeps no name", "[api][labels]") {
  FactNames names(TypeTable(), {}, {{FileId(0), 1u, 1u}});
  CHECK(names.size() == 0);
  CHECK(names.Find(SourceLoc{0, 1, 1}, "role", {}) == nullptr);
}

TEST_CASE("record types read as words", "[api][labels]") {
  CHECK(RecordWords("Pool") == "pool");
  CHECK(RecordWords("ManagedService") == "managed service");
  CHECK(RecordWords("AcceleratorType") == "accelerator type");
  CHECK(RecordWords("GPUPool") == "gpu pool");
  CHECK(RecordWords("") == "");
}

// Every label of the shipped example and of the pack's fixtures names a
// record and a field, or a path in the document; none names a variable
// the rule bound.
TEST_CASE("labels of the example and the fixtures speak the facts' words", "[api][labels]") {
  testing::Compiled pack;
  testing::AddStdlib(&pack.engine);
  testing::AddPolicyDir("policies/capops-ai", &pack.engine);
  REQUIRE(pack.engine.Compile(&pack.diagnostics));
  const std::regex named(
      R"(([a-z]+( [a-z]+)* `[^`]+`: )?`[a-z][a-z_0-9]*(\[[^\]]+\]|\.[a-z][a-z_0-9]*)*` is .+)");
  const std::regex aliased(R"(`&[^`]+` is defined here|merged in here( from `&[^`]+`)?)");
  size_t labels = 0, records = 0;
  auto check = [&](const eval::LintReport& report) {
    for (const eval::Violation& v : report.violations) {
      // Each binding to the facts says what it is bound to, in the facts'
      // words, never the rule's (SARIF relates them so).
      for (const eval::Evidence& e : v.evidence) {
        if (e.at_fact || !e.loc.valid()) continue;
        INFO(v.rule_id << ": " << e.name << " = " << e.value << " shown as " << e.shown);
        ++records;
        CHECK(!e.shown.empty());
        CHECK(e.shown.find("`" + e.name + "`") == std::string::npos);
        CHECK(e.shown.find(e.name + " = ") == std::string::npos);
        bool record =
            e.shown == "allocation `" + e.value + "`" || e.shown == "demand `" + e.value + "`" ||
            e.shown == "pool `" + e.value + "`" || e.shown == "supply `" + e.value + "`" ||
            e.shown == "accelerator type `" + e.value + "`";
        bool value =
            std::regex_match(e.shown, named) ||
            std::regex_match(e.shown, std::regex(R"(([a-z]+( [a-z]+)* `[^`]+`: )?`[^`]+`)"));
        CHECK((record || value));
      }
      for (const eval::Label& l : v.labels) {
        INFO(v.rule_id << ": " << l.message);
        ++labels;
        CHECK((std::regex_match(l.message, named) || std::regex_match(l.message, aliased)));
        for (const eval::Evidence& e : v.evidence) {
          CHECK(l.message.find("`" + e.name + ".") == std::string::npos);
          CHECK(l.message.find("`" + e.name + "`") == std::string::npos);
        }
      }
    }
  };
  const std::string example = "examples/visual-inspection/";
  check(
      pack.engine.Lint({{"plan.yaml", testing::ReadSourceFile(example + "plan.yaml")}},
                       {{"inventory.yaml", testing::ReadSourceFile(example + "inventory.yaml")}}));
  for (const char* fixture :
       {"CAP-ALC-001/fires.yaml", "CAP-ALC-006/fires.yaml", "CAP-SUP-001/fires.yaml",
        "CAP-ALC-010/fires.yaml", "CAP-DEM-003/fires.yaml", "CAP-GOV-002/fires.yaml"}) {
    std::string path = std::string("policies/capops-ai/fixtures/") + fixture;
    check(pack.engine.Lint({{path, testing::ReadSourceFile(path)}}, {}));
  }
  CHECK(labels >= 8);
  CHECK(records >= 8);
}

}  // namespace
}  // namespace capops
