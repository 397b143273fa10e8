// SPDX-License-Identifier: Apache-2.0
// Findings on values merged in by YAML merge keys (`<<: *x`), through the
// CLI: each points where the value is written and names the `<<` that
// merged it into the fact it is about, in SARIF's related locations too;
// each copy is a fact of its own for waivers, the baseline and SARIF
// fingerprints, and a cached run says the same. The text output is the
// golden case tests/golden/yaml-merge-findings.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using testing::CliResult;
using testing::RunCli;

const fs::path kSource = fs::path(testing::SourceDir());
const fs::path kCase = kSource / "tests/golden/yaml-merge-findings";
const std::string kInventory = (kSource / "examples/visual-inspection/inventory.yaml").string();

std::vector<std::string> Lint(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--no-config", "--policy", (kCase / "policy.cpl").string(),
                                   "--inventory", kInventory};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back((kCase / "plan.yaml").string());
  return args;
}

// A SARIF result's location as "line:column", and its related locations'
// messages by "line:column".
struct Located {
  std::string at;
  std::multimap<std::string, std::string> related;
  std::string fingerprint;
};

std::string LineColumn(const Json& location) {
  const Json& region = location["physicalLocation"]["region"];
  return std::to_string(region["startLine"].get<int>()) + ":" +
         std::to_string(region["startColumn"].get<int>());
}

// The results of MRG-001, by the allocation their message names.
std::map<std::string, Located> Results(const std::string& sarif) {
  std::map<std::string, Located> out;
  Json log = Json::parse(sarif);
  for (const Json& r : log["runs"][0]["results"]) {
    if (r["ruleId"] != "MRG-001") continue;
    std::string message = r["message"]["text"];
    std::string id = message.substr(message.find('`') + 1);
    id = id.substr(0, id.find('`'));
    Located& l = out[id];
    l.at = LineColumn(r["locations"][0]);
    for (const Json& related : r.value("relatedLocations", Json::array()))
      l.related.emplace(LineColumn(related), related["message"]["text"]);
    l.fingerprint = r["partialFingerprints"].begin()->get<std::string>();
  }
  return out;
}

TEST_CASE("a merged value's finding points where it is written and names its `<<` in SARIF",
          "[cli][facts]") {
  CliResult run = RunCli(Lint({"--format", "sarif"}));
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 1);
  std::map<std::string, Located> results = Results(run.out);
  REQUIRE(results.size() == 8);
  // Where `gpus: 9` is written, in `&big`: the original names no `<<`.
  for (const char* id : {"a-big", "a-copy", "a-copy-2", "a-list", "a-chain", "a-chain-2"}) {
    INFO(id);
    CHECK(results[id].at == "13:11");
  }
  auto merged = [&](const std::string& id) {
    std::vector<std::string> sites;
    for (const auto& [at, message] : results[id].related) {
      if (message.rfind("merged in here", 0) == 0) sites.push_back(at + " " + message);
    }
    return sites;
  };
  CHECK(merged("a-big").empty());
  CHECK(merged("a-copy") == std::vector<std::string>{"14:5 merged in here from `&big`"});
  CHECK(merged("a-copy-2") == std::vector<std::string>{"17:5 merged in here from `&big`"});
  CHECK(merged("a-list") == std::vector<std::string>{"21:5 merged in here from `&big`"});
  CHECK(merged("a-chain") == std::vector<std::string>{"26:5 merged in here from `&big`"});
  CHECK(merged("a-chain-2") == std::vector<std::string>{"28:5 merged in here from `&chain`"});
  // A key written beside `<<` is the allocation's own; a map written after `<<` has no anchor.
  CHECK(results["a-own"].at == "20:11");
  CHECK(merged("a-own").empty());
  CHECK(results["a-inline"].at == "23:49");
  CHECK(merged("a-inline") == std::vector<std::string>{"23:5 merged in here"});
  // Eight facts, eight identities, though six are at one place.
  std::set<std::string> fingerprints;
  for (const auto& [id, l] : results) fingerprints.insert(l.fingerprint);
  CHECK(fingerprints.size() == 8);
}

TEST_CASE("each copy of a merged value is its own fact for waivers and the baseline",
          "[cli][facts]") {
  testing::TempDir dir("capops-merge");
  std::string baseline = dir.Path("baseline.yaml");
  REQUIRE(RunCli(Lint({"--write-baseline", baseline})).exit_code == 0);
  std::string written = dir.Read("baseline.yaml");
  for (const char* path :
       {"allocations[a-big].gpus", "allocations[a-copy].gpus", "allocations[a-copy-2].gpus",
        "allocations[a-list].gpus", "allocations[a-chain].gpus", "allocations[a-chain-2].gpus",
        "allocations[a-own].gpus", "allocations[a-inline].gpus",
        "allocations[a-small].window.start", "allocations[a-small-2].window.start"}) {
    INFO(path << "\n" << written);
    CHECK(written.find(std::string("at: \"") + path + "\"") != std::string::npos);
  }
  // A waiver of the original waives it alone.
  std::string waivers = dir.Write("waivers.yaml",
                                  "waivers:\n  - rule: MRG-001\n    file: '**/plan.yaml'\n"
                                  "    target: allocations[a-big]\n    owner: test\n"
                                  "    reason: the test\n    expires: 2099-12-31\n");
  CliResult waived = RunCli(Lint({"--waivers", waivers, "--format", "json"}));
  INFO(waived.out << waived.err);
  size_t suppressed = 0, open = 0;
  Json report = Json::parse(waived.out);
  for (const Json& v : report["violations"]) {
    if (v["rule"] != "MRG-001") continue;
    bool is_waived = !v["suppression"].is_null();
    (is_waived ? suppressed : open) += 1;
    if (is_waived) CHECK(v["message"].get<std::string>().find("`a-big`") != std::string::npos);
  }
  CHECK(suppressed == 1);
  CHECK(open == 7);
}

TEST_CASE("a cached run names the same `<<` as a fresh one", "[cli][facts]") {
  testing::TempDir dir("capops-merge");
  std::string cache = "--cache=" + dir.Path("cache");
  CliResult fresh = RunCli(Lint({"--format", "sarif"}));
  CliResult first = RunCli(Lint({cache, "--format", "sarif"}));
  CliResult cached = RunCli(Lint({cache, "--format", "sarif", "-v"}));
  INFO(cached.err);
  CHECK(cached.err.find("hit") != std::string::npos);
  CHECK(first.out == fresh.out);
  CHECK(cached.out == fresh.out);
}

}  // namespace
}  // namespace capops::cli
