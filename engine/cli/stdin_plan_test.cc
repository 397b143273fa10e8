// SPDX-License-Identifier: Apache-2.0
// `capops-lint -`: the plan on standard input, named `<stdin>` or by
// --stdin-filename, and what careless or hostile input on it gets.
// The process's own descriptor (closed, a directory) is tests/cli/stdin.sh's.
#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <sstream>

#include "engine/cli/driver.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::cli {
namespace {

using testing::RunCli;
using testing::RunCliWithInput;

const std::string kExample = testing::SourceDir() + "/examples/visual-inspection/";

std::string Slurp(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

TEST_CASE("a plan on standard input is linted as `<stdin>`, as the same file would be", "[cli]") {
  std::vector<std::string> flags = {"--no-config", "--inventory", kExample + "inventory.yaml",
                                    "--format", "short"};
  std::vector<std::string> from_file = flags, from_stdin = flags;
  from_file.push_back(kExample + "plan.yaml");
  from_stdin.push_back("-");
  testing::CliResult file = RunCli(from_file);
  testing::CliResult piped = RunCliWithInput(from_stdin, Slurp(kExample + "plan.yaml"));
  CHECK(piped.exit_code == kExitFindings);
  CHECK(piped.out.find("<stdin>:") == 0);
  CHECK(piped.out == Replace(file.out, kExample + "plan.yaml", "<stdin>"));
}

TEST_CASE("why-not reads its plan from standard input as the lint does, in both spellings",
          "[cli]") {
  std::string plan = Slurp(kExample + "plan.yaml");
  const std::string at = "allocations[a-explore]";
  testing::CliResult file = RunCli({"why-not", "CAP-ALC-001", "--at", at, kExample + "plan.yaml"});
  REQUIRE(file.exit_code == kExitClean);
  const std::vector<std::vector<std::string>> spellings = {
      {"why-not", "CAP-ALC-001", "--at", at, "--stdin-filename", kExample + "plan.yaml", "-"},
      {"--why-not", "CAP-ALC-001", "--at", at, "--stdin-filename", kExample + "plan.yaml", "-"}};
  for (const std::vector<std::string>& args : spellings) {
    INFO(args[0]);
    testing::CliResult piped = RunCliWithInput(args, plan);
    CHECK(piped.exit_code == kExitClean);
    CHECK(piped.out == file.out);
    // The text piped is what is explained, not the file of that name.
    testing::CliResult edited =
        RunCliWithInput(args, Replace(plan, "pool: serve-eu-spare", "pool: serve-eu-peak"));
    CHECK(edited.exit_code == kExitClean);
    CHECK(edited.out != file.out);
  }
  // Without --stdin-filename the plan is `<stdin>`, and no inventory is beside it.
  testing::CliResult unnamed = RunCliWithInput(
      {"why-not", "CAP-ALC-001", "--at", at, "--inventory", kExample + "inventory.yaml", "-"},
      plan);
  CHECK(unnamed.exit_code == kExitClean);
  CHECK(unnamed.out == Replace(file.out, kExample + "plan.yaml", "<stdin>"));
  // `-` twice, or --stdin-filename without `-`, is a usage error.
  CHECK(RunCliWithInput({"why-not", "CAP-ALC-001", "--at", at, "-", "-"}, plan).exit_code ==
        kExitUsage);
  CHECK(RunCliWithInput({"why-not", "CAP-ALC-001", "--at", at, "--stdin-filename", "x.yaml",
                         kExample + "plan.yaml"},
                        plan)
            .exit_code == kExitUsage);
}

TEST_CASE(
    "the name --stdin-filename gives locates the findings there and finds the inventory beside it",
    "[cli]") {
  std::string plan = Slurp(kExample + "plan.yaml");
  testing::CliResult file = RunCli({"--no-config", kExample + "plan.yaml"});
  testing::CliResult named =
      RunCliWithInput({"--no-config", "-", "--stdin-filename", kExample + "plan.yaml"}, plan);
  CHECK(named.exit_code == kExitFindings);
  CHECK(named.out == file.out);
  // A path where no file is: the plan is still linted as if it were there.
  testing::TempDir dir;
  dir.Write("team/inventory.yaml", Slurp(kExample + "inventory.yaml"));
  std::string path = dir.Path("team/next-quarter.yaml");
  testing::CliResult unsaved =
      RunCliWithInput({"--no-config", "--format", "short", "--stdin-filename", path, "-"}, plan);
  CHECK(unsaved.exit_code == kExitFindings);
  CHECK(unsaved.out.find(path + ":") == 0);
  CHECK(unsaved.out.find("no `Inventory` document") == std::string::npos);
  CHECK(unsaved.out.find("CAP-ALC-001") != std::string::npos);
  // The report is not written over the plan it names.
  testing::CliResult over =
      RunCliWithInput({"--no-config", "--stdin-filename", kExample + "plan.yaml", "-o",
                       kExample + "plan.yaml", "-"},
                      plan);
  CHECK(over.exit_code == kExitUsage);
  CHECK(Slurp(kExample + "plan.yaml") == plan);
}

TEST_CASE("odd input on standard input gets a located error, as a file would", "[cli][hostile]") {
  testing::CliResult empty = RunCliWithInput({"--no-config", "-"}, "");
  CHECK(empty.exit_code == kExitFindings);
  CHECK(empty.out.find("no documents in this file\n --> <stdin>:1:1") != std::string::npos);

  std::string binary(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0\xff\xfe",
      12);
  testing::CliResult bytes = RunCliWithInput({"--no-config", "-"}, binary);
  CHECK(bytes.exit_code == kExitFindings);
  CHECK(bytes.out.find("<stdin>:1:") != std::string::npos);
  CHECK(bytes.out.find("not text") != std::string::npos);

  // Past the size limit: refused at once, naming the flag; no more is read.
  testing::CliResult huge =
      RunCliWithInput({"--no-config", "--max-file-size", "1000", "-"}, std::string(100000, '#'));
  CHECK(huge.exit_code == kExitFindings);
  CHECK(huge.out.find("file is larger than 1000 bytes\n --> <stdin>:1:1") != std::string::npos);
  CHECK(huge.out.find("--max-file-size") != std::string::npos);
}

TEST_CASE("`-` twice, --stdin-filename without `-` or empty are usage errors", "[cli][hostile]") {
  testing::CliResult twice = RunCliWithInput({"--no-config", "-", "-"}, "x: 1\n");
  CHECK(twice.exit_code == kExitUsage);
  CHECK(twice.err.find("error: `-` (standard input) is given 2 times") != std::string::npos);
  CHECK(twice.out.empty());

  testing::CliResult alone =
      RunCli({"--no-config", "--stdin-filename", "plan.yaml", kExample + "plan.yaml"});
  CHECK(alone.exit_code == kExitUsage);
  CHECK(alone.err.find("give `-` among the plans") != std::string::npos);

  testing::CliResult blank =
      RunCliWithInput({"--no-config", "--stdin-filename", "", "-"}, "x: 1\n");
  CHECK(blank.exit_code == kExitUsage);
  CHECK(blank.err.find("--stdin-filename needs a path") != std::string::npos);
}

TEST_CASE("`-` together with plan files lints them all in one report", "[cli]") {
  // Each with its own inventory: the clean plan's beside it, the other's
  // beside the path it is named by.
  testing::CliResult both = RunCliWithInput(
      {"--no-config", "--stdin-filename", "team/plan.yaml", kExample + "clean/plan.yaml", "-"},
      Slurp(kExample + "plan.yaml"));
  CHECK(both.exit_code == kExitFindings);
  CHECK(both.out.find("--> team/plan.yaml:") != std::string::npos);
  CHECK(std::regex_search(both.out, std::regex(R"(in 3 files \([0-9] plans?, [0-9]+ rules\)\n$)")));
}

}  // namespace
}  // namespace capops::cli
