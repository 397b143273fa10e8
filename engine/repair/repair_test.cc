// SPDX-License-Identifier: Apache-2.0
// The repair search: each repair offered for a fixture of the rules that
// have one, applied, removes its finding and adds no error; and the plan
// edits it writes keep every byte outside their span.
#include "engine/repair/repair.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "engine/repair/plan_edits.h"
#include "engine/repair/repair_test_support.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::repair {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

TEST_CASE(
    "repair: each repair offered on a fixture of a rule with a search, applied, removes its "
    "finding and adds no error",
    "[repair]") {
  testing::Offered offered =
      testing::OfRule(testing::CheckRepairs(testing::RepairFixtures("CAP-SUP-005")), "CAP-SUP-005");
  using V = std::vector<std::string>;
  CHECK(offered["repairable.yaml a-cite"] ==
        V{"cite `r-may` (reservation of 8 GPUs of `h100-80`) in `a-cite`'s evidence"});
  CHECK(offered["repairable.yaml a-shrink"] ==
        V{"shrink `a-shrink` to 8 GPUs, what its cited supply covers, not below its minimum "
          "viable 4"});
  CHECK(offered["repairable.yaml a-block"] ==
        V{"cite `r-june` (reservation of 4 GPUs of `h100-80`) in `a-block`'s evidence"});
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
  // Every repair, the least change first: cite, move, shrink.
  CHECK(
      offered["ranked.yaml a-all"] ==
      V{"cite `r-spare` (reservation of 8 GPUs of `h100-80`) in `a-all`'s evidence",
        "move `a-all` to start 2027-04-20 (the first window where its cited supply has 8 GPUs "
        "free)",
        "shrink `a-all` to 4 GPUs, what its cited supply covers, not below its minimum viable 4"});
  // No plan edit repairs these: the acquisition each needs, to the GPU and the hour, the
  // pool's service named; an open-ended window is advised an open-ended reservation; none
  // where the reservation would not back the pool (its service documents no capacity model).
  // `a-stuck` has nothing to cite and may not shrink below its minimum viable size; `a-never`
  // fits nowhere in its demand's window.
  const std::map<std::string, std::string> advised = {
      {"repairable.yaml a-stuck", "6 × h100-80 in eu-west, 2027-07-02..07-04"},
      {"movable.yaml a-never", "2 × h100-80 in eu-west, 2027-06-30..07-04"},
      {"acquire.yaml a-part", "4 × h100-80 in eu-west, 2027-04-19..04-22"},
      {"acquire.yaml a-hours", "8 × h100-80 in eu-west, 2027-05-03T08:00Z..05-03T18:00Z"},
      {"acquire.yaml a-hosted", "4 × h100-80 in eu-west with `hosted-train`, 2027-05-10..05-12"},
      {"acquire.yaml a-open", "2 × h100-80 in eu-west, from 2027-06-01, with no end date"},
      {"fires.yaml a-none", "8 × h100-80 in eu-west, 2027-06-01..06-03"},
      {"fires.yaml a-serve",
       "4 × l4-24 in eu-west, with no end date (`a-serve` holds its GPUs at all times)"}};
  for (const auto& [key, what] : advised) {
    INFO(key);
    std::string allocation = key.substr(key.find(' ') + 1);
    CHECK(offered[key] ==
          V{"help: reserve " + what + ", and cite it in `" + allocation + "`'s evidence"});
  }
  CHECK(offered.count("acquire.yaml a-undocumented") == 0);
  CHECK(offered.size() == 19);
}

TEST_CASE(
    "repair: an overcommitted pool, and research on a replacement pool, get the moves and "
    "shrinks their fixtures name",
    "[repair]") {
  testing::Offered offered = testing::CheckRepairs(testing::RepairFixtures("CAP-ALC-004"));
  testing::Offered on_replacement = testing::CheckRepairs(testing::RepairFixtures("CAP-ALC-001"));
  offered.insert(on_replacement.begin(), on_replacement.end());
  REQUIRE(HasRepairSearch("CAP-ALC-001"));
  REQUIRE(HasRepairSearch("CAP-ALC-004"));
  using V = std::vector<std::string>;
  // CAP-ALC-004: a move in time, block style and flow, to the hour.
  CHECK(offered["CAP-ALC-004 movable.yaml a-block"] ==
        V{"move `a-block` to start 2027-04-17T00:00Z (the first window where pool `train-eu` has 4 "
          "GPUs free)"});
  CHECK(offered["CAP-ALC-004 movable.yaml a-flow"] ==
        V{"move `a-flow` to start 2027-04-22T00:00Z (the first window where pool `batch-eu` has 4 "
          "GPUs free)"});
  // Another pool: the role it is on first; never a replacement pool, another
  // region, or one without room; inference stays on production.
  CHECK(offered["CAP-ALC-004 other-pool.yaml a-tune"] ==
        V{"move `a-tune` to pool `research-eu` (research, `h100-80` in `eu-west`, 4 GPUs free over "
          "its window)",
          "move `a-tune` to pool `shared-eu` (shared, `h100-80` in `eu-west`, 8 GPUs free over its "
          "window)"});
  CHECK(offered["CAP-ALC-004 other-pool.yaml a-burst"] ==
        V{"move `a-burst` to pool `serve-eu-b` (production, `l4-24` in `eu-west`, 4 GPUs free over "
          "its window)"});
  // A shrink to what is free, not below the minimum viable size, and none
  // for a training run that states no minimum.
  CHECK(offered["CAP-ALC-004 shrinkable.yaml a-train"] ==
        V{"shrink `a-train` to 10 GPUs, what pool `train-eu` has free beside the others over its "
          "window, not below its minimum viable 8"});
  CHECK(offered["CAP-ALC-004 shrinkable.yaml a-wide"] ==
        V{"shrink `a-wide` to 3 GPUs, what pool `tune-eu` has free beside the others over its "
          "window"});
  CHECK(offered.count("CAP-ALC-004 shrinkable.yaml a-stuck") == 0);
  CHECK(offered.count("CAP-ALC-004 shrinkable.yaml a-run") == 0);
  CHECK(offered.count("CAP-ALC-004 fires.yaml a-tune") == 0);
  CHECK(offered["CAP-ALC-004 ranked.yaml a-all"] ==
        V{"move `a-all` to start 2027-04-17 (the first window where pool `train-eu` has 8 GPUs "
          "free)",
          "move `a-all` to pool `shared-eu` (shared, `h100-80` in `eu-west`, 8 GPUs free over its "
          "window)",
          "shrink `a-all` to 4 GPUs, what pool `train-eu` has free beside the others over its "
          "window, not below its minimum viable 4"});
  // CAP-ALC-001: research or shared pools with room, never another
  // replacement pool.
  CHECK(offered["CAP-ALC-001 movable.yaml a-explore"] ==
        V{"move `a-explore` to pool `shared-eu` (shared, `l4-24` in `eu-west`, 4 GPUs free over "
          "its window)",
          "move `a-explore` to pool `research-eu` (research, `l4-24` in `eu-west`, 2 GPUs free "
          "over its window)"});
  CHECK(offered["CAP-ALC-001 movable.yaml a-block"] ==
        V{"move `a-block` to pool `shared-eu` (shared, `l4-24` in `eu-west`, 4 GPUs free over its "
          "window)"});
  CHECK(offered.count("CAP-ALC-001 movable.yaml a-big") == 0);
  CHECK(offered.count("CAP-ALC-001 fires.yaml a-explore") == 0);
  // Their fixtures' findings of other rules (CAP-SUP-005's advice) are not counted here.
  CHECK(testing::OfRule(offered, "CAP-ALC-004").size() +
            testing::OfRule(offered, "CAP-ALC-001").size() ==
        9);
}

TEST_CASE("repair: a pool too large to count, and GPUs past any pool, are offered nothing",
          "[repair]") {
  fs::path fixture = fs::path(capops::testing::SourceDir()) /
                     "policies/capops-ai/fixtures/CAP-ALC-004/other-pool.yaml";
  std::string text = testing::ReadText(fixture);
  auto insert_after = [&](const std::string& line, const std::string& added) {
    size_t at = text.find(line);
    REQUIRE(at != std::string::npos);
    text.insert(text.find('\n', at) + 1, added);
  };
  // hosts × GPUs per host past int64: the rule cannot count it, nor may the search.
  insert_after("  - {id: shared-eu,",
               "  - {id: big-eu, accelerator: h100-80, hosts: 9223372036854775807, gpus_per_host: "
               "2, region: eu-west, role: research}\n");
  insert_after("  - {id: a-small,",
               "  - {id: a-huge, demand: side, pool: small-eu, gpus: 9223372036854775807}\n"
               "  - {id: a-huger, demand: side, pool: small-eu, gpus: 9223372036854775807}\n");
  capops::testing::TempDir dir("capops-repair-hostile");
  testing::Offered offered = testing::CheckRepairs({dir.Write("other-pool.yaml", text)});
  using V = std::vector<std::string>;
  CHECK(offered["CAP-ALC-004 other-pool.yaml a-tune"] ==
        V{"move `a-tune` to pool `research-eu` (research, `h100-80` in `eu-west`, 4 GPUs free over "
          "its window)",
          "move `a-tune` to pool `shared-eu` (shared, `h100-80` in `eu-west`, 8 GPUs free over its "
          "window)"});
  CHECK(offered.count("CAP-ALC-004 other-pool.yaml a-huge") == 0);
  CHECK(offered.count("CAP-ALC-004 other-pool.yaml a-huger") == 0);
}

TEST_CASE("repair: every rule with a search has its fixtures' repairs checked by a case",
          "[repair]") {
  // The cases that walk each rule's fixtures (this file, hold_search_test.cc,
  // floor_search_test.cc).
  const std::set<std::string> walked = {"CAP-SUP-005", "CAP-ALC-004", "CAP-ALC-001", "CAP-ALC-009",
                                        "CAP-DEM-006", "CAP-DEM-003", "CAP-ALC-003", "CAP-ALC-002"};
  for (const fs::path& fixture : testing::RepairFixtures()) {
    INFO(fixture.string());
    CHECK(walked.count(fixture.parent_path().filename().string()) == 1);
  }
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
    for (const Json& e : v["evidence"]) {
      if (e["name"] == "a") CHECK(e["value"] == "a-need");
    }
    for (const Json& f : v["fixes"]) offered.push_back(f["description"]);
  }
  CHECK(offered ==
        std::vector<std::string>{
            "cite `r-big` (reservation of 16 GPUs of `h100-80`) in `a-need`'s evidence"});
}

TEST_CASE("repair: every search runs over every repair fixture and gives edits of its plan",
          "[repair]") {
  // The searches' code under the sanitizers: each rule's fixtures linted
  // together, once (a process per rule, the pack compiled once for all of
  // them). The walks that prove each repair again (the cases above) are
  // verdicts, run in the normal build only (CMakePresets.json).
  std::map<std::string, std::set<std::string>> by_rule;  // rule → its fixtures
  for (const fs::path& fixture : testing::RepairFixtures())
    by_rule[fixture.parent_path().filename().string()].insert(fixture.string());
  for (const auto& [rule, fixtures] : by_rule) {
    INFO(rule);
    std::vector<std::string> args = {"--no-config", "--format", "json", "--max-repair-lints",
                                     "1000"};
    args.insert(args.end(), fixtures.begin(), fixtures.end());
    auto r = capops::testing::RunCli(args);
    REQUIRE(r.exit_code <= 1);
    const Json report = Json::parse(r.out);
    size_t repaired = 0;
    for (const Json& v : report["violations"]) {
      for (const Json& fix : v["fixes"]) {
        CHECK_FALSE(fix["replacements"].empty());
        for (const Json& e : fix["replacements"]) CHECK(fixtures.count(e["file"]) == 1);
        if (v["rule"] == rule) ++repaired;
      }
    }
    // Each rule with a search repairs something on its own fixtures.
    CHECK(repaired > 0);
  }
}

TEST_CASE("repair: each repair offered on the shipped example, applied, holds", "[repair]") {
  fs::path example = fs::path(capops::testing::SourceDir()) / "examples/visual-inspection";
  testing::Offered offered =
      testing::CheckRepairs({example / "plan.yaml"}, (example / "inventory.yaml").string());
  CHECK_FALSE(offered.empty());
  // Exploration on the replacement pool has nowhere to go: the inventory
  // has no research or shared pool of L4s in eu-west, and moving it to
  // other hardware or onto production headroom is the planner's call.
  CHECK(offered.count("CAP-ALC-001 plan.yaml a-explore") == 0);
}

TEST_CASE("repair: an error is known by the records it is about and where its values are",
          "[repair]") {
  auto finding = [](std::string window, std::string shown) {
    eval::Violation v;
    v.rule_id = "CAP-DEM-014";
    v.evidence.push_back({"a", "a-x", {1, 3, 5}, false, "allocation `a-x`"});
    v.evidence.push_back({"w", std::move(window), {1, 4, 9}, false, std::move(shown)});
    v.evidence.push_back({"n", "4", {}, false, ""});  // not of the facts: not part of it
    return v;
  };
  // The same error after a repair moved the window it names.
  eval::Violation before = finding("{start: 2027-04-01, end: 2027-04-09}",
                                   "allocation `a-x`: `window` is {start: 2027-04-01, …}");
  eval::Violation after = finding("{start: 2027-04-05, end: 2027-04-13}",
                                  "allocation `a-x`: `window` is {start: 2027-04-05, …}");
  CHECK(ErrorKey(before) == ErrorKey(after));
  // Another record's: another error.
  eval::Violation other = after;
  other.evidence[0] = {"a", "a-y", {2, 3, 5}, false, "allocation `a-y`"};
  CHECK(ErrorKey(other) != ErrorKey(after));
  // A value without its place in words is known by itself.
  eval::Violation bare = finding("{start: 2027-04-01}", "");
  CHECK(ErrorKey(bare) != ErrorKey(finding("{start: 2027-04-05}", "")));
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

TEST_CASE("repair: what is left free over a window is found by one sweep", "[repair]") {
  auto day = [](int64_t n) { return n * DateTime::kSecondsPerDay; };
  // A pool of 16 GPUs; 12 taken from day 12 to 17, 6 from day 15 to 20.
  std::vector<Held> pool{{INT64_MIN, INT64_MAX, 16}};
  std::vector<Held> taken{{day(12), day(17), 12}, {day(15), day(20), 6}};
  CHECK(LeastFree(pool, taken, day(1), day(12)) == 16);
  CHECK(LeastFree(pool, taken, day(10), day(13)) == 4);
  CHECK(LeastFree(pool, taken, day(16), day(17)) == -2);
  CHECK(LeastFree(pool, taken, day(17), day(30)) == 10);
  // The window's end is not in it, its start is.
  CHECK(LeastFree(pool, taken, day(1), day(15)) == 4);
  CHECK(LeastFree(pool, taken, day(20), day(21)) == 16);
  CHECK(LeastFree(pool, taken, day(19), day(21)) == 10);
  // Open sides: all time sees the worst moment; taken for all time is taken everywhere.
  CHECK(LeastFree(pool, taken, INT64_MIN, INT64_MAX) == -2);
  CHECK(LeastFree(pool, {{INT64_MIN, INT64_MAX, 3}}, day(5), INT64_MAX) == 13);
  CHECK(LeastFree(pool, taken, day(18), INT64_MAX) == 10);
  // Supply held for a while only, and nothing at all.
  CHECK(LeastFree({{day(10), day(20), 8}}, {}, day(5), day(15)) == 0);
  CHECK(LeastFree({{day(10), day(20), 8}}, {}, day(10), day(20)) == 8);
  CHECK(LeastFree({}, {}, day(1), day(2)) == 0);
  // Amounts past int64 saturate rather than wrap: never room.
  CHECK(LeastFree(pool, {{day(1), day(2), INT64_MAX}, {day(1), day(2), INT64_MAX}}, day(1),
                  day(2)) == INT64_MIN);
  CHECK(LeastFree({{INT64_MIN, INT64_MAX, INT64_MAX}, {day(1), day(2), INT64_MAX}}, {}, day(1),
                  day(2)) == INT64_MAX);
  // An allocation ending as another starts does not overlap it.
  CHECK(LeastFree(pool, {{day(1), day(3), 10}, {day(3), day(5), 10}}, day(1), day(5)) == 6);
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
  testing::Loaded l(text);
  auto add = [&](const std::string& id, const std::string& item) {
    return testing::Edited(text, AddToList(l.file, text, l.At(id), "evidence", item));
  };
  CHECK(testing::Line(add("a", "r3"), 2) ==
        "  - {id: a, gpus: 4, evidence: [r1 , \"r2\", r3]}  # keep");
  CHECK(testing::Line(add("b", "r3"), 3) == "  - {id: b, gpus: \"8\", evidence: [r3]}");
  CHECK(testing::Line(add("c", "r 3"), 4) == "  - {id: c, gpus: 2, evidence: [\"r 3\"]}");
  std::string d = add("d", "r3");
  CHECK(testing::Line(d, 7) == "      - r1  # first");
  CHECK(testing::Line(d, 8) == "      - r3");
  CHECK(testing::Line(d, 9) == "    gpus: 16");
  std::string e = add("e", "r3");
  CHECK(testing::Line(e, 10) == "    id: e");
  CHECK(testing::Line(e, 11) == "    evidence: [r3]");
  // Every edit only inserts: the text with the insertion taken out is the original.
  for (const std::string& edited : {add("a", "r3"), add("b", "r3"), d, e})
    CHECK(edited.size() > text.size());
  CHECK(testing::Line(testing::Edited(text, std::vector<Replacement>{*ReplaceScalar(
                                                l.file, text, *l.At("b").Field("gpus"), "6")}),
                      3) == "  - {id: b, gpus: 6, evidence: []}");
  CHECK(testing::Line(testing::Edited(text, std::vector<Replacement>{*ReplaceScalar(
                                                l.file, text, *l.At("d").Field("gpus"), "12")}),
                      8) == "    gpus: 12");
  // A key there that is no list is not added to.
  CHECK(testing::Edited(text, AddToList(l.file, text, l.At("a"), "gpus", "x")) == "(none)");
  CHECK(YamlScalar("r-apr_2.x/y") == "r-apr_2.x/y");
  CHECK(YamlScalar("-r") == "\"-r\"");
  CHECK(YamlScalar("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(YamlScalar("") == "\"\"");
}

}  // namespace
}  // namespace capops::repair
