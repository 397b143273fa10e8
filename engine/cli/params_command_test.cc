// SPDX-License-Identifier: Apache-2.0
// `capops-lint params`: every param with its default, the value in force and
// where it was set, per-rule values and readers; a bad config exits 2.
#include "engine/cli/params_command.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "engine/cli/driver.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::cli {
namespace {

// The golden case's pack: two rules read `max_gpus`, one through a function.
const std::string kPack = testing::SourceDir() + "/tests/golden/params-command/pack";
// Reports name a policy file outside the working directory by its path in its pack.
const std::string kPackFile = "pack/gpu.cpl";

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("params: lists values, where they were set and their readers", "[cli][params]") {
  testing::TempDir dir("capops-params");
  std::string config = dir.Write(".capops.yaml",
                                 "params:\n"
                                 "  team.gpu: {lead: 3d}\n"
                                 "rules:\n"
                                 "  params:\n"
                                 "    GPU-001: {max_gpus: 4}\n");
  testing::CliResult r = testing::RunCli({"params", "--policies", kPack, "--config", config});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == kExitClean);
  CHECK(Has(r.out, "team.gpu.max_gpus: int = 8  (pack default, "));
  std::string max = kPackFile + ":4)\n";
  max += "  for GPU-001: 4  (" + config + ":5)\n";
  max += "  read by: GPU-001, GPU-002\n";
  CHECK(Has(r.out, max));
  std::string lead = "team.gpu.lead: duration = 3d  (" + config + ":2)\n";
  lead += "  default: 2d  (";
  CHECK(Has(r.out, lead));
  lead = kPackFile + ":6)\n";
  lead += "  read by: no rule\n";
  CHECK(Has(r.out, lead));
  CHECK(Has(r.out, "\n3 params\n"));

  testing::CliResult j =
      testing::RunCli({"params", "--policies", kPack, "--config", config, "--format", "json"});
  REQUIRE(j.exit_code == kExitClean);
  nlohmann::json first = nlohmann::json::parse(j.out)["params"][0];
  CHECK(first["name"] == "team.gpu.max_gpus");
  CHECK(first["value"] == 8);
  CHECK(first["level"] == "default");
  CHECK(first["rules"] == nlohmann::json::parse(R"([{"rule": "GPU-001", "value": 4, "set_at": ")" +
                                                config + R"(:5"}])"));
  CHECK(first["read_by"] == nlohmann::json::parse(R"(["GPU-001", "GPU-002"])"));
}

TEST_CASE("params: a config the params cannot take exits 2, saying where", "[cli][params]") {
  testing::TempDir dir("capops-params");
  std::string config = dir.Write(".capops.yaml", "rules:\n  params:\n    GPU-001: {lead: 1d}\n");
  testing::CliResult r = testing::RunCli({"params", "--policies", kPack, "--config", config});
  CHECK(r.exit_code == kExitUsage);
  CHECK(Has(r.err, "error[config]: `GPU-001` does not read `lead`"));
  CHECK(Has(r.err, config + ":3:21"));
  CHECK(Has(r.err, "= help: it reads `max_gpus`"));
  CHECK(r.out.empty());
}

}  // namespace
}  // namespace capops::cli
