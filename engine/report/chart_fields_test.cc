// SPDX-License-Identifier: Apache-2.0
// The capacity charts' view of the fact schema (chart_fields.h) held against
// the shipped schema: a field the charts read that the schema renames,
// removes or retypes fails here rather than emptying a chart.
#include "engine/report/chart_fields.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/fixture.h"

namespace capops {
namespace {

using report::ChartField;
using report::CheckChartView;
using report::SchemaField;
using report::SchemaMember;
using testing::ReadSourceFile;
using Lines = std::vector<std::string>;

// The schema of the shipped stdlib, with `schema.cpl` as given.
std::unique_ptr<Engine> Compiled(const std::string& schema_cpl) {
  auto engine = std::make_unique<Engine>();
  engine->AddPolicy("stdlib/capops.cpl", ReadSourceFile("stdlib/capops.cpl"));
  engine->AddPolicy("stdlib/schema.cpl", schema_cpl);
  Diagnostics diagnostics;
  REQUIRE(engine->Compile(&diagnostics));
  return engine;
}

TEST_CASE("the capacity charts read only what the shipped schema declares", "[report]") {
  Engine engine;
  testing::AddStdlib(&engine);
  Diagnostics diagnostics;
  REQUIRE(engine.Compile(&diagnostics));
  CHECK(CheckChartView(engine.program()->schema) == Lines{});
}

TEST_CASE("a wrong view of the schema is reported entry by entry", "[report]") {
  std::unique_ptr<Engine> engine = Compiled(ReadSourceFile("stdlib/schema.cpl"));
  std::vector<SchemaField> fields(std::begin(report::kChartFields), std::end(report::kChartFields));
  std::vector<SchemaMember> members(std::begin(report::kChartMembers),
                                    std::end(report::kChartMembers));
  fields[static_cast<size_t>(ChartField::kPoolGpusPerHost)].name = "gpu_per_host";
  fields[static_cast<size_t>(ChartField::kDemandFloor)].type = "double";
  fields[static_cast<size_t>(ChartField::kGroupSizeGpus)].record = "Group";
  members[static_cast<size_t>(report::ChartMember::kSliceTraining)].spelling = "train";
  CHECK(CheckChartView(engine->program()->schema, fields, members) ==
        Lines{"Pool.gpu_per_host: no such field in the schema",
              "Demand.floor: of type `int` in the schema, not `double`",
              "Group.gpus: no record `Group` in the schema",
              "Slice.train: no such member in the schema"});
}

TEST_CASE("a field the schema renames fails the check", "[report]") {
  std::string schema = ReadSourceFile("stdlib/schema.cpl");
  const std::string floor = "  floor?: int";
  REQUIRE(schema.find(floor) != std::string::npos);
  REQUIRE(schema.find(floor) == schema.rfind(floor));
  schema.replace(schema.find(floor), floor.size(), "  floor_gpus?: int");
  std::unique_ptr<Engine> engine = Compiled(schema);
  CHECK(CheckChartView(engine->program()->schema) ==
        Lines{"Demand.floor: no such field in the schema"});
}

}  // namespace
}  // namespace capops
