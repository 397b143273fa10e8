// SPDX-License-Identifier: Apache-2.0
// How reports name policy files: below the working directory as they are,
// elsewhere by their path in the pack they were read from.
#include "engine/lint/pack_paths.h"

#include <catch2/catch.hpp>

namespace capops::lint {
namespace {

const std::vector<std::string> kInstalled = {"/usr/share/capops/stdlib",
                                             "/usr/share/capops/policies/capops-ai"};

TEST_CASE("pack paths: a policy file below the working directory keeps its path", "[lint]") {
  CHECK(PackPath("policies/capops-ai/supply.cpl", {"/repo/policies/capops-ai"}, "/repo") ==
        "policies/capops-ai/supply.cpl");
  CHECK(PackPath("/repo/rules.cpl", {"/repo/rules.cpl"}, "/repo") == "/repo/rules.cpl");
}

TEST_CASE("pack paths: a file of an installed pack is named from its pack", "[lint]") {
  CHECK(PackPath("/usr/share/capops/policies/capops-ai/supply.cpl", kInstalled, "/repo") ==
        "capops-ai/supply.cpl");
  CHECK(PackPath("/usr/share/capops/stdlib/schema.cpl", kInstalled, "/repo") ==
        "stdlib/schema.cpl");
  CHECK(PackPath("/usr/share/capops/policies/capops-ai/sub/x.cpl", kInstalled, "/repo") ==
        "capops-ai/sub/x.cpl");
  // A relative path that leads out of the working directory, a root with a
  // trailing `/`, and the deepest root of two that hold the file.
  CHECK(PackPath("../packs/team/a.cpl", {"/work/packs/team/"}, "/work/repo") == "team/a.cpl");
  CHECK(PackPath("/p/outer/inner/a.cpl", {"/p/outer", "/p/outer/inner"}, "/repo") == "inner/a.cpl");
}

TEST_CASE("pack paths: a file given alone, or under no root, is named by its directory", "[lint]") {
  CHECK(PackPath("/srv/rules/gpu.cpl", {"/srv/rules/gpu.cpl"}, "/repo") == "rules/gpu.cpl");
  CHECK(PackPath("/srv/rules/gpu.cpl", {}, "/repo") == "rules/gpu.cpl");
}

TEST_CASE("pack paths: only the files whose name changes are listed", "[lint]") {
  SourceManager policies;
  policies.Add("policies/own.cpl", "");
  FileId installed = policies.Add("/usr/share/capops/stdlib/schema.cpl", "");
  auto shown = PackPaths(policies, kInstalled, "/repo");
  REQUIRE(shown.size() == 1);
  CHECK(shown[0] == std::pair<FileId, std::string>(installed, "stdlib/schema.cpl"));

  // A report's sources show them so; the base keeps its paths.
  SourceManager report(&policies);
  report.Show(shown[0].first, shown[0].second);
  CHECK(report.ShownPath(installed) == "stdlib/schema.cpl");
  CHECK(report.Path(installed) == "/usr/share/capops/stdlib/schema.cpl");
  CHECK(report.ShownPath(0) == "policies/own.cpl");
  CHECK(policies.ShownPath(installed) == "/usr/share/capops/stdlib/schema.cpl");
}

}  // namespace
}  // namespace capops::lint
