// SPDX-License-Identifier: Apache-2.0
// SameFile and DedupByIdentity over real files in a scratch directory:
// spellings, symlinks, hard links, missing files and distinct files with
// equal contents.
#include "engine/workspace/same_file.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/temp_dir.h"

namespace capops::workspace {
namespace {

const DiskFileSystem disk;

namespace fs = std::filesystem;

using Strings = std::vector<std::string>;

struct Dir : testing::TempDir {
  Dir() : TempDir("capops-same-file") {
    fs::create_directories(dir() / "sub");
    Write("inv.yaml", "kind: Inventory\n");
    Write("copy.yaml", "kind: Inventory\n");  // same text, another file
    fs::create_symlink(dir() / "inv.yaml", dir() / "link.yaml");
    fs::create_hard_link(dir() / "inv.yaml", dir() / "hard.yaml");
  }
  std::string P(const std::string& name) const { return Path(name); }
};

TEST_CASE("SameFile: one file under any spelling, a link included", "[cli]") {
  Dir d;
  CHECK(SameFile(disk, d.P("inv.yaml"), d.P("inv.yaml")));
  CHECK(SameFile(disk, d.P("inv.yaml"), d.P("./inv.yaml")));
  CHECK(SameFile(disk, d.P("inv.yaml"), d.P("sub/../inv.yaml")));
  CHECK(SameFile(disk, d.P("inv.yaml"), d.P("link.yaml")));
  CHECK(SameFile(disk, d.P("hard.yaml"), d.P("link.yaml")));
  CHECK_FALSE(SameFile(disk, d.P("inv.yaml"), d.P("copy.yaml")));
  CHECK_FALSE(
      SameFile(disk, d.P("missing.yaml"), d.P("missing.yaml")));  // its own error, where read
  CHECK_FALSE(SameFile(disk, d.P("inv.yaml"), d.P("missing.yaml")));
}

TEST_CASE("CoversAll: every wanted file among those given, by identity", "[cli]") {
  Dir d;
  CHECK(CoversAll(disk, {d.P("link.yaml"), d.P("copy.yaml")},
                  {d.P("sub/../inv.yaml"), d.P("hard.yaml")}));
  CHECK(CoversAll(disk, {d.P("inv.yaml")}, {}));
  CHECK_FALSE(CoversAll(disk, {d.P("inv.yaml")}, {d.P("copy.yaml")}));  // equal text, another file
  CHECK_FALSE(CoversAll(disk, {d.P("inv.yaml"), d.P("missing.yaml")}, {d.P("missing.yaml")}));
  CHECK_FALSE(CoversAll(disk, {}, {d.P("inv.yaml")}));
}

TEST_CASE("DedupByIdentity keeps the first mention and lists the others", "[cli]") {
  Dir d;
  Strings dropped;
  Strings kept =
      DedupByIdentity(disk,
                      {d.P("inv.yaml"), d.P("copy.yaml"), d.P("./inv.yaml"), d.P("missing.yaml"),
                       d.P("link.yaml"), d.P("missing.yaml"), d.P("hard.yaml"), d.P("inv.yaml")},
                      &dropped);
  CHECK(kept ==
        Strings{d.P("inv.yaml"), d.P("copy.yaml"), d.P("missing.yaml"), d.P("missing.yaml")});
  CHECK(dropped == Strings{d.P("./inv.yaml"), d.P("link.yaml"), d.P("hard.yaml"), d.P("inv.yaml")});
  CHECK(DedupByIdentity(disk, {}, nullptr).empty());
  CHECK(DedupByIdentity(disk, {d.P("inv.yaml"), d.P("link.yaml")}, nullptr) ==
        Strings{d.P("inv.yaml")});

  // Relative spellings from the working directory.
  fs::path cwd = fs::current_path();
  fs::current_path(d.dir());
  Strings rel_dropped;
  Strings rel = DedupByIdentity(disk, {"inv.yaml", "./inv.yaml", "sub/../inv.yaml"}, &rel_dropped);
  fs::current_path(cwd);
  CHECK(rel == Strings{"inv.yaml"});
  CHECK(rel_dropped == Strings{"./inv.yaml", "sub/../inv.yaml"});
}

}  // namespace
}  // namespace capops::workspace
