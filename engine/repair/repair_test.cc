// SPDX-License-Identifier: Apache-2.0
// The repair search: each repair offered for a fixture of the rules that
// have one, applied, removes its finding and adds no error; and the plan
// edits it writes keep every byte outside their span.
#include "engine/repair/repair.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "engine/facts/loader.h"
#include "engine/repair/plan_edits.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::repair {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The allocation a finding's repairs change (RepairedBinding).
std::string AllocationOf(const Json& finding) {
  std::string_view binding = RepairedBinding(finding["rule"].get<std::string>());
  for (const Json& e : finding["evidence"]) {
    if (!binding.empty() && e["name"] == binding) return e["value"];
  }
  return "";
}

// The errors of a JSON report: a finding by its rule and the located facts
// it is about, a diagnostic by its code and message.
std::set<std::string> Errors(const Json& report) {
  std::set<std::string> out;
  for (const Json& v : report["violations"]) {
    if (v["severity"] != "error") continue;
    std::string key = v["rule"];
    for (const Json& e : v["evidence"]) {
      if (!e["location"].is_null())
        key += " " + e["name"].get<std::string>() + "=" + e["value"].get<std::string>();
    }
    out.insert(key);
  }
  for (const Json& d : report["errors"]) {
    if (d["severity"] == "error")
      out.insert(d["code"].get<std::string>() + " " + d["message"].get<std::string>());
  }
  return out;
}

std::string Applied(std::string text, const Json& fix) {
  std::vector<Json> edits(fix["replacements"].begin(), fix["replacements"].end());
  std::sort(edits.begin(), edits.end(),
            [](const Json& a, const Json& b) { return a["offset"] > b["offset"]; });
  for (const Json& e : edits) {
    text.replace(e["offset"].get<size_t>(), e["length"].get<size_t>(),
                 e["text"].get<std::string>());
  }
  return text;
}

// Lints each plan in `plans` (a file holding its inventory too, or with
// `inventory`), applies each repair offered, lints again: the finding it
// repairs is gone and no error is new. Returns "rule file allocation" →
// the descriptions offered, in order.
std::map<std::string, std::vector<std::string>> CheckRepairs(const std::vector<fs::path>& plans,
                                                             const std::string& inventory = "") {
  capops::testing::TempDir dir("capops-repair");
  std::map<std::string, std::vector<std::string>> offered;
  for (const fs::path& path : plans) {
    std::string name = path.filename().string();
    INFO(path.string());
    std::string text = ReadText(path);
    std::vector<std::string> args = {"--no-config", "--format", "json", "--max-repair-lints", "64"};
    if (!inventory.empty()) args.insert(args.end(), {"--inventory", inventory});
    auto lint = [&](const std::string& file) {
      std::vector<std::string> a = args;
      a.push_back(file);
      auto r = capops::testing::RunCli(a);
      REQUIRE(r.exit_code <= 1);
      return Json::parse(r.out);
    };
    Json before = lint(dir.Write(name, text));
    std::set<std::string> errors = Errors(before);
    for (const Json& v : before["violations"]) {
      if (v["fixes"].empty()) continue;
      std::string rule = v["rule"];
      REQUIRE(HasRepairSearch(rule));
      std::string allocation = AllocationOf(v);
      REQUIRE_FALSE(allocation.empty());
      for (const Json& fix : v["fixes"]) {
        INFO(fix["description"]);
        offered[rule + " " + name + " " + allocation].push_back(fix["description"]);
        Json after = lint(dir.Write("fixed-" + name, Applied(text, fix)));
        for (const Json& w : after["violations"])
          CHECK_FALSE((w["rule"] == rule && AllocationOf(w) == allocation));
        for (const std::string& e : Errors(after)) {
          INFO(e);
          CHECK(errors.count(e) == 1);
        }
      }
    }
  }
  return offered;
}

// The fixtures of every rule with a search.
std::vector<fs::path> RepairFixtures() {
  std::vector<fs::path> out;
  fs::path fixtures = fs::path(capops::testing::SourceDir()) / "policies/capops-ai/fixtures";
  for (const fs::directory_entry& rule : fs::directory_iterator(fixtures)) {
    if (!HasRepairSearch(rule.path().filename().string())) continue;
    for (const fs::directory_entry& entry : fs::directory_iterator(rule.path())) {
      if (entry.path().extension() == ".yaml") out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_CASE(
    "repair: each repair offered on a fixture of a rule with a search, applied, removes its "
    "finding and adds no error",
    "[repair]") {
  std::map<std::string, std::vector<std::string>> all = CheckRepairs(RepairFixtures());
  std::map<std::string, std::vector<std::string>> offered;  // CAP-SUP-005's: "file allocation"
  for (const auto& [key, descriptions] : all) {
    if (key.rfind("CAP-SUP-005 ", 0) == 0) offered[key.substr(12)] = descriptions;
  }
  using V = std::vector<std::string>;
  CHECK(offered["repairable.yaml a-cite"] ==
        V{"cite `r-may` (reservation of 8 GPUs of `h100-80`) in `a-cite`'s evidence"});
  CHECK(offered["repairable.yaml a-shrink"] ==
        V{"shrink `a-shrink` to 8 GPUs, what its cited supply covers, not below its minimum "
          "viable 4"});
  CHECK(offered["repairable.yaml a-block"] ==
        V{"cite `r-june` (reservation of 4 GPUs of `h100-80`) in `a-block`'s evidence"});
  CHECK(offered.count("repairable.yaml a-stuck") == 0);
  // Capacity held with a managed service backs its pools; ours, ours.
  CHECK(offered["fires-service.yaml a-managed"] ==
        V{"cite `r-hosted` (reservation of 16 GPUs of `h100-80`) in `a-managed`'s evidence"});
  CHECK(offered["fires-service.yaml a-own"] ==
        V{"cite `r-own` (reservation of 16 GPUs of `h100-80`) in `a-own`'s evidence"});
  // Only a move repairs these: each keeps its duration and its demand's window.
  CHECK(offered["movable.yaml a-early"] ==
        V{"move `a-early` to start 2027-04-23 (the first window where its cited supply has 4 GPUs "
          "free)"});
  CHECK(offered["movable.yaml a-block"] ==
        V{"move `a-block` to start 2027-06-05T06:00Z (the first window where its cited supply has "
          "2 GPUs free)"});
  CHECK(offered.count("movable.yaml a-never") == 0);
  // Every repair, the least change first: cite, move, shrink.
  CHECK(
      offered["ranked.yaml a-all"] ==
      V{"cite `r-spare` (reservation of 8 GPUs of `h100-80`) in `a-all`'s evidence",
        "move `a-all` to start 2027-04-20 (the first window where its cited supply has 8 GPUs "
        "free)",
        "shrink `a-all` to 4 GPUs, what its cited supply covers, not below its minimum viable 4"});
  CHECK(offered.size() == 8);
}

TEST_CASE("repair: a record the allocations citing it already fill is cited last", "[repair]") {
  capops::testing::TempDir dir("capops-repair-room");
  // `r-small` would be cited first (the smallest that holds what `a-need`
  // lacks), but `a-full` takes all of it over the same days.
  std::string plan = dir.Write("plan.yaml", R"(apiVersion: capops.dev/v1
kind: Inventory
accelerator_types:
  - {id: h100-80, model: H100-SXM, memory: 80GiB, interconnect: nvlink4}
pools:
  - {id: train-eu, accelerator: h100-80, hosts: 8, gpus_per_host: 4, region: eu-west, role: research}
supply:
  - {id: r-small, kind: reservation, accelerator: h100-80, region: eu-west, gpus: 8, window: {start: 2027-05-01, end: 2027-05-10}}
  - {id: r-big, kind: reservation, accelerator: h100-80, region: eu-west, gpus: 16, window: {start: 2027-05-01, end: 2027-05-10}}
---
apiVersion: capops.dev/v1
kind: CapacityPlan
metadata: {name: taken, owner: test}
demands:
  - {id: tune, slice: training, window: {start: 2027-05-02, duration: 3d}}
allocations:
  - {id: a-full, demand: tune, pool: train-eu, gpus: 8, evidence: [r-small]}
  - {id: a-need, demand: tune, pool: train-eu, gpus: 8, evidence: []}
)");
  // One lint to try one alternative: the one with room is tried first.
  auto r =
      capops::testing::RunCli({"--no-config", "--format", "json", "--max-repair-lints", "1", plan});
  REQUIRE(r.exit_code == 1);
  const Json report = Json::parse(r.out);
  std::vector<std::string> offered;
  for (const Json& v : report["violations"]) {
    if (v["rule"] != "CAP-SUP-005") continue;
    CHECK(AllocationOf(v) == "a-need");
    for (const Json& f : v["fixes"]) offered.push_back(f["description"]);
  }
  CHECK(offered ==
        std::vector<std::string>{
            "cite `r-big` (reservation of 16 GPUs of `h100-80`) in `a-need`'s evidence"});
}

TEST_CASE("repair: each repair offered on the shipped example, applied, holds", "[repair]") {
  fs::path example = fs::path(capops::testing::SourceDir()) / "examples/visual-inspection";
  std::map<std::string, std::vector<std::string>> offered =
      CheckRepairs({example / "plan.yaml"}, (example / "inventory.yaml").string());
  CHECK_FALSE(offered.empty());
}

TEST_CASE("repair: the earliest window a move fits in is found by one sweep", "[repair]") {
  constexpr int64_t kDay = DateTime::kSecondsPerDay, kHour = 3600;
  auto day = [](int64_t n) { return n * DateTime::kSecondsPerDay; };
  // 4 GPUs from day 20 to day 40, all taken by another allocation until day 23.
  std::vector<Held> supply{{day(20), day(40), 4}};
  std::vector<Held> taken{{day(20), day(23), 4}};
  CHECK(EarliestFit(supply, taken, 4, 5 * kDay, day(15), day(35)) == day(23));
  CHECK(EarliestFit(supply, {}, 4, 5 * kDay, day(15), day(35)) == day(20));
  // Already fits: the earliest start of the window is itself.
  CHECK(EarliestFit(supply, {}, 4, 5 * kDay, day(25), day(35)) == day(25));
  // More than the supply holds, or partly taken all along: never.
  CHECK(EarliestFit(supply, {}, 5, kDay, day(15), day(35)) == std::nullopt);
  CHECK(EarliestFit(supply, {{INT64_MIN, INT64_MAX, 1}}, 4, kDay, day(15), day(35)) ==
        std::nullopt);
  // A window too short for the duration, or one that ends before a fit does.
  CHECK(EarliestFit(supply, taken, 4, 5 * kDay, day(15), day(19)) == std::nullopt);
  CHECK(EarliestFit(supply, taken, 4, 5 * kDay, day(15), day(27)) == std::nullopt);
  CHECK(EarliestFit(supply, taken, 4, 5 * kDay, day(15), day(28)) == day(23));
  // Supply that ends before the demand's window does: a fit must end with it.
  CHECK(EarliestFit(supply, {{day(20), day(36), 4}}, 4, 5 * kDay, day(15), day(60)) ==
        std::nullopt);
  CHECK(EarliestFit(supply, {{day(20), day(35), 4}}, 4, 5 * kDay, day(15), day(60)) == day(35));
  // Hour precision: two records that meet at 06:00 add up, a gap of an hour breaks a run.
  std::vector<Held> hours{{day(10) + 6 * kHour, day(11), 2},
                          {day(11), day(12) + 18 * kHour, 2},
                          {day(11) + 9 * kHour, day(13), 2}};
  CHECK(EarliestFit(hours, {}, 2, 30 * kHour, day(10), day(20)) == day(10) + 6 * kHour);
  CHECK(EarliestFit(hours, {}, 4, 8 * kHour, day(10), day(20)) == day(11) + 9 * kHour);
  CHECK(EarliestFit(hours, {{day(11) + 2 * kHour, day(11) + 3 * kHour, 1}}, 2, 30 * kHour, day(10),
                    day(20)) == day(11) + 3 * kHour);
  CHECK(EarliestFit(hours, {}, 4, 34 * kHour, day(10), day(20)) == std::nullopt);
  // Supply held for all time, the window open at its end; no start, no duration: never.
  CHECK(EarliestFit({{INT64_MIN, INT64_MAX, 8}}, {}, 8, kDay, day(3), INT64_MAX) == day(3));
  CHECK(EarliestFit({{INT64_MIN, INT64_MAX, 8}}, {}, 8, kDay, INT64_MIN, INT64_MAX) ==
        std::nullopt);
  CHECK(EarliestFit(supply, {}, 4, 0, day(15), day(35)) == std::nullopt);
  CHECK(EarliestFit({}, {}, 1, kDay, day(15), day(35)) == std::nullopt);
}

// The allocation `id` of `text`'s first document, loaded as plain YAML.
struct Loaded {
  SourceManager sources;
  FileId file;
  Value doc;
  explicit Loaded(const std::string& text) {
    file = sources.Add("plan.yaml", text);
    facts::RawLoadResult r = facts::LoadRawYaml(sources, file, {});
    REQUIRE(r.documents.size() == 1);
    doc = r.documents[0];
  }
  const Value& At(const std::string& id) const {
    for (const Value& a : doc.Field("allocations")->items()) {
      if (a.Field("id")->string_value() == id) return a;
    }
    FAIL("no allocation " << id);
    return doc;
  }
};

std::string Edited(const std::string& text, std::optional<std::vector<Replacement>> edits) {
  if (!edits) return "(none)";
  std::string out, why;
  REQUIRE(ApplyReplacements(text, *edits, &out, &why));
  return out;
}

TEST_CASE("repair: plan edits add to lists and maps in their own style, and change nothing else",
          "[repair]") {
  const std::string text =
      "allocations:  # the plan's\n"
      "  - {id: a, gpus: 4, evidence: [r1 , \"r2\"]}  # keep\n"
      "  - {id: b, gpus: \"8\", evidence: []}\n"
      "  - {id: c, gpus: 2}\n"
      "  - id: d\n"
      "    evidence:\n"
      "      - r1  # first\n"
      "    gpus: 16\n"
      "  - gpus: 1\n"
      "    id: e\n";
  Loaded l(text);
  auto add = [&](const std::string& id, const std::string& item) {
    return Edited(text, AddToList(l.file, text, l.At(id), "evidence", item));
  };
  auto line = [](const std::string& edited, int n) {
    size_t at = 0;
    for (int i = 1; i < n; ++i) at = edited.find('\n', at) + 1;
    return edited.substr(at, edited.find('\n', at) - at);
  };
  CHECK(line(add("a", "r3"), 2) == "  - {id: a, gpus: 4, evidence: [r1 , \"r2\", r3]}  # keep");
  CHECK(line(add("b", "r3"), 3) == "  - {id: b, gpus: \"8\", evidence: [r3]}");
  CHECK(line(add("c", "r 3"), 4) == "  - {id: c, gpus: 2, evidence: [\"r 3\"]}");
  std::string d = add("d", "r3");
  CHECK(line(d, 7) == "      - r1  # first");
  CHECK(line(d, 8) == "      - r3");
  CHECK(line(d, 9) == "    gpus: 16");
  std::string e = add("e", "r3");
  CHECK(line(e, 10) == "    id: e");
  CHECK(line(e, 11) == "    evidence: [r3]");
  // Every edit only inserts: the text with the insertion taken out is the original.
  for (const std::string& edited : {add("a", "r3"), add("b", "r3"), d, e})
    CHECK(edited.size() > text.size());
  CHECK(line(Edited(text, std::vector<Replacement>{*ReplaceScalar(l.file, text,
                                                                  *l.At("b").Field("gpus"), "6")}),
             3) == "  - {id: b, gpus: 6, evidence: []}");
  CHECK(line(Edited(text, std::vector<Replacement>{*ReplaceScalar(l.file, text,
                                                                  *l.At("d").Field("gpus"), "12")}),
             8) == "    gpus: 12");
  // A key there that is no list is not added to.
  CHECK(Edited(text, AddToList(l.file, text, l.At("a"), "gpus", "x")) == "(none)");
  CHECK(YamlScalar("r-apr_2.x/y") == "r-apr_2.x/y");
  CHECK(YamlScalar("-r") == "\"-r\"");
  CHECK(YamlScalar("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(YamlScalar("") == "\"\"");
}

}  // namespace
}  // namespace capops::repair
