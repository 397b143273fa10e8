// SPDX-License-Identifier: Apache-2.0
// CI report formats: SARIF structure, JUnit parsed back, GitHub lines
// matched and escaped. Built from the example through the CLI, and from
// hand-made reports for the escaping rules.
#include "engine/report/ci_report.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "engine/cli/driver.h"
#include "tests/support/paths.h"
#include "tests/support/scratch_dir.h"

namespace capops::report {
namespace {

const std::string kPlan = capops::testing::SourceDir() + "/examples/visual-inspection/plan.yaml";
const std::string kCi = capops::testing::SourceDir() + "/examples/ci/.capops.yaml";

std::string Lint(std::vector<std::string> args) {
  args.insert(args.begin(), "capops-lint");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  cli::Run(static_cast<int>(argv.size()), argv.data(), out, err);
  return out.str();
}

// A small XML reader for what WriteJunit writes: elements, attributes, text.
struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<Element> children;
  std::string text;
};

std::string Unescape(std::string s) {
  const std::pair<const char*, const char*> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}};
  for (const auto& [from, to] : entities) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1))
      s.replace(at, strlen(from), to);
  }
  return s;
}

// Parses the document's root element; fails the test on malformed input.
Element ParseXml(const std::string& xml) {
  std::regex tag(R"(<(/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(/?)>|<\?[^>]*\?>)");
  std::regex attribute(R"(([\w:.-]+)="([^"]*)\")");
  std::vector<Element> stack(1);
  stack[0].name = "#document";
  size_t at = 0;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), tag); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    std::string between = xml.substr(at, m.position() - at);
    REQUIRE(between.find('<') == std::string::npos);
    stack.back().text += Unescape(between);
    at = m.position() + m.length();
    if (m[2].length() == 0) continue;  // the declaration
    if (m[1] == "/") {
      REQUIRE(stack.size() > 1);
      REQUIRE(stack.back().name == m[2]);
      Element done = std::move(stack.back());
      stack.pop_back();
      stack.back().children.push_back(std::move(done));
      continue;
    }
    Element e;
    e.name = m[2];
    std::string attrs = m[3];
    for (auto a = std::sregex_iterator(attrs.begin(), attrs.end(), attribute);
         a != std::sregex_iterator(); ++a) {
      e.attributes[(*a)[1]] = Unescape((*a)[2]);
    }
    if (m[4] == "/") {
      stack.back().children.push_back(std::move(e));
    } else {
      stack.push_back(std::move(e));
    }
  }
  REQUIRE(stack.size() == 1);
  REQUIRE(stack[0].children.size() == 1);
  return stack[0].children[0];
}

TEST_CASE("JUnit: a suite per plan file, a case per rule, failures parsed back",
          "[report][junit]") {
  Element root = ParseXml(Lint({"--config", kCi, "--format", "junit"}));
  CHECK(root.name == "testsuites");
  REQUIRE(root.children.size() == 2);  // the example plan and the clean one
  // The config names the plans relative to itself: the suites carry its (absolute) directory.
  std::map<std::string, const Element*> suites;
  for (const Element& suite : root.children) {
    std::string name = suite.attributes.at("name");
    suites[name.substr(name.find("examples/"))] = &suite;
  }
  const Element& plan = *suites.at("examples/visual-inspection/plan.yaml");
  const Element& clean = *suites.at("examples/visual-inspection/clean/plan.yaml");
  CHECK(clean.attributes.at("failures") == "0");
  CHECK(plan.children.size() == std::stoul(plan.attributes.at("tests")));
  size_t failed = 0;
  for (const Element& c : plan.children) {
    CHECK(c.name == "testcase");
    CHECK(c.attributes.at("classname") == plan.attributes.at("name"));
    for (const Element& child : c.children) {
      if (child.name == "failure") {
        ++failed;
        CHECK(child.text.find(plan.attributes.at("name") + ":") == 0);
      }
      if (child.name ==
          "system-out") {  // the waived CAP-ALC-001, and a warning under --fail-on error
        if (c.attributes.at("name") == "CAP-ALC-001 replacement_not_free") {
          CHECK(child.text.find("(waived: spare L4 pool lent to exploration") != std::string::npos);
        } else {
          CHECK(c.attributes.at("name") == "CAP-FIN-004 cost_per_useful_work");
          CHECK(child.text.find(": warning allocation `a-train-alt`") != std::string::npos);
        }
      }
    }
  }
  CHECK(std::to_string(failed) == plan.attributes.at("failures"));
  CHECK(failed ==
        6);  // ALC-006, ALC-010, CMP-001, GOV-001, SUP-001, SUP-005 (two findings, one case)
}

TEST_CASE("JUnit: no rule passes on a plan whose facts break the schema", "[report][junit]") {
  testing::ScratchDir s;
  std::string plan = s.Read("plan.yaml");
  size_t at = plan.find("gpus: 16");
  REQUIRE(at != std::string::npos);
  s.Write("plan.yaml", plan.replace(at, 8, "gpus: sixteen"));
  std::string junit = Lint({"--no-config", "--format", "junit", s.Path("plan.yaml")});
  size_t rules = nlohmann::json::parse(Lint({"rules", "--format", "json"}))["rules"].size();
  auto count = [&](const std::string& part) {
    size_t n = 0;
    for (size_t i = junit.find(part); i != std::string::npos; i = junit.find(part, i + 1)) ++n;
    return n;
  };
  // Every rule's case says it did not run; none is an empty (passing) case.
  CHECK(count("<skipped message=\"rules were not evaluated on this plan: its facts do not match "
              "the schema\"/>") == rules);
  CHECK(count("\"/>\n") == rules);  // the skipped elements, and no self-closed testcase
  CHECK(count("skipped=\"" + std::to_string(rules) + "\"") == 1);
  // The schema error is a failing case of its own.
  CHECK(count("<testcase classname=") == rules + 1);
  CHECK(count("<failure type=\"capops/schema\"") == 1);
  CHECK(count("failures=\"1\"") == 1);
}

TEST_CASE("GitHub: one workflow command per finding", "[report][github]") {
  std::istringstream lines(Lint({"--no-config", "--format", "github", kPlan}));
  std::regex command(
      R"(::(error|warning|notice) file=[^,]+,line=([0-9]+),endLine=\2,col=([0-9]+),endColumn=([0-9]+),)"
      R"(title=CAP-[A-Z]+-[0-9]+ [a-z_]+::[^\n]+)");
  std::string line;
  size_t commands = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("::", 0) != 0) {
      CHECK(line == "capops-lint: 9 findings, 0 waived, 0 baselined, in 2 files");
      continue;
    }
    INFO(line);
    std::smatch m;
    REQUIRE(std::regex_match(line, m, command));
    CHECK(std::stoi(m[4]) >= std::stoi(m[3]));  // the end column is the span's last, inclusive
    CHECK(line.find('\r') == std::string::npos);
    ++commands;
    // `interruptible: true` at line 12: the span is the four characters of `true`.
    if (line.find("CAP-ALC-006") != std::string::npos)
      CHECK(line.find(",line=12,endLine=12,col=20,endColumn=23,") != std::string::npos);
  }
  CHECK(commands == 9);
}

TEST_CASE("GitHub: messages and properties are escaped", "[report][github]") {
  SourceManager sm;
  FileId f = sm.Add("dir,a:b/plan%.yaml", "x: 1\n");
  eval::LintReport report;
  eval::Violation v;
  v.rule_id = "R-1";
  v.rule_name = "r";
  v.message = "100% sure\nsecond line";
  v.loc = SourceLoc{f, 1, 4};
  report.violations.push_back(v);
  std::ostringstream out;
  WriteGithub(sm, report, out);
  CHECK(out.str().substr(0, out.str().find('\n') + 1) ==
        "::error file=dir%2Ca%3Ab/plan%25.yaml,line=1,endLine=1,col=4,endColumn=4,title=R-1 "
        "r::100%25 sure%0Asecond "
        "line\n");
}

TEST_CASE("GitHub: control bytes are shown, never passed to the log", "[report][github]") {
  SourceManager sm;
  FileId f = sm.Add(std::string("a\x1b]8;;x\x07\nb\0c\r.yaml", 18), "x: 1\n");
  eval::LintReport report;
  eval::Violation v;
  v.rule_id = "R-1";
  v.rule_name = "r\x07";
  v.message = std::string("bell\x07 nul\0 esc\x1b[2J \xe2\x80\xae", 22);
  v.because = "two\nlines";
  v.loc = SourceLoc{f, 1, 4};
  report.violations.push_back(v);
  std::ostringstream out;
  WriteGithub(sm, report, out);
  CHECK(out.str() ==
        "::error "
        "file=a\\x1b]8;;x\\x07\\nb\\x00c\\r.yaml,line=1,endLine=1,col=4,endColumn=4,title=R-1 "
        "r\\x07::bell\\x07 "
        "nul\\x00 esc\\x1b[2J \\u{202e}%0Abecause: two%0Alines\n"
        "capops-lint: 1 finding, 0 waived, 0 baselined, in 0 files\n");
}

TEST_CASE("SARIF: driver rules, locations and suppressions", "[report][sarif]") {
  nlohmann::json doc = nlohmann::json::parse(Lint({"--config", kCi, "--format", "sarif"}));
  CHECK(doc["version"] == "2.1.0");
  const auto& run = doc["runs"][0];
  const auto& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "capops-lint");
  CHECK(driver["version"].is_string());
  REQUIRE(driver["rules"].size() >= 20);
  for (const auto& rule : driver["rules"]) {
    INFO(rule.dump());
    CHECK(rule["id"].is_string());
    CHECK(rule["name"].is_string());
    CHECK(rule["help"]["text"].is_string());
    CHECK(rule["defaultConfiguration"]["level"].is_string());
  }
  size_t suppressed = 0;
  for (const auto& result : run["results"]) {
    CHECK(driver["rules"][result["ruleIndex"].get<size_t>()]["id"] == result["ruleId"]);
    const auto& physical = result["locations"][0]["physicalLocation"];
    // Under the source root (the checkout): relative to %SRCROOT%; elsewhere absolute.
    std::string uri = physical["artifactLocation"]["uri"];
    if (physical["artifactLocation"].contains("uriBaseId")) {
      CHECK(physical["artifactLocation"]["uriBaseId"] == "SRCROOT");
      CHECK(uri == "examples/visual-inspection/plan.yaml");
    } else {
      CHECK(uri.rfind("file:///", 0) == 0);
      CHECK(uri.find("/examples/visual-inspection/plan.yaml") != std::string::npos);
    }
    CHECK(result["partialFingerprints"]["capopsFinding/v1"].get<std::string>().size() == 64);
    CHECK(physical["region"]["startLine"].get<int>() >= 1);
    // The region ends on its line, after the value it marks (SARIF's end column is exclusive).
    CHECK(physical["region"]["endLine"] == physical["region"]["startLine"]);
    CHECK(physical["region"]["endColumn"].get<int>() >
          physical["region"]["startColumn"].get<int>());
    if (!result.contains("suppressions")) continue;
    ++suppressed;
    CHECK(result["ruleId"] == "CAP-ALC-001");
    CHECK(result["suppressions"][0]["kind"] == "external");
    CHECK(result["suppressions"][0]["justification"] ==
          "spare L4 pool lent to exploration until the Q2 hardware arrives");
    // a, d and p, then the facts its clauses compared, each with its label.
    std::vector<std::string> related;
    for (const auto& r : result["relatedLocations"]) related.push_back(r["message"]["text"]);
    CHECK(related == std::vector<std::string>{
                         "allocation `a-explore`", "demand `explore`", "pool `serve-eu-spare`",
                         "demand `explore`: `slice` is \"exploration\"",
                         "pool `serve-eu-spare`: `role` is \"production-replacement\""});
  }
  CHECK(suppressed == 1);
}

TEST_CASE("SARIF: a finding keeps its fingerprint when lines move, and %SRCROOT% is the checkout",
          "[report][sarif]") {
  testing::ScratchDir s;
  std::filesystem::create_directories(s.dir() / ".git");  // the scratch directory is a checkout
  testing::InDir in(s.dir() / ".git");  // lint from inside the checkout, as CI does
  auto lint = [&]() {
    nlohmann::json run = nlohmann::json::parse(
        Lint({"--no-config", "--format", "sarif", (s.dir() / "plan.yaml").string()}))["runs"][0];
    CHECK(run["originalUriBaseIds"]["SRCROOT"]["uri"] == "file://" + s.dir().string() + "/");
    std::map<std::string, int> lines;  // fingerprint → line
    for (const auto& r : run["results"]) {
      if (!r.contains("partialFingerprints")) continue;  // a diagnostic, not a rule's finding
      const auto& where = r["locations"][0]["physicalLocation"];
      CHECK(where["artifactLocation"]["uri"] == "plan.yaml");
      CHECK(where["artifactLocation"]["uriBaseId"] == "SRCROOT");
      lines[r["partialFingerprints"]["capopsFinding/v1"]] = where["region"]["startLine"];
    }
    return lines;
  };
  std::map<std::string, int> before = lint();
  CHECK(before.size() == 9);  // one fingerprint per finding: no two share one
  s.Write("plan.yaml", "# three lines\n# added\n# above\n" + s.Read("plan.yaml"));
  std::map<std::string, int> after = lint();
  REQUIRE(after.size() == before.size());
  for (const auto& [fingerprint, line] : before) {
    INFO(fingerprint);
    REQUIRE(after.count(fingerprint) == 1);
    CHECK(after[fingerprint] == line + 3);
  }
}

// What code scanning shows beside an alert: the rule's help as Markdown,
// linked to the published catalogue; one analysis per config file.
TEST_CASE("SARIF: help, catalogue links and the analysis a run belongs to", "[report][sarif]") {
  const std::string url = "https://example.org/capops/index.html";
  nlohmann::json run = nlohmann::json::parse(Lint(
      {"--config", kCi, "--rules-url", url, "--format", "sarif", "--fail-on", "never"}))["runs"][0];
  const auto& driver = run["tool"]["driver"];
  CHECK(driver["informationUri"] == url);
  size_t rules = 0;
  for (const auto& rule : driver["rules"]) {
    std::string id = rule["id"];
    if (id.rfind("CAP-", 0) != 0) continue;
    ++rules;
    INFO(id);
    CHECK(rule["helpUri"] == url + "#" + id);
    std::string markdown = rule["help"]["markdown"];
    CHECK(markdown.find("**Why:** ") != std::string::npos);
    CHECK(markdown.find("**Fix:** ") != std::string::npos);
    CHECK(markdown.find("Owner: ") != std::string::npos);
    CHECK(rule["help"]["text"].get<std::string>().find("because: ") != std::string::npos);
    if (id == "CAP-ALC-001") {
      CHECK(markdown.find("| `research_slices` | `set<Slice>` | `[\"exploration\", \"training\", "
                          "\"tuning\"]` |") != std::string::npos);
    }
  }
  CHECK(rules >= 37);
  // The repository holding this source tree is the root: the config is named under it.
  std::string id = run["automationDetails"]["id"];
  CHECK(std::regex_match(id, std::regex("capops/(.*/)?examples/ci/\\.capops\\.yaml/")));

  // Without a catalogue address, no link (SARIF wants absolute ones); without a config, no analysis
  // id.
  nlohmann::json bare =
      nlohmann::json::parse(Lint({"--no-config", "--format", "sarif", kPlan}))["runs"][0];
  CHECK_FALSE(bare["tool"]["driver"].contains("informationUri"));
  CHECK_FALSE(bare.contains("automationDetails"));
  for (const auto& rule : bare["tool"]["driver"]["rules"]) {
    CHECK_FALSE(rule.contains("helpUri"));
    CHECK(rule["help"].contains("markdown"));
  }
}

TEST_CASE("SARIF: --explain gives each result its clause trace as a code flow, at the facts read",
          "[report][sarif]") {
  nlohmann::json run = nlohmann::json::parse(
      Lint({"--no-config", "--explain", "--format", "sarif", kPlan}))["runs"][0];
  nlohmann::json plain =
      nlohmann::json::parse(Lint({"--no-config", "--format", "sarif", kPlan}))["runs"][0];
  for (const auto& result : plain["results"]) CHECK_FALSE(result.contains("codeFlows"));
  bool found = false;
  for (const auto& result : run["results"]) {
    if (result["ruleId"].get<std::string>().rfind("CAP-", 0) != 0) continue;
    INFO(result.dump());
    if (result["ruleId"] != "CAP-ALC-001") continue;
    REQUIRE(result.contains("codeFlows"));
    const auto& steps = result["codeFlows"][0]["threadFlows"][0]["locations"];
    REQUIRE(steps.size() == 1);  // its one `where`
    // Shown at the first field it read, the demand's slice; the records `d` and `p` are the
    // evidence's.
    const auto& where = steps.back()["location"];
    std::string text = where["message"]["text"];
    CHECK(text.find("`where d.slice in research_slices && p.role == production_replacement` is "
                    "true; read `d.slice` = \"exploration\"") == 0);
    CHECK(text.find("`d` =") == std::string::npos);
    CHECK(text.find("`p.role` = \"production-replacement\"") != std::string::npos);
    CHECK(where["physicalLocation"]["artifactLocation"]["uri"].get<std::string>().find(
              "plan.yaml") != std::string::npos);
    CHECK(where["physicalLocation"]["region"]["startLine"] == 9);
    found = true;
  }
  CHECK(found);
}

TEST_CASE("SARIF: --source-root says what %SRCROOT% stands for", "[report][sarif]") {
  const std::string examples = capops::testing::SourceDir() + "/examples";
  nlohmann::json run = nlohmann::json::parse(Lint(
      {"--no-config", "--format", "sarif", "--source-root", examples + "/./", kPlan}))["runs"][0];
  CHECK(run["originalUriBaseIds"]["SRCROOT"]["uri"] == "file://" + examples + "/");
  const auto& where = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  CHECK(where["uri"] == "visual-inspection/plan.yaml");
  CHECK(where["uriBaseId"] == "SRCROOT");
  for (const std::string& bad : {examples + "/missing", kPlan}) {
    INFO(bad);
    std::vector<std::string> args = {"capops-lint",   "--no-config", "--format", "sarif",
                                     "--source-root", bad,           kPlan};
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    CHECK(cli::Run(static_cast<int>(argv.size()), argv.data(), out, err) == cli::kExitUsage);
    CHECK(err.str().find("is not a directory") != std::string::npos);
    CHECK(out.str().empty());
  }
}

TEST_CASE("SARIF: output is identical across runs", "[report][sarif]") {
  CHECK(Lint({"--config", kCi, "--format", "sarif"}) ==
        Lint({"--config", kCi, "--format", "sarif"}));
}

}  // namespace
}  // namespace capops::report
