// SPDX-License-Identifier: Apache-2.0
// Every field of the shipped fact schema says what it means to the capacity
// planner who writes it, and that text reaches each place a planner reads
// it: the editor's hover, `capops-lint doc` and the JSON Schema.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/check/schema_decls.h"
#include "engine/lsp/fact_help.h"
#include "engine/report/json_schema.h"
#include "tests/support/fixture.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::testing {
namespace {

using Json = nlohmann::json;

std::shared_ptr<const Engine> Stdlib() {
  auto engine = std::make_shared<Engine>();
  AddStdlib(engine.get());
  Diagnostics problems;
  REQUIRE(engine->Compile(&problems));
  return engine;
}

TEST_CASE("every field and record of the fact schema has a description", "[schema][check]") {
  std::shared_ptr<const Engine> engine = Stdlib();
  check::SchemaDecls decls(*engine->program());
  size_t fields = 0;
  for (const check::SchemaDecls::Declared& r : decls.records()) {
    INFO("record `" << r.decl->name << "`");
    CHECK_FALSE(r.decl->doc.empty());
    for (const syntax::FieldDecl& f : r.decl->fields) {
      INFO("field `" << r.decl->name << "." << f.name << "` has no `///` description");
      CHECK(f.doc.size() >= 10);
      ++fields;
    }
  }
  CHECK(fields >= 140);  // the whole schema was walked

  // In the JSON Schema, as text and as Markdown, on every property.
  Json schema = Json::parse(report::FactJsonSchema(*engine));
  for (const auto& [record, def] : schema["$defs"].items()) {
    for (const auto& [field, property] : def["properties"].items()) {
      if (field == "apiVersion" || field == "kind") continue;
      INFO(record << "." << field);
      REQUIRE(property.contains("description"));
      CHECK(property["markdownDescription"] == property["description"]);
    }
  }
  CHECK(
      schema["$defs"]["Decision"]["properties"]["trade_off"]["description"].get<std::string>().find(
          "What is given up for what is gained") != std::string::npos);
}

TEST_CASE("a field's description shows in hover and in `capops-lint doc`", "[schema][lsp]") {
  std::shared_ptr<const Engine> engine = Stdlib();
  lsp::FactHelp help(engine, {});
  TextFile plan{"/plan.yaml",
                "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndecision:\n"
                "  residual_risk: Training may finish late\n"};
  Json hover = help.Hover(plan, {}, 4, 4);
  REQUIRE(hover.is_object());
  std::string text = hover["contents"]["value"];
  INFO(text);
  CHECK(text.find("The risk accepted that the plan does not remove") != std::string::npos);

  TempDir dir("capops-schema-docs");
  CliResult r = RunCli({"doc", "-o", dir.Path("doc")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::string md = dir.Read("doc/schema.md");
  CHECK(md.find("The risk accepted that the plan does not remove") != std::string::npos);
  CHECK(md.find("What is given up for what is gained") != std::string::npos);
}

}  // namespace
}  // namespace capops::testing
