// SPDX-License-Identifier: Apache-2.0
// The repairs of CAP-ALC-003 (research on a production pool taking more
// than its floors leave), exactly as offered on its fixtures: moved in time
// to where the pool has its GPUs free above the floors, moved to a research
// or shared pool, shrunk to what is left above the floors.
#include <catch2/catch.hpp>

#include "engine/repair/repair.h"
#include "engine/repair/repair_test_support.h"

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

}  // namespace
}  // namespace capops::repair
