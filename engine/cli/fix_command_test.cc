// SPDX-License-Identifier: Apache-2.0
// `capops-lint --fix` and `--fix-dry-run` as a user runs them: mistakes
// fixed back to the text meant, byte for byte; computed repairs applied; the
// diff exact; and the files --fix must not write (standard input, a
// read-only file, an inventory, a file changed under it) left alone.
#include "engine/cli/fix_command.h"

#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/workspace/output_file.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/scratch_dir.h"

namespace capops::cli {
namespace {

namespace fs = std::filesystem;
using capops::testing::RunCli;
using capops::testing::RunCliWithInput;
using capops::testing::ScratchDir;

// `text` with the first `from` after `at` replaced by `to`.
std::string Replaced(std::string text, const std::string& from, const std::string& to,
                     const std::string& at = "") {
  size_t where = text.find(from, text.find(at));
  REQUIRE(where != std::string::npos);
  return text.replace(where, from.size(), to);
}

// The example plan in `dir` with its own repairs applied (--fix): a plan
// with nothing left to fix, for a mistake to be made in.
std::string Settled(const ScratchDir& dir) {
  RunCli({"--no-config", "--fix", dir.Path("plan.yaml")});
  std::string settled = dir.Read("plan.yaml");
  REQUIRE(RunCli({"--no-config", "--fix-dry-run", dir.Path("plan.yaml")}).out.empty());
  return settled;
}

struct Mistake {
  const char* name;
  const char* from;  // the plan's text
  const char* to;    // the mistake
  const char* at;    // where to look for `from`
  const char* back;  // what --fix writes back in its place, when not `from`
};

TEST_CASE("cli --fix turns each did-you-mean and missing unit back into the plan meant", "[cli]") {
  ScratchDir dir;
  const std::string plan = Settled(dir);
  const Mistake mistakes[] = {
      {"a misspelt field", "slice: exploration", "slcie: exploration", "", nullptr},
      {"a misspelt enum member", "slice: training", "slice: trainnig", "", nullptr},
      {"a quoted misspelt member keeps its quotes", "slice: training", "slice: \"trainnig\"", "",
       "slice: \"training\""},
      {"a misspelt id", "pool: train-eu,", "pool: train-eux,", "{id: a-train,", nullptr},
      {"a duration without its unit", "max_hold: 8h", "max_hold: 8", "", nullptr},
      {"a size with a space", "size: 40TB", "size: 40 TB", "", nullptr},
      {"a misspelt kind", "kind: CapacityPlan", "kind: CapacityPlna", "", nullptr},
      {"two mistakes on one line", "{id: a-tune, demand: tune-v3, pool: train-eu,",
       "{id: a-tune, dmand: tune-v3, pol: train-eu,", "", nullptr},
  };
  int clean = RunCli({"--no-config", dir.Path("plan.yaml")}).exit_code;
  for (const Mistake& m : mistakes) {
    INFO(m.name);
    std::string broken = Replaced(plan, m.from, m.to, m.at);
    dir.Write("plan.yaml", broken);
    auto r = RunCli({"--no-config", "--fix", dir.Path("plan.yaml")});
    INFO(r.err);
    CHECK(dir.Read("plan.yaml") == (m.back ? Replaced(plan, m.from, m.back, m.at) : plan));
    CHECK(r.err.find("capops-lint: applied ") != std::string::npos);
    // The exit code and report are those of what remains: the plan's own findings.
    CHECK(r.exit_code == clean);
    CHECK(r.out.find("did you mean") == std::string::npos);
  }
}

TEST_CASE("cli --fix-dry-run prints the exact diff and writes nothing", "[cli]") {
  ScratchDir dir;
  const std::string plan = Settled(dir);
  std::string broken = Replaced(plan, "max_hold: 8h", "max_hold: 8");
  dir.Write("plan.yaml", broken);
  std::string path = dir.Path("plan.yaml");
  auto r = RunCli({"--no-config", "--fix-dry-run", path});
  CHECK(dir.Read("plan.yaml") == broken);
  // The line's number and context, as `diff -u` gives them.
  size_t at = broken.find("max_hold: 8");
  size_t line = 1 + static_cast<size_t>(std::count(broken.begin(), broken.begin() + at, '\n'));
  std::string bad_line = broken.substr(broken.rfind('\n', at) + 1);
  bad_line = bad_line.substr(0, bad_line.find('\n') + 1);
  std::string good_line = Replaced(bad_line, "max_hold: 8", "max_hold: 8h");
  CHECK(r.out.rfind("--- " + path + "\n+++ " + path + "\n@@ -" + std::to_string(line - 3) + ",7 +" +
                        std::to_string(line - 3) + ",7 @@\n",
                    0) == 0);
  CHECK(r.out.find("\n-" + bad_line + "+" + good_line) != std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 3 + 8);
  // Its exit code is that of what would remain: the plan's own findings.
  CHECK(r.exit_code == RunCli({"--no-config", dir.Write("clean.yaml", plan)}).exit_code);
  // Two alternatives of one span (`8h`, `8d`): only the first is applied.
  CHECK(r.out.find("8d") == std::string::npos);
  // Nothing to fix: no diff.
  dir.Write("plan.yaml", plan);
  CHECK(RunCli({"--no-config", "--fix-dry-run", path}).out.empty());
}

TEST_CASE("cli --fix writes the plan's repairs and reports what remains", "[cli][repair]") {
  capops::testing::TempDir dir("capops-fix");
  fs::path fixture = fs::path(capops::testing::SourceDir()) /
                     "policies/capops-ai/fixtures/CAP-SUP-005/repairable.yaml";
  fs::copy_file(fixture, dir.Path("plan.yaml"));
  auto before = RunCli({"--no-config", "--format", "short", dir.Path("plan.yaml")});
  // With a cache: the texts of the rounds, never on disk, are not stored in it.
  auto r = RunCli({"--no-config", "--format", "short", "--cache=" + dir.Path("cache"), "--fix",
                   dir.Path("plan.yaml")});
  CHECK(!fs::exists(dir.Path("cache")));
  CHECK(r.exit_code == kExitFindings);
  CHECK(before.out.find("allocation `a-cite`") != std::string::npos);
  for (const char* fixed : {"a-cite", "a-shrink", "a-block"}) {
    INFO(fixed);
    CHECK(r.out.find("allocation `" + std::string(fixed) + "` needs") == std::string::npos);
  }
  CHECK(r.out.find("allocation `a-stuck` needs") != std::string::npos);
  std::string text = dir.Read("plan.yaml");
  CHECK(text.find("gpus: 8, evidence: [r-may]}  # r-may is free") != std::string::npos);
  CHECK(text.find("gpus: 8, evidence: [r-apr]}") != std::string::npos);
  CHECK(text.find("  - id: a-block\n    evidence: [r-june]\n") != std::string::npos);
}

TEST_CASE("cli an acquisition is advised by every report and applied by none", "[cli][repair]") {
  capops::testing::TempDir dir("capops-advice");
  fs::path fixture = fs::path(capops::testing::SourceDir()) /
                     "policies/capops-ai/fixtures/CAP-SUP-005/acquire.yaml";
  fs::copy_file(fixture, dir.Path("plan.yaml"));
  const std::string plan = dir.Path("plan.yaml"), original = dir.Read("plan.yaml");
  auto lint = [&](std::vector<std::string> flags) {
    flags.insert(flags.begin(), {"--no-config", "--max-repair-lints", "16"});
    flags.push_back(plan);
    auto r = RunCli(flags);
    CHECK(r.exit_code == kExitFindings);
    return r.out;
  };
  // Text: a `help:` line, never a `fix:`; exactly what is short, where and when.
  std::string text = lint({});
  for (const char* help :
       {"= help: reserve 4 × h100-80 in eu-west, 2027-04-19..04-22, and cite it in `a-part`'s "
        "evidence\n",
        "= help: reserve 8 × h100-80 in eu-west, 2027-05-03T08:00Z..05-03T18:00Z, and cite it in "
        "`a-hours`'s evidence\n",
        "= help: reserve 4 × h100-80 in eu-west with `hosted-train`, 2027-05-10..05-12, and cite "
        "it in `a-hosted`'s evidence\n",
        "= help: reserve 2 × h100-80 in eu-west, from 2027-06-01, with no end date, and cite it "
        "in `a-open`'s evidence\n"}) {
    INFO(help);
    CHECK(text.find(help) != std::string::npos);
  }
  CHECK(text.find("in `a-undocumented`'s evidence") == std::string::npos);
  CHECK(text.find("= fix: reserve") == std::string::npos);
  auto none = RunCli({"--no-config", "--max-repair-lints", "0", plan});
  CHECK(none.out.find("allocation `a-part` needs") != std::string::npos);
  CHECK(none.out.find("= help: reserve") == std::string::npos);
  // JSON: the acquisition as data, beside no fixes.
  using Json = nlohmann::json;
  std::map<std::string, Json> by_allocation;
  const Json json = Json::parse(lint({"--format", "json"}));
  for (const Json& v : json["violations"]) {
    if (v["rule"] != "CAP-SUP-005") continue;
    CHECK(v["fixes"] == Json::array());
    for (const Json& e : v["evidence"]) {
      if (e["name"] == "a") by_allocation[e["value"].get<std::string>()] = v["acquisition"];
    }
  }
  REQUIRE(by_allocation.size() == 5);
  CHECK(by_allocation["a-part"] ==
        Json{{"description",
              "reserve 4 × h100-80 in eu-west, 2027-04-19..04-22, and cite it in `a-part`'s "
              "evidence"},
             {"gpus", 4},
             {"accelerator", "h100-80"},
             {"region", "eu-west"},
             {"service", nullptr},
             {"window", {{"start", "2027-04-19"}, {"end", "2027-04-22"}}}});
  CHECK(by_allocation["a-hosted"]["service"] == "hosted-train");
  CHECK(by_allocation["a-hours"]["window"]["end"] == "2027-05-03T18:00Z");
  CHECK(by_allocation["a-open"]["window"] == Json{{"start", "2027-06-01"}, {"end", nullptr}});
  CHECK(by_allocation["a-undocumented"].is_null());
  // SARIF: no `fixes` (one must change a file), the advice in the message and properties.
  size_t advised = 0;
  const Json sarif = Json::parse(lint({"--format", "sarif"}));
  for (const Json& r : sarif["runs"][0]["results"]) {
    if (r["ruleId"] != "CAP-SUP-005") continue;
    CHECK_FALSE(r.contains("fixes"));
    if (!r["properties"].contains("acquisition")) continue;
    ++advised;
    const Json& q = r["properties"]["acquisition"];
    CHECK(r["message"]["text"].get<std::string>().find(
              "\nhelp: " + q["description"].get<std::string>()) != std::string::npos);
  }
  CHECK(advised == 4);
  // HTML: on the finding's card, as text.
  lint({"--format", "html", "-o", dir.Path("report.html")});
  CHECK(dir.Read("report.html")
            .find("<p class=\"help\"><b>help</b> reserve 4 × h100-80 in eu-west, "
                  "2027-04-19..04-22, and cite it in `a-part`&#39;s evidence</p>") !=
        std::string::npos);
  // --fix applies none: nothing written, nothing applied; its rounds seek no
  // advice (each would cost a lint), so the report after it says none.
  CHECK(lint({"--fix-dry-run"}).empty());
  auto fixed = RunCli({"--no-config", "--fix", plan});
  CHECK(fixed.exit_code == kExitFindings);
  CHECK(fixed.err.find("applied") == std::string::npos);
  CHECK(fixed.out.find("CAP-SUP-005") != std::string::npos);
  CHECK(fixed.out.find("= help: reserve") == std::string::npos);
  CHECK(dir.Read("plan.yaml") == original);
}

TEST_CASE("cli the repair search runs for the reports that show repairs, within its lints",
          "[cli][repair]") {
  // The production squeeze: exploration on production above its floor has
  // a research pool to move to.
  const std::string plan =
      capops::testing::SourceDir() + "/examples/visual-inspection/production-squeeze/plan.yaml";
  const std::string repair = "= fix: move `a-explore` to pool `research-eu`";
  auto lint = [&](std::vector<std::string> flags) {
    flags.insert(flags.begin(), "--no-config");
    flags.push_back(plan);
    auto r = RunCli(flags);
    CHECK(r.exit_code == kExitFindings);
    return r.out;
  };
  CHECK(lint({}).find(repair) != std::string::npos);
  CHECK(lint({"--format", "json"}).find("\"fixes\"") != std::string::npos);
  CHECK(lint({"--format", "sarif"}).find("\"artifactChanges\"") != std::string::npos);
  CHECK(lint({"--format", "html"}).find("<b>repair</b> move `a-explore` to pool `research-eu`") !=
        std::string::npos);
  // 0 searches none: the rule's own advice only.
  std::string none = lint({"--max-repair-lints", "0"});
  CHECK(none.find(repair) == std::string::npos);
  CHECK(none.find("= fix: move one of the overlapping allocations") != std::string::npos);
  CHECK(lint({"--max-repair-lints", "0", "--format", "sarif"}).find("\"artifactChanges\"") ==
        std::string::npos);
  CHECK(lint({"--max-repair-lints", "0", "--format", "html"}).find("<b>repair</b>") ==
        std::string::npos);
  for (const char* bad : {"-1", "x", "1001", ""}) {
    INFO(bad);
    auto r = RunCli({"--no-config", "--max-repair-lints", bad, plan});
    CHECK(r.exit_code == kExitUsage);
    CHECK(r.err.find("--max-repair-lints") != std::string::npos);
  }
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The fixes of a JSON report's first finding that has any (diagnostics
// first), or null.
const nlohmann::json* FirstFix(const nlohmann::json& report) {
  for (const char* list : {"errors", "violations"}) {
    for (const nlohmann::json& f : report[list]) {
      if (f.contains("fixes") && !f["fixes"].empty()) return &f["fixes"][0];
    }
  }
  return nullptr;
}

// `text` with `fix`'s replacements (JSON) applied.
std::string Applied(std::string text, const nlohmann::json& fix) {
  std::vector<nlohmann::json> edits(fix["replacements"].begin(), fix["replacements"].end());
  std::sort(edits.begin(), edits.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a["offset"] > b["offset"];
  });
  for (const nlohmann::json& e : edits) {
    text.replace(e["offset"].get<size_t>(), e["length"].get<size_t>(),
                 e["text"].get<std::string>());
  }
  return text;
}

// `path` fixed one proved fix at a time, as --fix did before it proved
// batches: lint (each repair proved by its own relint), apply the first
// fix of the first finding that has one, lint again, until none is left.
std::string OneAtATime(const std::string& path) {
  std::string text = ReadText(path);
  for (size_t round = 0; round < 50; ++round) {
    auto r = RunCli({"--no-config", "--format", "json", "--max-repair-lints", "64", path});
    REQUIRE(r.exit_code <= 1);
    const nlohmann::json report = nlohmann::json::parse(r.out);
    const nlohmann::json* fix = FirstFix(report);
    if (fix == nullptr) break;
    std::string fixed = Applied(text, *fix);
    if (fixed == text) break;
    text = fixed;
    capops::testing::WriteFile(path, text);
  }
  return text;
}

TEST_CASE("cli --fix in proved batches ends where fixing one at a time does", "[cli][repair]") {
  capops::testing::TempDir dir("capops-fix-batch");
  fs::path fixtures =
      fs::path(capops::testing::SourceDir()) / "policies/capops-ai/fixtures/CAP-SUP-005";
  size_t changed = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(fixtures)) {
    if (e.path().extension() != ".yaml") continue;
    INFO(e.path().string());
    std::string name = e.path().filename().string();
    std::string one = dir.Path("one-" + name), batch = dir.Path("batch-" + name);
    fs::copy_file(e.path(), one);
    fs::copy_file(e.path(), batch);
    std::string expected = OneAtATime(one);
    auto r = RunCli({"--no-config", "--fix", batch});
    CHECK(r.exit_code <= 1);
    CHECK(dir.Read("batch-" + name) == expected);
    if (expected != ReadText(e.path().string())) ++changed;
  }
  CHECK(changed >= 3);  // repairable, movable, ranked at least
}

TEST_CASE("cli --fix applies the good repairs of a batch that one bad repair breaks",
          "[cli][repair]") {
  capops::testing::TempDir dir("capops-fix-bad");
  fs::path fixture = fs::path(capops::testing::SourceDir()) /
                     "policies/capops-ai/fixtures/CAP-SUP-005/repairable.yaml";
  // `a-twin` wants `r-may` as `a-cite` does, at the same time: its only
  // repair (cite `r-may`) breaks CAP-SUP-006 beside `a-cite`'s.
  std::string text = Replaced(ReadText(fixture.string()), "  - {id: a-shrink,",
                              "  - {id: a-twin, demand: tune, pool: train-eu, gpus: 8, "
                              "evidence: []}\n  - {id: a-shrink,");
  std::string path = dir.Write("plan.yaml", text);
  std::string expected = Replaced(text, "gpus: 8, evidence: []}  # r-may is free",
                                  "gpus: 8, evidence: [r-may]}  # r-may is free");
  auto r = RunCli({"--no-config", "--format", "short", "--fix", path});
  INFO(r.out);
  INFO(r.err);
  std::string fixed = dir.Read("plan.yaml");
  // The good ones: cite, shrink, block.
  CHECK(fixed.find("gpus: 8, evidence: [r-may]}  # r-may is free") != std::string::npos);
  CHECK(fixed.find("gpus: 8, evidence: [r-apr]}") != std::string::npos);
  CHECK(fixed.find("  - id: a-block\n    evidence: [r-june]\n") != std::string::npos);
  // The bad one is not applied, and what it would break is not broken.
  CHECK(fixed.find("{id: a-twin, demand: tune, pool: train-eu, gpus: 8, evidence: []}") !=
        std::string::npos);
  CHECK(r.out.find("allocation `a-twin` needs") != std::string::npos);
  CHECK(r.out.find("CAP-SUP-006") == std::string::npos);
  CHECK(r.err.find("applied 3 fixes in 1 file") != std::string::npos);
  // What remains offers no repair: those left could not be proved.
  auto again = RunCli({"--no-config", "--format", "json", "--fix", dir.Write("again.yaml", text)});
  CHECK(dir.Read("again.yaml") == fixed);
  size_t twin = 0;
  const nlohmann::json remaining = nlohmann::json::parse(again.out);
  for (const nlohmann::json& v : remaining["violations"]) {
    CHECK(v["fixes"].empty());
    if (v["rule"] == "CAP-SUP-005") ++twin;
  }
  CHECK(twin == 2);  // a-twin, and a-stuck that has none
  CHECK(dir.Read("plan.yaml") == OneAtATime(dir.Write("one.yaml", text)));
}

TEST_CASE("cli --fix stops at its cap of fixes", "[cli]") {
  capops::testing::TempDir dir("capops-fix-cap");
  // Ten more misspelt demands than the cap allows fixes, in three plans (a
  // file reports at most 200 problems).
  std::vector<std::string> args = {"--no-config", "--format", "short", "--fix"};
  size_t misspelt = kMaxFixes + 10;
  for (size_t k = 0; k < 3; ++k) {
    std::string text = "apiVersion: capops.dev/v1\nkind: CapacityPlan\nmetadata: {name: more-" +
                       std::to_string(k) + ", owner: test}\ndemands:\n";
    for (size_t i = k; i < misspelt; i += 3) {
      text += "  - {id: more-" + std::to_string(i) + ", slcie: exploration, gpus: 1}\n";
    }
    args.push_back(dir.Write("plan-" + std::to_string(k) + ".yaml", text));
  }
  args.insert(args.end(), {"--inventory", dir.Write("inventory.yaml",
                                                    "apiVersion: capops.dev/v1\n"
                                                    "kind: Inventory\n")});
  auto r = RunCli(args);
  INFO(r.err);
  CHECK(r.err.find("applied " + std::to_string(kMaxFixes) + " fixes in 3 files") !=
        std::string::npos);
  size_t left = 0;
  for (size_t k = 0; k < 3; ++k) {
    std::string fixed = dir.Read("plan-" + std::to_string(k) + ".yaml");
    for (size_t at = fixed.find("slcie:"); at != std::string::npos;
         at = fixed.find("slcie:", at + 1))
      ++left;
  }
  CHECK(left == 10);
  CHECK(r.out.find("unknown field `slcie`") != std::string::npos);
}

TEST_CASE("cli --fix refuses what it must not write", "[cli]") {
  ScratchDir dir;
  const std::string plan = Settled(dir);
  std::string broken = Replaced(plan, "slice: exploration", "slcie: exploration");
  std::string path = dir.Write("plan.yaml", broken);

  SECTION("a plan read from standard input") {
    auto r = RunCliWithInput({"--no-config", "--fix", "-"}, broken);
    CHECK(r.exit_code == kExitUsage);
    CHECK(r.err.find("--fix cannot write back a plan read from standard input") !=
          std::string::npos);
    r = RunCliWithInput({"--no-config", "--fix-dry-run", "-"}, broken);
    CHECK(r.exit_code == kExitUsage);
  }
  SECTION("a read-only plan") {
    fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    auto r = RunCli({"--no-config", "--fix", path});
    CHECK(r.exit_code == kExitUsage);
    CHECK(r.err.find("the file is read-only") != std::string::npos);
    CHECK(dir.Read("plan.yaml") == broken);
    CHECK((fs::status(path).permissions() & fs::perms::owner_write) == fs::perms::none);
  }
  SECTION("--fix with --fix-dry-run, or with --write-baseline") {
    CHECK(RunCli({"--no-config", "--fix", "--fix-dry-run", path}).exit_code == kExitUsage);
    auto r = RunCli({"--no-config", "--fix", "--write-baseline", dir.Path("b.json"), path});
    CHECK(r.exit_code == kExitUsage);
    CHECK(dir.Read("plan.yaml") == broken);
  }
  SECTION("an inventory, unless --fix-inventory") {
    dir.Write("plan.yaml", plan);
    std::string inventory = dir.Read("inventory.yaml");
    std::string misspelt = Replaced(inventory, "accelerator: h100-80", "acelerator: h100-80");
    dir.Write("inventory.yaml", misspelt);
    auto r = RunCli({"--no-config", "--fix", path});
    CHECK(dir.Read("inventory.yaml") == misspelt);
    CHECK(r.out.find("unknown field `acelerator`") != std::string::npos);
    CHECK(r.exit_code == kExitFindings);
    r = RunCli({"--no-config", "--fix", "--fix-inventory", path});
    CHECK(dir.Read("inventory.yaml") == inventory);
    CHECK(dir.Read("plan.yaml") == plan);
  }
  SECTION("a plan through a symbolic link: the target is written, the link kept") {
    fs::create_directory(dir.dir() / "real");
    fs::rename(path, dir.dir() / "real/plan.yaml");
    fs::rename(dir.dir() / "inventory.yaml", dir.dir() / "real/inventory.yaml");
    fs::create_symlink("real/plan.yaml", path);
    fs::create_symlink("real/inventory.yaml", dir.dir() / "inventory.yaml");
    RunCli({"--no-config", "--fix", path});
    CHECK(fs::is_symlink(path));
    CHECK(fs::read_symlink(path) == "real/plan.yaml");
    CHECK(dir.Read("real/plan.yaml") == plan);
  }
  SECTION("nothing to fix: the file is not written at all") {
    dir.Write("plan.yaml", plan);
    struct stat before {};
    REQUIRE(::stat(path.c_str(), &before) == 0);
    auto r = RunCli({"--no-config", "--fix", path});
    struct stat after {};
    REQUIRE(::stat(path.c_str(), &after) == 0);
    CHECK(before.st_ino == after.st_ino);
    CHECK(before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
    CHECK(r.err.find("applied") == std::string::npos);
  }
}

TEST_CASE("cli RewriteFile refuses a file that changed or was replaced since it was read",
          "[cli][workspace]") {
  capops::testing::TempDir dir("capops-rewrite");
  std::string path = dir.Write("plan.yaml", "a: 1\n");
  std::string error;
  dir.Write("plan.yaml", "a: 2\n");  // changed after "a: 1\n" was read
  CHECK_FALSE(workspace::RewriteFile(path, "a: 1\n", "a: 3\n", &error));
  CHECK(error.find("changed since it was read") != std::string::npos);
  CHECK(dir.Read("plan.yaml") == "a: 2\n");
  fs::remove(path);
  fs::create_directory(path);  // replaced by a directory
  CHECK_FALSE(workspace::RewriteFile(path, "a: 1\n", "a: 3\n", &error));
  fs::remove(path);
  CHECK_FALSE(workspace::RewriteFile(path, "a: 1\n", "a: 3\n", &error));  // gone
  // Unchanged, the new text is written; the same text is not written at all.
  dir.Write("plan.yaml", "a: 1\n");
  CHECK(workspace::RewriteFile(path, "a: 1\n", "a: 3\n", &error));
  CHECK(dir.Read("plan.yaml") == "a: 3\n");
}

}  // namespace
}  // namespace capops::cli
