// SPDX-License-Identifier: Apache-2.0
// ClosestName, the one did-you-mean over names: the spellings users get
// wrong (case, `-` for `_`, plural for singular, a word for a longer name)
// and hostile ones (non-ASCII, invalid UTF-8, very long) that must cost
// little and suggest nothing odd.
#include "engine/common/diagnostic.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

namespace capops {
namespace {

// The fields of the shipped `Inventory` and `CapacityPlan` documents and a
// few of `Demand`: what most did-you-means are over.
const std::vector<std::string> kInventory = {"accelerator_types", "pools", "supply",
                                             "managed_services"};
const std::vector<std::string> kPlan = {"metadata", "demands", "allocations", "substitutes",
                                        "decision"};
const std::vector<std::string> kDemand = {"id",       "slice",   "accelerator", "gpus",
                                          "hosts",    "regions", "window",      "floor",
                                          "based_on", "max_hold"};

TEST_CASE("ClosestName matches case, separators, number and words", "[common][suggest]") {
  struct Row {
    const char* name;
    const std::vector<std::string>* candidates;
    const char* expected;
  };
  const std::vector<Row> rows = {
      // The same name, spelt otherwise.
      {"Pools", &kInventory, "pools"},
      {"POOLS", &kInventory, "pools"},
      {"accelerator-types", &kInventory, "accelerator_types"},
      {"Accelerator Types", &kInventory, "accelerator_types"},
      {"managed-services", &kInventory, "managed_services"},
      // Singular for plural and back.
      {"pool", &kInventory, "pools"},
      {"Pool", &kInventory, "pools"},
      {"allocation", &kPlan, "allocations"},
      {"demand", &kPlan, "demands"},
      {"substitute", &kPlan, "substitutes"},
      {"region", &kDemand, "regions"},
      {"gpu", &kDemand, "gpus"},
      {"floors", &kDemand, "floor"},
      {"supplies", &kInventory, "supply"},
      // A word of a longer name, when only one candidate has it.
      {"accelerators", &kInventory, "accelerator_types"},
      {"accelerator", &kInventory, "accelerator_types"},
      {"services", &kInventory, ""},  // not the first word
      {"based", &kDemand, "based_on"},
      // Small edits, as before.
      {"poolz", &kInventory, "pools"},
      {"alocations", &kPlan, "allocations"},
      {"slcie", &kDemand, "slice"},
      {"floro", &kDemand, "floor"},
      // Nothing close.
      {"colour", &kDemand, ""},
      {"zzzzzzzz", &kPlan, ""},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    CHECK(ClosestName(row.name, *row.candidates) == row.expected);
  }
}

TEST_CASE("ClosestName prefers the closest kind of match", "[common][suggest]") {
  // The exact spelling beats a plural that comes first.
  CHECK(ClosestName("pool", {"pools", "pool"}) == "pool");
  // Plural beats one edit that comes first.
  CHECK(ClosestName("pool", {"tool", "pools"}) == "pools");
  // A word shared by several candidates suggests none of them.
  CHECK(ClosestName("accelerators", {"accelerator_types", "accelerator_count"}).empty());
  // Too short a word is no prefix: `s` and `id` are parts of many names.
  CHECK(ClosestName("s", {"s_list"}).empty());
  CHECK(ClosestName("ids", {"id_map"}).empty());
}

TEST_CASE("ClosestName survives hostile names cheaply", "[common][suggest]") {
  const std::vector<std::string> names = {"pools", "accelerator_types", "région", "supply"};
  // Non-ASCII bytes are compared as they are; case folds only for ASCII,
  // and `É` for `é` is a one-byte edit.
  CHECK(ClosestName("régions", names) == "région");
  CHECK(ClosestName("RÉGION", names) == "région");
  CHECK(ClosestName("ölö", names).empty());
  // Invalid UTF-8, controls, NUL and separators alone.
  CHECK(ClosestName(std::string("po\xff\xfels"), names) == "pools");
  CHECK(ClosestName(std::string("\0\0\0", 3), names).empty());
  CHECK(ClosestName("___", names).empty());
  CHECK(ClosestName("-", names).empty());
  CHECK(ClosestName("", names).empty());
  CHECK(ClosestName("pools", {}).empty());
  CHECK(ClosestName("pools", {""}).empty());

  // Very long names and candidates: no suggestion past the cap, and no
  // quadratic work (a 1 MB key against a thousand 1 MB ids).
  std::string huge(1 << 20, 'p');
  std::vector<std::string> many(1000, huge);
  auto start = std::chrono::steady_clock::now();
  CHECK(ClosestName(huge, many).empty());
  CHECK(ClosestName(huge + "s", names).empty());
  CHECK(ClosestName("pools", many).empty());
  std::string near(kMaxSuggestedName, 'a');
  std::vector<std::string> near_many(1000, near + "b");
  CHECK(ClosestName(near, near_many) == near + "b");
  auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(elapsed < std::chrono::seconds(5));
}

}  // namespace
}  // namespace capops
