// SPDX-License-Identifier: Apache-2.0
// The file-system seam: the workspace reads and writes only through a
// FileSystem, so discovery, the config search, the side files, the cache
// and a whole lint run on files held in memory, and an editor's buffers
// stand in for the disk.
#include "engine/workspace/file_system.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "engine/workspace/config_file.h"
#include "engine/workspace/plan_set.h"
#include "engine/workspace/result_cache_dir.h"
#include "engine/workspace/session.h"
#include "tests/support/fixture.h"
#include "tests/support/memory_workspace.h"
#include "tests/support/temp_dir.h"

namespace capops::workspace {
namespace {

const std::string kPlan = testing::ReadSourceFile("examples/visual-inspection/plan.yaml");
const std::string kInventory = testing::ReadSourceFile("examples/visual-inspection/inventory.yaml");

TEST_CASE("MemoryFileSystem: files, the directories above them, and reads as from a disk",
          "[workspace]") {
  MemoryFileSystem files("/repo");
  files.Add("plans/eu/plan.yaml", "a");
  files.Add("/repo/plans/.hidden/plan.yaml", "b");
  files.Add("/elsewhere/x.yaml", "c");
  CHECK(files.WorkingDirectory() == "/repo");
  CHECK(files.Kind("plans/eu/plan.yaml") == FileKind::kRegular);
  CHECK(files.Kind("plans") == FileKind::kDirectory);
  CHECK(files.Kind("/repo/plans/") == FileKind::kDirectory);
  CHECK(files.Kind("/") == FileKind::kDirectory);
  CHECK(files.Kind("plan") == FileKind::kMissing);  // a prefix of a name is not a directory
  CHECK(files.Kind("../elsewhere/x.yaml") == FileKind::kRegular);
  // Below a directory, spelt as the directory was; hidden directories skipped.
  CHECK(files.FilesUnder("plans") == std::vector<std::string>{"plans/eu/plan.yaml"});
  CHECK(files.FilesUnder("/repo/plans/eu") == std::vector<std::string>{"/repo/plans/eu/plan.yaml"});
  std::string text, error;
  CHECK_FALSE(files.Read("plans", 10, &text, &error));
  CHECK(error == "cannot read `plans`: it is a directory, not a regular file");
  CHECK_FALSE(files.Read("nope.yaml", 10, &text, &error));
  CHECK(error.find("No such file") != std::string::npos);
  files.Add("big.yaml", std::string(100, 'x'));
  REQUIRE(files.Read("big.yaml", 10, &text, &error));
  CHECK(text.size() == 11);  // the limit and one byte more: too large, as on disk
  CHECK(files.Identity("./plans/../plans/eu/plan.yaml") == files.Identity("plans/eu/plan.yaml"));
  CHECK_FALSE(files.Identity("plans"));
}

TEST_CASE("OverlayFileSystem: an editor's buffer stands in for its file, and goes", "[workspace]") {
  testing::TempDir dir("capops-overlay");
  std::string on_disk = dir.Write("plan.yaml", "on disk\n");
  DiskFileSystem disk;
  OverlayFileSystem files(&disk);
  std::string text, error;
  files.Set(on_disk, "in the editor\n");
  std::string unsaved = (dir.dir() / "new.yaml").string();
  files.Set(unsaved, "never saved\n");
  REQUIRE(files.Read(on_disk, 100, &text, &error));
  CHECK(text == "in the editor\n");
  CHECK(files.Kind(unsaved) == FileKind::kRegular);
  CHECK(files.FilesUnder(dir.dir().string()) == std::vector<std::string>{unsaved, on_disk});
  CHECK(files.Identity(unsaved));
  files.Remove(on_disk);
  REQUIRE(files.Read(on_disk, 100, &text, &error));
  CHECK(text == "on disk\n");
  files.Remove(unsaved);
  CHECK(files.Kind(unsaved) == FileKind::kMissing);
}

TEST_CASE("discovery in memory: plans found once, the rest said, grouped by their inventories",
          "[workspace]") {
  MemoryFileSystem files("/repo");
  files.Add("plans/eu/plan.yaml", kPlan);
  files.Add("plans/eu/inventory.yaml", kInventory);
  files.Add("plans/us/plan.yaml", kPlan);
  files.Add("plans/notes.yaml", "title: not a plan\n");
  files.Add("plans/.git/plan.yaml", kPlan);
  PlanSet set(files);
  std::string error;
  REQUIRE(set.Add("plans", &error));
  CHECK(set.plans() == std::vector<std::string>{"plans/eu/plan.yaml", "plans/us/plan.yaml"});
  REQUIRE(set.skipped().size() == 1);
  CHECK(set.skipped()[0].path == "plans/notes.yaml");
  set.Group({});
  REQUIRE(set.groups().size() == 2);
  CHECK(set.groups()[0].inventories == std::vector<std::string>{"plans/eu/inventory.yaml"});
  CHECK(set.groups()[1].inventories.empty());  // `us` has none beside it
  CHECK(InventoriesOf(files, "plans/us/plan.yaml", {"shared.yaml"}, {}) ==
        std::vector<std::string>{"shared.yaml"});
  // A glob, and one that matches nothing.
  PlanSet globbed(files);
  REQUIRE(globbed.Add("plans/*/plan.yaml", &error));
  CHECK(globbed.plans().size() == 2);
  CHECK_FALSE(globbed.Add("plans/*/plan.yml", &error));
  CHECK(error == "no plan files match `plans/*/plan.yml`");
}

TEST_CASE("the config is found from a subdirectory, and nothing above it is read instead",
          "[workspace]") {
  MemoryFileSystem files("/repo/team/sub");
  files.Add("/repo/.git/HEAD", "ref: refs/heads/main\n");
  files.Add("/repo/.capops.yaml", "fail-on: never\n");
  files.Add("/.capops.yaml", "fail-on: info\n");
  std::optional<std::filesystem::path> found = FindConfig(files, ".");
  REQUIRE(found);
  CHECK(found->string() == "../../.capops.yaml");
  CHECK(FindConfig(files, "/repo/team/")->string() == "/repo/.capops.yaml");
  CHECK(RepositoryRoot(files, ".")->string() == "/repo");
}

TEST_CASE("a whole lint in memory: config, waivers, a baseline written and read, the cache",
          "[workspace]") {
  testing::MemoryWorkspace w("/repo/plans");
  w.files.Add("/repo/.git/HEAD", "ref: refs/heads/main\n");
  w.files.Add("/repo/plans/plan.yaml", kPlan);
  w.files.Add("/repo/plans/inventory.yaml", kInventory);
  w.files.Add("/repo/.capops.yaml",
              "plans: [plans]\nwaivers: waivers.yaml\ncache: .capops-cache\n"
              "rules: {disable: [CAP-FIN-004]}\n");
  w.files.Add("/repo/waivers.yaml",
              "waivers:\n  - rule: CAP-GOV-001\n    file: plans/plan.yaml\n"
              "    owner: reliability-lead\n    reason: the record is being written\n"
              "    expires: 2099-12-31\n");
  SessionOptions options;
  testing::MemoryLint first = w.Lint(options);
  CHECK(first.exit_code == 1);
  CHECK(first.out.find("CAP-FIN-004") == std::string::npos);  // disabled by the config
  CHECK(first.out.find("CAP-SUP-001") != std::string::npos);
  // The cache is a directory of the memory file system: a second run reads it back.
  CHECK(w.files.Kind("/repo/.capops-cache/CACHEDIR.TAG") == FileKind::kRegular);
  CHECK(w.Lint(options).out == first.out);

  SessionOptions record = options;
  record.write_baseline = "/repo/baseline.yaml";
  CHECK(w.Lint(record).exit_code == 0);
  CHECK(w.Read("/repo/baseline.yaml").find("CAP-SUP-001") != std::string::npos);
  SessionOptions known = options;
  known.baseline = "/repo/baseline.yaml";
  testing::MemoryLint again = w.Lint(known);
  CHECK(again.exit_code == 0);
  CHECK(again.out.empty());

  // An output that is an input is refused, in memory as on disk.
  SessionOptions clobber = options;
  clobber.output = "/repo/plans/plan.yaml";
  testing::MemoryLint refused = w.Lint(clobber);
  CHECK(refused.exit_code == 2);
  CHECK(refused.out.find("refusing to write") == 0);
}

}  // namespace
}  // namespace capops::workspace
