// SPDX-License-Identifier: Apache-2.0
// The repairs of CAP-ALC-009 (a window cut to its hold), CAP-DEM-006 (a
// training run started earlier, or its minimum viable size raised) and
// CAP-DEM-003 (exploration reduced to its cap), exactly as offered on their
// fixtures, and the window edits they are written with.
#include <catch2/catch.hpp>

#include "engine/common/units.h"
#include "engine/repair/plan_edits.h"
#include "engine/repair/repair_test_support.h"
#include "engine/repair/search.h"
#include "tests/support/temp_dir.h"

namespace capops::repair {
namespace {

using V = std::vector<std::string>;

int64_t Seconds(const char* date) {
  DateTime t;
  std::string error;
  REQUIRE(ParseDateTime(date, &t, &error));
  return t.seconds;
}

// What a rule's search offers for the findings of one record of a fixture
// ("file record"), in order; none: no repair proved.
struct Offer {
  const char* rule;
  const char* key;
  V descriptions;
};

const Offer kOffers[] = {
    // The start and the way the window is written kept: an `end` or a
    // `duration`, a date or a date-time at its offset.
    {"CAP-ALC-009",
     "fires.yaml a-tune",
     {"cut `a-tune`'s window to its maximum holding period: 3d from `2027-05-01`, ending "
      "`2027-05-04`"}},
    {"CAP-ALC-009",
     "repairable.yaml a-end",
     {"cut `a-end`'s window to its maximum holding period: 3d from `2027-05-01`, ending "
      "`2027-05-04`"}},
    {"CAP-ALC-009",
     "repairable.yaml a-block",
     {"cut `a-block`'s window to its maximum holding period: 8h from `2027-05-03T09:00+02:00`, "
      "ending `2027-05-03T17:00+02:00`"}},
    {"CAP-ALC-009",
     "repairable.yaml a-hours",
     {"cut `a-hours`'s window to its maximum holding period: 1d12h from `2027-06-01`, ending "
      "`2027-06-02T12:00Z`"}},
    // Held over its demand's window: a window of its own, the demand's kept.
    {"CAP-ALC-009",
     "fires.yaml a-explore",
     {"give `a-explore` a window of its own, its maximum holding period: 3d from `2027-04-01`, "
      "ending `2027-04-04` (from the start of demand `explore`'s window)"}},
    {"CAP-ALC-009",
     "repairable.yaml a-inherit",
     {"give `a-inherit` a window of its own, its maximum holding period: 3d from `2027-04-01`, "
      "ending `2027-04-04` (from the start of demand `explore`'s window)"}},
    // A window written as an alias of another allocation's is not cut.
    {"CAP-ALC-009", "repairable.yaml a-alias", {}},
    {"CAP-DEM-006",
     "fires.yaml train",
     {"start `train` on `2027-04-16` (10d at 8 GPUs): the latest start from which training "
      "`train` at its minimum viable size ends by its business window end `2027-04-26`",
      "raise `train`'s minimum viable size to 12 GPUs, the smallest at which its run ends by its "
      "business window end `2027-04-26` (its preferred size is 16)"}},
    {"CAP-DEM-006",
     "fires-allocations.yaml train",
     {"start `a-train` on `2027-04-11` (14d at 8 GPUs): the latest start from which training "
      "`train` at its minimum viable size ends by its business window end `2027-04-25`",
      "raise `train`'s minimum viable size to 9 GPUs, the smallest at which its run ends by its "
      "business window end `2027-04-25` (its preferred size is 16)"}},
    {"CAP-DEM-006",
     "repairable.yaml train",
     {"start `train` (with `a-train`) on `2027-04-16T00:00Z` (10d at 8 GPUs): the latest start "
      "from which training `train` at its minimum viable size ends by its business window end "
      "`2027-04-26`",
      "raise `train`'s minimum viable size to 12 GPUs, the smallest at which its run ends by its "
      "business window end `2027-04-26` (its preferred size is 16)"}},
    {"CAP-DEM-006",
     "repairable.yaml sweep",
     {"start `a-late` on `2027-05-07` (8d at 8 GPUs): the latest start from which training "
      "`sweep` at its minimum viable size ends by its business window end `2027-05-15`",
      "raise `sweep`'s minimum viable size to 13 GPUs, the smallest at which its run ends by its "
      "business window end `2027-05-15` (its preferred size is 16)"}},
    // Too late at its preferred size, and an earlier start leaves its supply.
    {"CAP-DEM-006", "repairable.yaml stuck", {}},
    {"CAP-DEM-003",
     "repairable.yaml explore-big",
     {"reduce exploration demand `explore-big` and allocation `a-big` to 2 accelerators, the "
      "exploration cap (`exploration_cap`)"}},
    {"CAP-DEM-003",
     "repairable.yaml explore-block",
     {"reduce exploration demand `explore-block` to 2 accelerators, the exploration cap "
      "(`exploration_cap`)"}},
    // Not stoppable at checkpoints as well: no reduction repairs that.
    {"CAP-DEM-003", "repairable.yaml explore-stuck", {}},
    {"CAP-DEM-003", "fires.yaml explore", {}},
};

TEST_CASE("repair: holds, business windows and the exploration cap, as offered on their fixtures",
          "[repair]") {
  testing::Offered all;
  for (const char* rule : {"CAP-ALC-009", "CAP-DEM-006", "CAP-DEM-003"}) {
    // Their fixtures' findings of other rules (CAP-SUP-005's advice) are
    // checked by CheckRepairs, counted by those rules' cases.
    for (auto& [key, descriptions] :
         testing::OfRule(testing::CheckRepairs(testing::RepairFixtures(rule)), rule))
      all[std::string(rule) + " " + key] = descriptions;
  }
  size_t offered = 0;
  for (const Offer& o : kOffers) {
    INFO(o.rule << " " << o.key);
    auto it = all.find(std::string(o.rule) + " " + o.key);
    CHECK((it == all.end() ? V{} : it->second) == o.descriptions);
    offered += o.descriptions.empty() ? 0 : 1;
  }
  // Nothing else offered.
  CHECK(all.size() == offered);
}

TEST_CASE("repair: exploration is reduced to the cap the organisation set", "[repair]") {
  capops::testing::TempDir dir("capops-cap");
  std::string config = dir.Write("capops.yaml", "params:\n  exploration_cap: 3\n");
  testing::Offered cap = testing::OfRule(
      testing::CheckRepairs(testing::RepairFixtures("CAP-DEM-003"), "", {"--config", config}),
      "CAP-DEM-003");
  CHECK(cap["repairable.yaml explore-big"] ==
        V{"reduce exploration demand `explore-big` and allocation `a-big` to 3 accelerators, the "
          "exploration cap (`exploration_cap`)"});
  // Its 3 accelerators are within a cap of 3.
  CHECK(cap.count("repairable.yaml explore-block") == 0);
  CHECK(cap.size() == 1);
}

TEST_CASE("repair: a window is cut, moved and added as it is written", "[repair]") {
  const std::string text =
      "allocations:\n"
      "  - {id: a, window: {start: 2027-05-01, end: 2027-05-11}}  # keep\n"
      "  - id: b\n"
      "    window:\n"
      "      start: 2027-05-03T09:00+02:00\n"
      "      duration: 2d  # the sweep\n"
      "  - {id: c, window: {start: 2027-06-01, end: 2027-06-05, duration: 4d}}\n"
      "  - {id: d, gpus: 1}\n"
      "  - {id: e, window: &w {start: 2027-07-01, end: 2027-07-11}}\n"
      "  - {id: f, window: *w}\n";
  testing::Loaded l(text);
  auto cut = [&](const char* id, int64_t length) {
    return testing::Edited(text, CutWindow(l.file, text, *l.At(id).Field("window"), length));
  };
  auto move = [&](const char* id, const char* start) {
    return testing::Edited(text,
                           MoveWindow(l.file, text, *l.At(id).Field("window"), Seconds(start)));
  };
  constexpr int64_t kHour = 3600, kDay = DateTime::kSecondsPerDay;
  CHECK(testing::Line(cut("a", 3 * kDay), 2) ==
        "  - {id: a, window: {start: 2027-05-01, end: 2027-05-04}}  # keep");
  // A plain date moved by less than whole days is a UTC date-time.
  CHECK(testing::Line(cut("a", 36 * kHour), 2) ==
        "  - {id: a, window: {start: 2027-05-01, end: 2027-05-02T12:00Z}}  # keep");
  CHECK(testing::Line(cut("b", 8 * kHour), 6) == "      duration: 8h  # the sweep");
  // Both written: both cut, so that they still agree.
  CHECK(testing::Line(cut("c", kDay), 7) ==
        "  - {id: c, window: {start: 2027-06-01, end: 2027-06-02, duration: 1d}}");
  CHECK(cut("c", 0) == "(none)");
  CHECK(testing::Line(move("a", "2027-04-28"), 2) ==
        "  - {id: a, window: {start: 2027-04-28, end: 2027-05-08}}  # keep");
  // At its own offset; its duration kept.
  std::string b = move("b", "2027-05-02T07:00Z");
  CHECK(testing::Line(b, 5) == "      start: 2027-05-02T09:00+02:00");
  CHECK(testing::Line(b, 6) == "      duration: 2d  # the sweep");
  // No date can be written before the year 0000 or after 9999.
  CHECK(move("a", "0000-01-01") != "(none)");
  int64_t year0 = Seconds("0000-01-01");
  CHECK(testing::Edited(text, MoveWindow(l.file, text, *l.At("a").Field("window"), year0 - 1)) ==
        "(none)");
  CHECK(cut("a", Seconds("9999-12-31") - Seconds("2027-05-01")) != "(none)");
  CHECK(cut("a", Seconds("9999-12-31") + kDay - Seconds("2027-05-01")) == "(none)");
  // An alias is not its anchor: neither is edited.
  CHECK(cut("f", kDay) == "(none)");
  CHECK(move("f", "2027-06-01") == "(none)");
  auto add = [&](const char* id, const char* key, const char* value) {
    return testing::Edited(text, AddEntry(l.file, text, l.At(id), key, value));
  };
  CHECK(testing::Line(add("d", "window", "{start: 2027-04-01, duration: 3d}"), 8) ==
        "  - {id: d, gpus: 1, window: {start: 2027-04-01, duration: 3d}}");
  std::string added = add("b", "max_hold", "8h");
  CHECK(testing::Line(added, 3) == "  - id: b");
  CHECK(testing::Line(added, 4) == "    max_hold: 8h");
  CHECK(testing::Line(added, 5) == "    window:");
  // Written already: not written twice.
  CHECK(add("a", "window", "{start: 2027-04-01, duration: 3d}") == "(none)");
  CHECK(add("b", "window", "{start: 2027-04-01, duration: 3d}") == "(none)");
}

}  // namespace
}  // namespace capops::repair
