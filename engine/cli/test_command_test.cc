// SPDX-License-Identifier: Apache-2.0
// The test and rules commands, run in-process: the shipped pack's CPL tests,
// a deliberately failing test and its diff, coverage of a known untested
// clause, and the ruleset digest under layout and semantic edits.
#include "engine/cli/test_command.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "engine/cli/doc_command.h"
#include "engine/cli/driver.h"
#include "engine/cli/rules_command.h"
#include "tests/support/fixture.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::cli {
namespace {

namespace fs = std::filesystem;

const fs::path kPack = fs::path(capops::testing::SourceDir()) / "policies" / "capops-ai";

// A scratch directory holding the given files, removed at the end.
struct TempPack : testing::TempDir {
  explicit TempPack(const std::vector<std::pair<std::string, std::string>>& files)
      : TempDir("capops-pack") {
    for (const auto& [name, text] : files) Write(name, text);
  }
};

// What the first group of `pattern` matches, at each match in `text`.
std::set<std::string> Captures(const std::string& text, const std::string& pattern) {
  std::set<std::string> out;
  std::regex re(pattern);
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
    out.insert((*it)[1]);
  return out;
}

// How many times `what` occurs in `text`, overlaps included.
size_t Occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("the shipped pack passes its CPL tests with full rule coverage", "[cli][test]") {
  TestOptions options;
  options.policies = {kPack.string()};
  options.coverage = true;
  options.min_coverage = 90;
  std::ostringstream out, err;
  CHECK(RunTest(options, out, err) == kExitClean);
  INFO(out.str() << err.str());
  CHECK(out.str().find("FAIL") == std::string::npos);
  // Every rule of the pack fired in one test and stayed quiet in another: a
  // new rule needs its tests in a `*_test.cpl` file.
  CHECK(std::regex_search(out.str(), std::regex("\nrules: (\\d+)/\\1 \\(100.0%\\)")));
  CHECK(std::regex_search(out.str(), std::regex("\n(\\d+) tests: \\1 passed, 0 failed\n")));
}

TEST_CASE("a copy of the pack passes all its tests, run from another directory", "[cli][test]") {
  testing::TempDir temp("capops-pack-copy");
  fs::copy(kPack, temp.dir() / "copy", fs::copy_options::recursive);
  fs::create_directories(temp.dir() / "elsewhere");
  testing::InDir in(temp.dir() / "elsewhere");
  for (const std::string& pack : {std::string("../copy"), (temp.dir() / "copy").string()}) {
    testing::CliResult r = testing::RunCli({"test", pack});
    INFO(pack << "\n" << r.out << r.err);
    CHECK(r.exit_code == kExitClean);
    CHECK(r.err.empty());
    CHECK(r.out.find("cannot read") == std::string::npos);
    std::smatch counts;
    REQUIRE(std::regex_search(r.out, counts, std::regex("\n(\\d+) tests: \\1 passed, 0 failed\n")));
    CHECK(std::stoi(counts[1]) > 100);
  }
}

TEST_CASE("a coverage minimum alone counts coverage before judging it", "[cli][test]") {
  TestOptions options;
  options.policies = {kPack.string()};
  options.min_coverage = 50;  // the pack's conditions are well above; uncounted they would read 0%
  std::ostringstream out, err;
  CHECK(RunTest(options, out, err) == kExitClean);
  INFO(out.str() << err.str());
  CHECK(out.str().find("below --min-coverage") == std::string::npos);
  CHECK(out.str().find("conditions (where/when): 0/") == std::string::npos);
}

const char* kRule = R"(package t
@id("T-001") @severity(error)
rule big_allocation {
  for a in plan.allocations
  where a.gpus > 1
  where a.gpus < 1000
  deny at a.gpus "allocation `{a.id}` takes {a.gpus} GPUs"
  warn when a.gpus > 100 at a.gpus "allocation `{a.id}` is huge"
}
)";

const char* kFacts = R"(apiVersion: capops.dev/v1
kind: Inventory
accelerator_types:
  - {id: l4-24, model: L4, memory: 24GiB, interconnect: pcie4}
pools:
  - {id: p, accelerator: l4-24, hosts: 1, gpus_per_host: 4, region: eu-west, role: research}
supply: []
---
apiVersion: capops.dev/v1
kind: CapacityPlan
metadata: {name: t, owner: o}
demands:
  - {id: explore, slice: exploration, gpus: 2}
allocations:
  - {id: a-one, demand: explore, pool: p, gpus: 1}
  - {id: a-two, demand: explore, pool: p, gpus: 2}
)";

TEST_CASE("a failing CPL test prints a diff and fails the run", "[cli][test]") {
  TempPack pack({{"rules.cpl", kRule}, {"facts.yaml", kFacts}, {"rules_test.cpl", R"(test "passes" {
  facts "facts.yaml"
  expect T-001 at "allocations[a-two].gpus" count 1 message "takes 2 GPUs"
  expect_none T-001 at "allocations[a-one].gpus"
}
test "fails" {
  facts "facts.yaml"
  expect T-001 at "allocations[a-one].gpus"
  expect T-01 count 1
}
)"}});
  TestOptions options;
  options.policies = {pack.dir().string()};
  options.coverage = true;
  std::ostringstream out, err;
  CHECK(RunTest(options, out, err) == kExitFindings);
  std::string text =
      std::regex_replace(out.str(), std::regex(" \\([^)]*rules_test.cpl:"), " (rules_test.cpl:");
  INFO(text << err.str());
  CHECK(text.find("PASS passes  (rules_test.cpl:1:6)") != std::string::npos);
  CHECK(
      text.find("FAIL fails  (rules_test.cpl:6:6)\n"
                "  - expect T-001 at \"allocations[a-one].gpus\"  (found 0)\n"
                "  - expect T-01 count 1  (no rule `T-01` in the rule set; did you mean `T-001`?)\n"
                "  + T-001 at allocations[a-two].gpus: allocation `a-two` takes 2 GPUs\n") !=
      std::string::npos);
  // The second `where` was never false and the `when` never true: one
  // condition of three is covered.
  CHECK(text.find("`where a.gpus < 1000` seen only true") != std::string::npos);
  CHECK(text.find("`when a.gpus > 100` seen only false") != std::string::npos);
  CHECK(text.find("conditions (where/when): 1/3 (33.3%)") != std::string::npos);
  CHECK(text.find("2 tests: 1 passed, 1 failed") != std::string::npos);

  options.min_coverage = 60;
  options.policies = {(pack.dir() / "rules.cpl").string(),
                      (pack.dir() / "rules_test.cpl").string()};
  std::ostringstream json_out;
  options.format = report::Format::kJson;
  CHECK(RunTest(options, json_out, err) == kExitFindings);
  CHECK(json_out.str().find("\"condition_percent\": 33.3") != std::string::npos);
}

TEST_CASE("tests and rules keep to their own files", "[cli][test]") {
  TempPack pack({{"rules.cpl", std::string(kRule) + "test \"x\" { facts \"f.yaml\" }\n"},
                 {"more_test.cpl", "param p: int = 1\n"}});
  TestOptions options;
  options.policies = {pack.dir().string()};
  std::ostringstream out, err;
  CHECK(RunTest(options, out, err) == kExitUsage);
  CHECK(err.str().find("test `x` is in a policy file") != std::string::npos);
  CHECK(err.str().find("param `p` in a test file") != std::string::npos);
}

std::string DigestOf(const std::string& rule_text, bool with_tests = false) {
  std::vector<std::pair<std::string, std::string>> files = {{"rules.cpl", rule_text}};
  if (with_tests)
    files.emplace_back("rules_test.cpl", "test \"t\" { facts \"f.yaml\" expect T-001 }\n");
  TempPack pack(files);
  RulesOptions options;
  options.policies = {pack.dir().string()};
  options.digest = true;
  std::ostringstream out, err;
  REQUIRE(RunRules(options, out, err) == kExitClean);
  return out.str();
}

TEST_CASE("the ruleset digest ignores layout and comments, not meaning", "[cli][digest]") {
  std::string base = DigestOf(kRule);
  CHECK(base.rfind("sha256:", 0) == 0);
  std::string relaid = std::regex_replace(std::string(kRule), std::regex("\n  "), "\n      ");
  relaid =
      "// a comment\n" + std::regex_replace(relaid, std::regex("rule big"), "/// docs\nrule   big");
  CHECK(DigestOf(relaid) == base);
  CHECK(DigestOf(kRule, true) == base);  // tests are not part of the rule set
  CHECK(DigestOf(std::regex_replace(std::string(kRule), std::regex("1000"), "999")) != base);
  CHECK(DigestOf(std::regex_replace(std::string(kRule), std::regex("takes"), "holds")) != base);
  CHECK(DigestOf(std::regex_replace(std::string(kRule), std::regex("severity\\(error\\)"),
                                    "severity(warning)")) != base);
}

TEST_CASE("the rule catalogue lists metadata and params", "[cli][rules]") {
  RulesOptions options;
  options.policies = {kPack.string()};
  options.format = report::Format::kJson;
  std::ostringstream out, err;
  REQUIRE(RunRules(options, out, err) == kExitClean);
  CHECK(out.str().find("\"id\": \"CAP-ALC-001\"") != std::string::npos);
  CHECK(out.str().find("\"name\": \"research_slices\"") != std::string::npos);
  options.format = report::Format::kMarkdown;
  std::ostringstream md;
  REQUIRE(RunRules(options, md, err) == kExitClean);
  CHECK(md.str().find("| CAP-ALC-001 | `replacement_not_free` | error | reliability-lead |") !=
        std::string::npos);
}

// Structure and links here; the search box and the layout are checked in a
// real browser (tests/browser/check_doc_site.sh).
TEST_CASE("doc writes the catalogue by area and the schema reference, linked both ways",
          "[cli][doc]") {
  TempPack out_dir({});
  DocOptions options;
  options.policies = {kPack.string()};
  options.out_dir = (out_dir.dir() / "site").string();
  std::ostringstream out, err;
  REQUIRE(RunDoc(options, out, err) == kExitClean);
  auto read = [&](const char* name) {
    std::ifstream in(out_dir.dir() / "site" / name);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  std::string html = read("index.html"), md = read("rules.md"), schema = read("schema.html"),
              schema_md = read("schema.md"), fixtures = read("fixtures.html"),
              fixtures_md = read("fixtures.md");
  auto count = Occurrences;
  for (const std::string* page : {&html, &schema, &fixtures}) {
    CHECK(page->rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(count(*page, "<script") == 1);             // the page's own, inline
    CHECK(page->find("src=") == std::string::npos);  // nothing to fetch
    CHECK(page->find("href=\"http") == std::string::npos);
    CHECK(count(*page, "<section") == count(*page, "</section>"));
  }
  // No path of this machine: not the source tree, not the output directory.
  for (const std::string* page : {&html, &md, &schema, &schema_md, &fixtures, &fixtures_md}) {
    CHECK(page->find(capops::testing::SourceDir()) == std::string::npos);
    CHECK(page->find(out_dir.dir().string()) == std::string::npos);
  }
  CHECK(html.find("<code>capops-ai/allocation.cpl:") != std::string::npos);

  // Areas, in the order of their first rule; each rule once, in its area.
  std::vector<std::string> areas;
  std::regex area_re("<section class=\"area\" id=\"area-([a-z]+)\">");
  for (std::sregex_iterator it(html.begin(), html.end(), area_re), end; it != end; ++it)
    areas.push_back((*it)[1]);
  CHECK(areas == std::vector<std::string>{"allocation", "compatibility", "demand", "finops",
                                          "governance", "readiness", "supply"});
  size_t alc = html.find("id=\"area-allocation\""), cmp = html.find("id=\"area-compatibility\"");
  CHECK(html.find("<section class=\"rule\" id=\"CAP-ALC-001\"") > alc);
  CHECK(html.find("<section class=\"rule\" id=\"CAP-ALC-001\"") < cmp);
  CHECK(count(html, "<section class=\"rule\"") >= 37);

  // Every link from a page to the other lands on an anchor there.
  auto ids = [](const std::string& page) { return Captures(page, " id=\"([^\"]+)\""); };
  auto links = [](const std::string& page, const std::string& target) {
    return Captures(page, "href=\"" + target + "#([^\"]+)\"");
  };
  std::set<std::string> html_ids = ids(html), schema_ids = ids(schema);
  std::set<std::string> to_schema = links(html, "schema\\.html"),
                        to_rules = links(schema, "index\\.html");
  CHECK(to_schema.size() > 40);
  for (const std::string& id : to_schema) CHECK(schema_ids.count(id) == 1);
  for (const std::string& id : to_rules) CHECK(html_ids.count(id) == 1);
  // Within a page too.
  for (const std::string& id : links(html, "")) CHECK(html_ids.count(id) == 1);
  for (const std::string& id : links(schema, "")) CHECK(schema_ids.count(id) == 1);

  // The schema: a field's type, presence, doc, the look of its values and
  // the rules that read it, both ways.
  size_t floor = schema.find("<tr id=\"Demand.floor\">");
  REQUIRE(floor != std::string::npos);
  std::string floor_row = schema.substr(floor, schema.find("</tr>", floor) - floor);
  CHECK(floor_row.find("optional") != std::string::npos);
  CHECK(floor_row.find("production keeps at all times") != std::string::npos);
  CHECK(floor_row.find("href=\"index.html#CAP-ALC-002\"") != std::string::npos);
  size_t alc2 = html.find("id=\"CAP-ALC-002\"");
  CHECK(html.find("href=\"schema.html#Demand.floor\"", alc2) < html.find("</section>", alc2));
  CHECK(schema.find("<tr id=\"Supply.window\">") != std::string::npos);
  CHECK(schema.find("<code>80GiB</code>") != std::string::npos);
  CHECK(schema.find("<code>production-replacement</code>") != std::string::npos);
  CHECK(schema.find("default <code>[]</code>") != std::string::npos);
  // A range is part of the type as declared, and said in words.
  CHECK(schema_md.find("| `floor` | `int in 0..` | optional |") != std::string::npos);
  CHECK(floor_row.find("an integer of at least 0") != std::string::npos);
  CHECK(schema_md.find("| `utilization_target` | `double in 0.0..1.0` | optional |") !=
        std::string::npos);

  // Coverage from the pack's own tests, per rule and per condition.
  CHECK(html.find("policy tests, 0 failing; coverage: rules") != std::string::npos);
  CHECK(html.find("<table class=\"conditions\">") != std::string::npos);
  CHECK(md.find("**Tests:** fired, quiet.") != std::string::npos);

  // CPL source wraps rather than scrolls.
  CHECK(html.find("white-space: pre-wrap") != std::string::npos);
  CHECK(md.find("## allocation") != std::string::npos);
  CHECK(md.find("### CAP-ALC-001 `replacement_not_free`") != std::string::npos);
  CHECK(md.find("#### Fires on `") != std::string::npos);

  // A fixture several rules show is written once, on the fixtures page, and
  // linked: the scenario's plan, which a test that names every rule reads.
  std::string scenario = testing::ReadSourceFile("policies/capops-ai/scenario/plan.yaml");
  std::string first_line = scenario.substr(0, scenario.find('\n'));
  CHECK(count(md + fixtures_md, first_line) == 1);
  CHECK(count(html + fixtures, first_line) == 1);
  CHECK(fixtures.find("<section class=\"fixture\" id=\"fixture-capops-ai-scenario-plan.yaml\">") !=
        std::string::npos);
  size_t alc1 = html.find("id=\"CAP-ALC-001\"");
  CHECK(html.find("<a href=\"fixtures.html#fixture-capops-ai-scenario-plan.yaml\"><code>capops-ai/"
                  "scenario/plan.yaml</code></a>",
                  alc1) < html.find("</section>", alc1));
  // No fact file of the pack is shown twice, and the pages grow with the
  // pack, not with its tests times their fixtures (they were 6 to 7 times it).
  size_t pack_bytes = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kPack)) {
    std::string ext = entry.path().extension().string();
    if (ext != ".yaml" && ext != ".cpl") continue;
    std::string text =
        testing::ReadSourceFile(fs::relative(entry.path(), testing::SourceDir()).string());
    pack_bytes += text.size();
    if (ext != ".yaml" || text.size() > 5000) continue;
    INFO(entry.path().string());
    CHECK(count(md + fixtures_md, text) <= 1);
  }
  CHECK(md.size() + fixtures_md.size() < 2 * pack_bytes);
  CHECK(html.size() + fixtures.size() < 3 * pack_bytes);
  // Links between the catalogue and the fixtures page land on anchors.
  std::set<std::string> fixture_ids = ids(fixtures), md_ids = ids(md),
                        fixture_md_ids = ids(fixtures_md);
  std::set<std::string> to_fixtures = links(html, "fixtures\\.html");
  CHECK(to_fixtures.size() >= 10);
  for (const std::string& id : to_fixtures) CHECK(fixture_ids.count(id) == 1);
  for (const std::string& id : links(fixtures, "index\\.html")) CHECK(html_ids.count(id) == 1);
  for (const std::string& id : links(fixtures, "")) CHECK(fixture_ids.count(id) == 1);
  auto md_links = [](const std::string& page, const std::string& target) {
    return Captures(page, "\\]\\(" + target + "#([^)]+)\\)");
  };
  std::set<std::string> md_to_fixtures = md_links(md, "fixtures\\.md");
  CHECK(md_to_fixtures == to_fixtures);
  for (const std::string& id : md_to_fixtures) CHECK(fixture_md_ids.count(id) == 1);
  std::set<std::string> md_to_rules = md_links(fixtures_md, "rules\\.md");
  CHECK(md_to_rules.size() >= 37);
  for (const std::string& id : md_to_rules) CHECK(md_ids.count(id) == 1);
  for (const std::string& id : md_links(fixtures_md, "")) CHECK(fixture_md_ids.count(id) == 1);
}

// A pack whose tests read: a file two rules' entries show, one only one
// shows, inline YAML two show, and two files outside the pack that the
// catalogue can name only `plan.yaml` each.
TEST_CASE("doc inlines a fixture one rule shows, and links one that several show", "[cli][doc]") {
  testing::TempDir tmp("capops-doc-fixtures");
  std::string plan = testing::ReadSourceFile("tests/golden/rules-diff/plans/plan.yaml");
  std::string inventory = testing::ReadSourceFile("tests/golden/rules-diff/plans/inventory.yaml");
  tmp.Write("a/b/pack/rules.cpl", R"(package t
@id("T-001") @severity(error)
rule two_or_more {
  for a in plan.allocations
  where a.gpus >= 2
  deny at a.gpus "allocation `{a.id}` takes {a.gpus} GPUs"
}
@id("T-002") @severity(warning)
rule four_or_more {
  for a in plan.allocations
  where a.gpus >= 4
  warn at a.gpus "allocation `{a.id}` takes {a.gpus} GPUs"
}
)");
  tmp.Write("a/b/pack/shared <b>.yaml", inventory + "---\n" + plan);
  tmp.Write("a/b/pack/own.yaml", inventory + "---\n" + plan + "# own\n");
  tmp.Write("a/b/pack/inventory.yaml", inventory);
  tmp.Write("c/plan.yaml", plan + "# c\n");
  tmp.Write("d/plan.yaml", plan + "# d\n");
  tmp.Write("a/b/pack/rules_test.cpl", R"(
test "both" { facts "shared <b>.yaml" expect T-001 expect T-002 }
test "own" { facts "own.yaml" expect T-002 at "allocations[a-four].gpus" }
test "inline" {
  inventory "inventory.yaml"
  yaml "{apiVersion: capops.dev/v1, kind: CapacityPlan, metadata: {name: i, owner: o}, demands: [{id: d, slice: exploration, gpus: 1}], allocations: [{id: a-inline, demand: d, pool: p, gpus: 1}]}"
  expect_none T-001
  expect_none T-002
}
test "far c" { facts "../../../c/plan.yaml" inventory "inventory.yaml" expect T-001 expect T-002 }
test "far d" { facts "../../../d/plan.yaml" inventory "inventory.yaml" expect T-001 expect T-002 }
)");
  testing::CliResult r =
      testing::RunCli({"doc", "-o", tmp.Path("site"), (tmp.dir() / "a/b/pack").string()});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == kExitClean);
  CHECK(r.out.find("175 policy tests") == std::string::npos);
  CHECK(r.out.find("5 policy tests, 0 failing") != std::string::npos);
  CHECK(r.out.find("; 5 shared fixtures)") != std::string::npos);
  std::string md = tmp.Read("site/rules.md"), fixtures_md = tmp.Read("site/fixtures.md"),
              fixtures = tmp.Read("site/fixtures.html");
  INFO(fixtures_md);
  // Only T-002 shows own.yaml: inline in its entry, not on the fixtures page.
  CHECK(md.find("#### Fires on `pack/own.yaml` (test \"own\")\n\n```yaml\n") != std::string::npos);
  CHECK(fixtures_md.find("own.yaml") == std::string::npos);
  // The others once each, on the fixtures page, with who reads them.
  for (const char* anchor :
       {"fixture-pack-shared--b-.yaml", "fixture-pack-rules_test.cpl-inline", "fixture-plan.yaml",
        "fixture-plan.yaml-2", "fixture-pack-inventory.yaml"}) {
    INFO(anchor);
    CHECK(fixtures.find(std::string("<section class=\"fixture\" id=\"") + anchor + "\">") !=
          std::string::npos);
    CHECK(md.find(std::string("(fixtures.md#") + anchor + ")") != std::string::npos);
  }
  CHECK(fixtures_md.find(
            "## `pack/shared <b>.yaml`\n\n- test \"both\": fires on [T-001](rules.md#T-001), "
            "[T-002](rules.md#T-002)\n") != std::string::npos);
  CHECK(
      fixtures_md.find("## `pack/rules_test.cpl` (inline in test \"inline\")\n\n- test "
                       "\"inline\": quiet on [T-001](rules.md#T-001), [T-002](rules.md#T-002)\n") !=
      std::string::npos);
  CHECK(md.find("- quiet on [`pack/inventory.yaml`](fixtures.md#fixture-pack-inventory.yaml), "
                "[`pack/rules_test.cpl`](fixtures.md#fixture-pack-rules_test.cpl-inline) (test "
                "\"inline\")\n") != std::string::npos);
  CHECK(fixtures.find("<b>") == std::string::npos);  // a file name is text, not markup
  CHECK(fixtures.find("<code>pack/shared &lt;b&gt;.yaml</code>") != std::string::npos);
  // Each fixture's text is written once over the pages.
  for (const char* text : {"# own\n", "# c\n", "# d\n", "a-inline"})
    CHECK(Occurrences(md + fixtures_md, text) == 1);
}

TEST_CASE("doc lists the fields a rule reads, through the functions it calls", "[cli][doc]") {
  TempPack pack(std::vector<std::pair<std::string, std::string>>{{"rules.cpl", R"(package t
fn hosts_of(p: Pool): int = p.hosts

@id("T-001") @severity(error) @owner("o")
rule reads_through_a_function {
  for p in inventory.pools
  where hosts_of(p) > 1 && p.role == PoolRole.research
  deny "pool `{p.id}`"
}
)"}});
  DocOptions options;
  options.policies = {pack.dir().string()};
  options.out_dir = (pack.dir() / "site").string();
  std::ostringstream out, err;
  REQUIRE(RunDoc(options, out, err) == kExitClean);
  std::ifstream in(pack.dir() / "site" / "rules.md");
  std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO(md.substr(0, 2000));
  CHECK(
      md.find("- reads: [`Inventory.pools`](schema.md#Inventory), [`Pool.hosts`](schema.md#Pool), "
              "[`Pool.id`](schema.md#Pool), [`Pool.role`](schema.md#Pool)\n") != std::string::npos);
  CHECK(md.find("PoolRole.research`]") == std::string::npos);  // an enum member is no field
}

// The generated JSON Schema says what the schema says (the real validator's
// verdicts are in tests/schema/); writing it over an input is refused.
TEST_CASE("schema: the fact schema as a JSON Schema, never written over a policy",
          "[cli][schema]") {
  testing::CliResult r = testing::RunCli({"schema", "--format", "json-schema"});
  REQUIRE(r.exit_code == kExitClean);
  nlohmann::json schema = nlohmann::json::parse(r.out);
  CHECK(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");
  CHECK(schema["properties"]["kind"]["enum"] == nlohmann::json({"Inventory", "CapacityPlan"}));
  const auto& defs = schema["$defs"];
  const auto& demand = defs["Demand"];
  CHECK(demand["additionalProperties"] == false);
  CHECK(demand["required"] == nlohmann::json({"id"}));  // `slice` has a default
  CHECK(demand["properties"]["slice"]["anyOf"][0]["default"] == "unsliced");
  const auto& floor = demand["properties"]["floor"];
  // Optional: null reads as absent, and is one of its types (so that a wrong
  // value is told what the field takes, not "integer | null").
  CHECK(floor["type"] == nlohmann::json({"integer", "null"}));
  CHECK(floor["markdownDescription"] == floor["description"]);
  CHECK(floor["description"].get<std::string>().find("production keeps at all times") !=
        std::string::npos);
  // One spelling of each member is offered; the other, read as the same
  // member, is accepted by a pattern that offers nothing.
  const auto& role = defs["Pool"]["properties"]["role"];
  CHECK(role["anyOf"][0]["enum"] ==
        nlohmann::json({"research", "shared", "production", "production-replacement"}));
  CHECK(role["anyOf"][1]["pattern"] == "^(production_replacement)$");
  CHECK(role["errorMessage"] ==
        "expected one of `research`, `shared`, `production`, `production-replacement`");
  CHECK(defs["AcceleratorType"]["properties"]["memory"]["errorMessage"] ==
        "expected a size with its unit: `80GiB`, `1.5TB`, `512MB`");
  // Whole bytes: a decimal unit of 10^n bytes takes n fraction digits, then zeros.
  CHECK(defs["AcceleratorType"]["properties"]["memory"]["pattern"] ==
        "^[0-9]+((\\.0{1,18})?|(\\.[0-9]{1,3}0{0,15})?[kK]|(\\.[0-9]{1,6}0{0,12})?M|"
        "(\\.[0-9]{1,9}0{0,9})?G|(\\.[0-9]{1,12}0{0,6})?T|(\\.[0-9]{1,15}0{0,3})?P|"
        "(\\.[0-9]{1,18})?(E|[KMGTPE]i))B$");
  // A field's range is its `minimum` and `maximum`, and its description says it.
  const auto& target = demand["properties"]["utilization_target"];
  CHECK(target["minimum"] == 0.0);
  CHECK(target["maximum"] == 1.0);
  CHECK(target["description"].get<std::string>().find("A number from 0.0 to 1.0.") !=
        std::string::npos);
  const auto& gpus = defs["Allocation"]["properties"]["gpus"];
  CHECK(gpus["minimum"] == 1);
  CHECK_FALSE(gpus.contains("maximum"));
  CHECK(defs["CapacityPlan"]["properties"]["allocations"]["default"] == nlohmann::json::array());

  TempPack tmp({});
  std::string policy = (tmp.dir() / "policy.cpl").string();
  std::ofstream(policy) << "package t\n/// a record\nrecord Extra {\n  name: string\n}\n";
  auto slurp = [](const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  std::string before = slurp(policy);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"schema", "-o", policy, policy},
        {"schema", "-o", tmp.dir().string()},
        {"schema", "--format", "yaml"}}) {
    testing::CliResult refused = testing::RunCli(args);
    INFO(refused.err);
    CHECK(refused.exit_code == kExitUsage);
    CHECK_FALSE(refused.err.empty());
  }
  CHECK(slurp(policy) == before);
  testing::CliResult with_pack = testing::RunCli({"schema", policy});
  CHECK(nlohmann::json::parse(with_pack.out)["$defs"]["Extra"]["description"] == "a record");
}

// The skeleton gives exactly the finding its header announces, and none once
// the planner does what the header says; it never writes over a file.
TEST_CASE("init: an annotated plan that gives only the finding it says, never over a file",
          "[cli][init]") {
  TempPack tmp({});
  fs::path dir = tmp.dir() / "new";
  testing::CliResult init = testing::RunCli({"init", dir.string()});
  INFO(init.err);
  REQUIRE(init.exit_code == kExitClean);
  auto slurp = [](const fs::path& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  std::string plan = slurp(dir / "plan.yaml"), inventory = slurp(dir / "inventory.yaml");
  for (const std::string* text : {&plan, &inventory})
    CHECK(text->rfind("# yaml-language-server: $schema=capops.schema.json\n", 0) == 0);
  CHECK(plan.find("CAP-GOV-001") != std::string::npos);
  CHECK(plan.find("  # The smallest group the run still makes sense on.") !=
        std::string::npos);  // a field's doc
  CHECK(inventory.find("what a model's footprint must fit in. (a size with its unit: `80GiB`") !=
        std::string::npos);
  CHECK(nlohmann::json::parse(slurp(dir / "capops.schema.json"))["title"] == "capops facts");

  std::string plan_path = (dir / "plan.yaml").string();
  testing::CliResult lint = testing::RunCli({"--no-config", "--format", "short", plan_path});
  CHECK(lint.exit_code == kExitFindings);
  size_t record = plan.find("\n  decision: ");  // the decision record's first line
  REQUIRE(record != std::string::npos);
  CHECK(lint.out ==
        plan_path + ":" +
            std::to_string(std::count(plan.begin(), plan.begin() + record + 1, '\n') + 1) +
            ":3: error[CAP-GOV-001]: decision record misses trade-off, residual risk accepted\n");
  // Done as the header says: clean.
  std::ofstream(plan_path, std::ios::app)
      << "  trade_off: one run now instead of two smaller ones\n"
      << "  residual_risk: the run may finish late\n";
  testing::CliResult done = testing::RunCli({"--no-config", "--format", "short", plan_path});
  CHECK(done.out.empty());
  CHECK(done.exit_code == kExitClean);

  // Never over a file: not a second time, not over one file of three, not a dangling link.
  std::string finished = slurp(dir / "plan.yaml");
  testing::CliResult again = testing::RunCli({"init", dir.string()});
  CHECK(again.exit_code == kExitUsage);
  CHECK(again.err.find("refusing to overwrite") != std::string::npos);
  CHECK(slurp(dir / "plan.yaml") == finished);
  fs::create_directories(tmp.dir() / "one");
  std::ofstream(tmp.dir() / "one" / "capops.schema.json") << "{}";
  CHECK(testing::RunCli({"init", (tmp.dir() / "one").string()}).exit_code == kExitUsage);
  CHECK_FALSE(fs::exists(tmp.dir() / "one" / "plan.yaml"));
  fs::create_directories(tmp.dir() / "link");
  fs::create_symlink(tmp.dir() / "nowhere.yaml", tmp.dir() / "link" / "inventory.yaml");
  CHECK(testing::RunCli({"init", (tmp.dir() / "link").string()}).exit_code == kExitUsage);
  CHECK_FALSE(fs::exists(tmp.dir() / "nowhere.yaml"));
  std::ofstream(tmp.dir() / "file") << "x";
  testing::CliResult in_file = testing::RunCli({"init", (tmp.dir() / "file").string()});
  CHECK(in_file.exit_code == kExitUsage);
  CHECK_FALSE(in_file.err.empty());
}

}  // namespace
}  // namespace capops::cli
