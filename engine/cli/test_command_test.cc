// The test and rules commands, run in-process: the shipped pack's CPL tests,
// a deliberately failing test and its diff, coverage of a known untested
// clause, and the ruleset digest under layout and semantic edits.
#include "engine/cli/test_command.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "engine/cli/doc_command.h"
#include "engine/cli/driver.h"
#include "engine/cli/rules_command.h"
#include "tests/support/fixture.h"

namespace capops::cli {
namespace {

namespace fs = std::filesystem;

const fs::path kPack = fs::path(CAPOPS_SOURCE_DIR) / "policies" / "capops-ai";

// A scratch directory holding the given files, removed at the end.
struct TempPack {
  fs::path dir;
  explicit TempPack(const std::vector<std::pair<std::string, std::string>>& files) {
    dir = fs::temp_directory_path() / ("capops-test-" + std::to_string(::getpid()) + "-" +
                                       std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::create_directories(dir);
    for (const auto& [name, text] : files) std::ofstream(dir / name) << text;
  }
  ~TempPack() { fs::remove_all(dir); }
};

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
  options.policies = {pack.dir.string()};
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
  options.policies = {(pack.dir / "rules.cpl").string(), (pack.dir / "rules_test.cpl").string()};
  std::ostringstream json_out;
  options.format = report::Format::kJson;
  CHECK(RunTest(options, json_out, err) == kExitFindings);
  CHECK(json_out.str().find("\"condition_percent\": 33.3") != std::string::npos);
}

TEST_CASE("tests and rules keep to their own files", "[cli][test]") {
  TempPack pack({{"rules.cpl", std::string(kRule) + "test \"x\" { facts \"f.yaml\" }\n"},
                 {"more_test.cpl", "param p: int = 1\n"}});
  TestOptions options;
  options.policies = {pack.dir.string()};
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
  options.policies = {pack.dir.string()};
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

// No browser in the test run: the page is checked structurally instead.
TEST_CASE("doc writes a Markdown catalogue and one self-contained HTML page", "[cli][doc]") {
  TempPack out_dir({});
  DocOptions options;
  options.policies = {kPack.string()};
  options.out_dir = (out_dir.dir / "site").string();
  std::ostringstream out, err;
  REQUIRE(RunDoc(options, out, err) == kExitClean);
  auto read = [&](const char* name) {
    std::ifstream in(out_dir.dir / "site" / name);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  std::string html = read("index.html"), md = read("rules.md");
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);  // nothing to fetch
  CHECK(html.find("href=\"http") == std::string::npos);
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = html.find(what); at != std::string::npos; at = html.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(count("<section") >= 31);
  CHECK(count("</section>") == count("<section"));
  CHECK(count("<details") == count("</details>"));
  CHECK(count("<pre>") == count("</pre>"));
  CHECK(html.find("id=\"CAP-ALC-001\"") != std::string::npos);
  CHECK(html.find("fires on <code>") != std::string::npos);
  CHECK(html.find("quiet on <code>") != std::string::npos);
  CHECK(md.find("## CAP-ALC-001 `replacement_not_free`") != std::string::npos);
  CHECK(md.find("### Fires on `") != std::string::npos);
}

}  // namespace
}  // namespace capops::cli
