// SPDX-License-Identifier: Apache-2.0
// The repairs of the production floor's rules, exactly as offered on their
// fixtures. CAP-ALC-003 (research on a production pool taking more than
// its floors leave): moved in time to where the pool has its GPUs free
// above the floors, moved to a research or shared pool, shrunk to what is
// left above the floors. CAP-ALC-002 (a floor held short): an allocation
// holding it grown where its pool has the room.
#include <catch2/catch.hpp>

#include "engine/repair/repair.h"
#include "engine/repair/repair_test_support.h"
#include "tests/support/temp_dir.h"

namespace capops::repair {
namespace {

using V = std::vector<std::string>;

TEST_CASE("repair: research above a production floor is moved or shrunk as its fixtures name",
          "[repair]") {
  REQUIRE(HasRepairSearch("CAP-ALC-003"));
  // Its fixtures' findings of other rules (CAP-ALC-004's) are checked by
  // CheckRepairs, counted by those rules' cases.
  testing::Offered offered =
      testing::OfRule(testing::CheckRepairs(testing::RepairFixtures("CAP-ALC-003")), "CAP-ALC-003");
  const std::string left =
      "what pool `serve-eu` has left above its floors and the other research "
      "over its window";
  // Tuning states no minimum: the GPUs left above the floor, whichever
  // stretch is the worst (the floor starting in its window, or serving
  // with more than its floor).
  CHECK(offered["fires.yaml a-tune"] == V{"shrink `a-tune` to 4 GPUs, " + left});
  CHECK(offered["fires-during.yaml a-tune"] == V{"shrink `a-tune` to 2 GPUs, " + left});
  CHECK(offered["fires-serving.yaml a-tune"] == V{"shrink `a-tune` to 2 GPUs, " + left});
  // A move in time alone, to the hour, its end moving with it.
  CHECK(offered["movable.yaml a-probe"] ==
        V{"move `a-probe` to start 2027-04-17T00:00Z (the first window where pool `serve-eu` above "
          "the floors it keeps has 4 GPUs free)"});
  // Research and shared pools with room, the most free first; never a
  // replacement pool, production headroom, or another region.
  CHECK(offered["other-pool.yaml a-tune"] ==
        V{"move `a-tune` to pool `shared-eu` (shared, `l4-24` in `eu-west`, 8 GPUs free over its "
          "window)",
          "move `a-tune` to pool `research-eu` (research, `l4-24` in `eu-west`, 6 GPUs free over "
          "its window)",
          "shrink `a-tune` to 4 GPUs, " + left});
  // The floor of a demand served from two pools is kept on each, once
  // however many allocations serve it there; never below the minimum viable.
  CHECK(offered["shrinkable.yaml a-train"] ==
        V{"shrink `a-train` to 2 GPUs, what pool `serve-eu-b` has left above its floors and the "
          "other research over its window, not below its minimum viable 2"});
  CHECK(offered.count("shrinkable.yaml a-stuck") == 0);
  // Every repair, the least change first: when, where, how much.
  CHECK(offered["ranked.yaml a-all"] ==
        V{"move `a-all` to start 2027-04-17 (the first window where pool `serve-eu` above the "
          "floors it keeps has 8 GPUs free)",
          "move `a-all` to pool `shared-eu` (shared, `l4-24` in `eu-west`, 8 GPUs free over its "
          "window)",
          "shrink `a-all` to 4 GPUs, " + left + ", not below its minimum viable 4"});
  CHECK(offered.size() == 7);
}

TEST_CASE("repair: a floor held short is grown where its pool has room, as its fixtures name",
          "[repair]") {
  REQUIRE(HasRepairSearch("CAP-ALC-002"));
  testing::Offered offered =
      testing::OfRule(testing::CheckRepairs(testing::RepairFixtures("CAP-ALC-002")), "CAP-ALC-002");
  CHECK(offered["repairable.yaml serve"] ==
        V{"grow `a-serve` to 4 GPUs, adding the 2 demand `serve` lacks (pool `serve-eu` has 8 "
          "free beside the others over its window)"});
  CHECK(offered["repairable.yaml block"] ==
        V{"grow `a-block` to 8 GPUs, adding the 4 demand `block` lacks (pool `block-eu` has 16 "
          "free beside the others over its window)"});
  // A continuous service keeps the larger of its floor and its GPUs.
  CHECK(offered["fires-continuous.yaml serve"] ==
        V{"grow `a-serve` to 4 GPUs, adding the 2 demand `serve` lacks (pool `serve-eu` has 4 "
          "free beside the others over its window)"});
  CHECK(offered["fires-no-floor.yaml serve"] ==
        V{"grow `a-serve` to 4 GPUs, adding the 3 demand `serve` lacks (pool `serve-eu` has 4 "
          "free beside the others over its window)"});
  // Its pool full beside the others: nothing to grow into.
  CHECK(offered.count("repairable.yaml tight") == 0);
  // The rest of its floor stands on a replacement pool: grown on
  // production, the demand would be allocated more than it asks
  // (CAP-DEM-012), so the relint refuses it; what to give up is the
  // planner's call.
  CHECK(offered.count("fires.yaml serve") == 0);
  CHECK(offered.size() == 4);
}

TEST_CASE("repair: research above a production floor is what the organisation counts as research",
          "[repair]") {
  // `serve` protects 4 GPUs on each pool it is served from; on `serve-eu`
  // (8 L4s) exploration takes 2 and training `a-train` 5, the pool's
  // allocations (8) fitting it.
  const std::string plan =
      "apiVersion: capops.dev/v1\n"
      "kind: Inventory\n"
      "accelerator_types:\n"
      "  - {id: l4-24, model: L4, memory: 24GiB, interconnect: pcie4}\n"
      "pools:\n"
      "  - {id: serve-eu, accelerator: l4-24, hosts: 2, gpus_per_host: 4, region: eu-west, role: "
      "production, service_owner: svc-owner, failure_domain: eu-west-hall-a}\n"
      "  - {id: serve-eu-b, accelerator: l4-24, hosts: 2, gpus_per_host: 4, region: eu-west, role: "
      "production, service_owner: svc-owner, failure_domain: eu-west-hall-c}\n"
      "supply:\n"
      "  - {id: pc-l4, kind: physical-confirmation, accelerator: l4-24, region: eu-west, gpus: 64, "
      "confirmation: {by: dc-operations-eu, date: 2027-03-01}}\n"
      "---\n"
      "apiVersion: capops.dev/v1\n"
      "kind: CapacityPlan\n"
      "metadata: {name: slices, owner: test}\n"
      "demands:\n"
      "  - {id: serve, slice: inference, accelerator: l4-24, image: serve:1, gpus: 4, continuous: "
      "true, floor: 4}\n"
      "  - {id: explore, slice: exploration, gpus: 2}\n"
      "  - {id: train, slice: training, window: {start: 2027-05-01, end: 2027-05-10}, "
      "minimum_viable: {gpus: 2}}\n"
      "allocations:\n"
      "  - {id: a-serve, demand: serve, pool: serve-eu, gpus: 1, evidence: [pc-l4]}\n"
      "  - {id: a-serve-b, demand: serve, pool: serve-eu-b, gpus: 3, evidence: [pc-l4]}\n"
      "  - {id: a-explore, demand: explore, pool: serve-eu, gpus: 2, evidence: [pc-l4], approval: "
      "{by: svc-owner, role: service-owner}}\n"
      "  - {id: a-train, demand: train, pool: serve-eu, gpus: 5, evidence: [pc-l4], approval: {by: "
      "svc-owner, role: service-owner}}\n";
  capops::testing::TempDir dir("capops-floor-slices");
  std::string file = dir.Write("slices.yaml", plan);
  const std::string left =
      " GPUs, what pool `serve-eu` has left above its floors and the other "
      "research over its window, not below its minimum viable 2";
  // By default exploration is research: 2 are left beside it.
  testing::Offered by_default = testing::OfRule(testing::CheckRepairs({file}), "CAP-ALC-003");
  CHECK(by_default["slices.yaml a-train"] == V{"shrink `a-train` to 2" + left});
  CHECK(by_default.size() == 1);
  // Where exploration is not, it takes nothing the rule counts: 4 are left.
  std::string config = dir.Write("capops.yaml", "params:\n  research_slices: [training, tuning]\n");
  testing::Offered counted =
      testing::OfRule(testing::CheckRepairs({file}, "", {"--config", config}), "CAP-ALC-003");
  CHECK(counted["slices.yaml a-train"] == V{"shrink `a-train` to 4" + left});
  CHECK(counted.size() == 1);
}

}  // namespace
}  // namespace capops::repair
