// SPDX-License-Identifier: Apache-2.0
#include "engine/common/source.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "tests/support/temp_file.h"

namespace capops {
namespace {

namespace fs = std::filesystem;
using testing::TempFile;

// Lines with CRLF and LF breaks, a blank line, non-ASCII text and no final break.
const std::string kText =
    "apiVersion: capops.dev/v1\r\n"
    "kind: CapacityPlan\n"
    "\n"
    "metadata: {name: \"caf\xC3\xA9 \xE2\x82\xAC\"}\n"
    "allocations:\n"
    "  - {id: a-1, gpus: 4}";

TEST_CASE("a released file gives the lines, positions and text of the kept one", "[common]") {
  TempFile file(kText);
  SourceFile kept(file.path(), kText);
  SourceFile released(file.path(), kText, file.Stamp());
  REQUIRE(released.ReleaseText());
  CHECK(released.released());
  CHECK_FALSE(kept.released());
  CHECK(released.line_count() == kept.line_count());
  CHECK(released.size() == kText.size());
  for (uint32_t line = 0; line <= kept.line_count() + 1; ++line) {
    INFO("line " << line);
    CHECK(released.FindLine(line) == kept.FindLine(line));
    CHECK(released.FindLine(line) == kept.FindLine(line));  // again: read back again
  }
  CHECK(released.Line(4) == "metadata: {name: \"caf\xC3\xA9 \xE2\x82\xAC\"}");
  CHECK(released.Line(1) == "apiVersion: capops.dev/v1");
  for (uint32_t offset = 0; offset <= kText.size() + 1; ++offset) {
    INFO("offset " << offset);
    CHECK(released.Resolve(0, offset) == kept.Resolve(0, offset));
  }
  CHECK(released.ReadText() == kText);
  CHECK_THROWS_AS(released.text(), std::logic_error);
  // Columns count characters: `é` and `€` are one each.
  uint32_t brace = static_cast<uint32_t>(kText.find('}'));
  CHECK(kept.Resolve(0, brace) == SourceLoc{0, 4, 26});
  CHECK(released.Resolve(0, brace) == SourceLoc{0, 4, 26});
  // Code point offsets (the policy parser's) come from the text either way.
  size_t code_points = kText.size() - 3;
  for (const SourceFile* f : {&kept, &released}) {
    CHECK(f->ByteOffsetOfCodePoint(code_points - 1) == kText.size() - 1);
    CHECK(f->ByteOffsetOfCodePoint(code_points + 5) == kText.size());
  }
}

TEST_CASE("lines read back are the same from several threads at once", "[common]") {
  TempFile file(kText);
  SourceFile kept(file.path(), kText);
  SourceFile released(file.path(), kText, file.Stamp());
  REQUIRE(released.ReleaseText());
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < wrong.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round) {
        for (uint32_t line = 1; line <= kept.line_count(); ++line) {
          wrong[t] += released.FindLine(line) != kept.FindLine(line);
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(wrong == std::vector<int>(4, 0));
}

TEST_CASE("only a file with a stamp of its whole text is released", "[common]") {
  TempFile file(kText);
  SourceFile unstamped(file.path(), kText);
  CHECK_FALSE(unstamped.ReleaseText());
  CHECK(unstamped.text() == kText);

  std::optional<FileStamp> stamp = file.Stamp();
  REQUIRE(stamp);
  SourceFile cut(file.path(), kText.substr(0, 10), stamp);  // read up to a limit
  CHECK_FALSE(cut.ReleaseText());
  CHECK(cut.text() == kText.substr(0, 10));

  capops::testing::WriteFile(file.path(), kText + "\n# later\n");  // changed before the release
  SourceFile outdated(file.path(), kText, stamp);
  CHECK_FALSE(outdated.ReleaseText());
  CHECK(outdated.Line(2) == "kind: CapacityPlan");
}

TEST_CASE("a released file changed on disk gives no lines, not other text", "[common]") {
  TempFile file(kText);
  SourceFile released(file.path(), kText, file.Stamp());
  REQUIRE(released.ReleaseText());
  REQUIRE(released.Line(2) == "kind: CapacityPlan");  // read back before the change

  SECTION("truncated") {
    fs::resize_file(file.path(), 30);
  }
  SECTION("rewritten with other text of the same size") {
    std::string other(kText.size(), 'x');
    capops::testing::WriteFile(file.path() + ".new", other);
    fs::rename(file.path() + ".new", file.path());  // another inode
  }
  SECTION("removed") {
    fs::remove(file.path());
  }
  for (uint32_t line : {1u, 3u, 4u, 5u, 6u}) {
    INFO("line " << line);
    CHECK_FALSE(released.FindLine(line).has_value());
    CHECK(released.Line(line).empty());
  }
  CHECK_FALSE(released.ReadText().has_value());
  CHECK(released.Line(2).empty());                       // nothing read back is kept
  CHECK(released.Resolve(7, 27) == SourceLoc{7, 2, 1});  // positions need no text
}

TEST_CASE("a source manager says when a line cannot be had", "[common]") {
  TempFile file(kText);
  SourceManager sources;
  FileId kept = sources.Add("kept.yaml", kText);
  FileId released = sources.Add(file.path(), kText, file.Stamp());
  CHECK_FALSE(sources.ReleaseText(kept));
  CHECK(sources.ReleaseText(released));
  CHECK(sources.LineText(kept, 2) == std::optional<std::string_view>("kind: CapacityPlan"));
  CHECK(sources.LineText(released, 2) == std::optional<std::string_view>("kind: CapacityPlan"));
  CHECK(sources.LineText(released, 3) == std::optional<std::string_view>(""));
  CHECK_FALSE(sources.LineText(kept, 99).has_value());
  CHECK_FALSE(sources.LineText(kNoFile, 1).has_value());
  fs::resize_file(file.path(), 0);
  CHECK_FALSE(sources.LineText(released, 5).has_value());
}

}  // namespace
}  // namespace capops
