// SPDX-License-Identifier: Apache-2.0
// `explain NAME`: a rule found by id or by name; a name two packages use is
// ambiguous and lists both rules rather than explaining either.
#include "engine/cli/explain_command.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "engine/cli/driver.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::cli {
namespace {

namespace fs = std::filesystem;

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string Rule(const std::string& package, const std::string& id) {
  return "package " + package + "\n\n@id(\"" + id + R"(") @severity(error)
rule big {
  for a in plan.allocations
  where a.gpus > 100
  deny at a.gpus "allocation `{a.id}` is big"
}
)";
}

TEST_CASE("explain: a rule name used in two packages is ambiguous", "[cli]") {
  testing::TempDir tmp("capops-explain-test");
  const fs::path& dir = tmp.dir();
  tmp.Write("one.cpl", Rule("team.one", "ONE-001"));
  tmp.Write("two.cpl", Rule("team.two", "TWO-001"));

  testing::CliResult r = testing::RunCli({"explain", "big", "--policy", dir.string()});
  CHECK(r.exit_code == kExitUsage);
  CHECK(r.out.empty());
  CHECK(Has(r.err, "rule name `big` is ambiguous: 2 rules have it"));
  // Each named by its path in the pack, as reports name policy files.
  std::string pack = dir.filename().string();
  CHECK(Has(r.err, "`ONE-001` in package `team.one` (" + pack + "/one.cpl:4:6)"));
  CHECK(Has(r.err, "`TWO-001` in package `team.two` (" + pack + "/two.cpl:4:6)"));

  // By id, each is explained; a name one package uses is not ambiguous.
  r = testing::RunCli({"explain", "TWO-001", "--policy", dir.string()});
  CHECK(r.exit_code == kExitClean);
  CHECK(Has(r.out, "TWO-001  big  (error)"));
  r = testing::RunCli({"explain", "big", "--policy", (dir / "one.cpl").string()});
  CHECK(r.exit_code == kExitClean);
  CHECK(Has(r.out, "ONE-001  big  (error)"));
}

}  // namespace
}  // namespace capops::cli
