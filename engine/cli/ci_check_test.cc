// SPDX-License-Identifier: Apache-2.0
// Pre-merge CI features end to end through Run(): config discovery and
// overrides, directories and globs, waivers, baseline, --fail-on, --output.
// Cases that need files write them to a fresh temporary directory.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "engine/cli/check_command.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/lint/glob_match.h"
#include "engine/report/report.h"
#include "engine/workspace/config_file.h"
#include "engine/workspace/plan_set.h"
#include "engine/workspace/policy_loader.h"
#include "engine/workspace/session.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/scratch_dir.h"

namespace capops::cli {
namespace {

namespace fs = std::filesystem;

const fs::path kExample = fs::path(capops::testing::SourceDir()) / "examples/visual-inspection";

using RunResult = testing::CliResult;
// capops-lint in-process from the source tree, like a user would run it.
constexpr auto& Lint = testing::RunCli;

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The 1-based number of the first line of `text` that holds `part`, as text.
std::string LineOf(const std::string& text, const std::string& part) {
  size_t at = text.find(part);
  REQUIRE(at != std::string::npos);
  return std::to_string(
      1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

using Scratch = testing::ScratchDir;

workspace::ConfigResult ParseText(SourceManager* sm, const std::string& text,
                                  const std::string& path = "cfg/.capops.yaml") {
  FileId f = sm->Add(path, text);
  return workspace::ParseConfig(workspace::DiskFileSystem(), *sm, f, {});
}

std::string Messages(const Diagnostics& diags) {
  std::string out;
  for (const Diagnostic& d : diags.items()) {
    out += std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + " " + d.message;
    if (!d.help.empty()) out += " | " + d.help;
    out += "\n";
  }
  return out;
}

TEST_CASE("config: found in the start directory or above", "[cli][config]") {
  Scratch s;
  s.Write(".capops.yaml", "plans: [plan.yaml]\n");
  fs::create_directories(s.dir() / "a/b");
  std::optional<fs::path> found =
      workspace::FindConfig(workspace::DiskFileSystem(), s.dir() / "a/b");
  REQUIRE(found);
  CHECK(fs::equivalent(*found, s.dir() / ".capops.yaml"));
  CHECK(workspace::FindConfig(workspace::DiskFileSystem(), s.dir()) == s.dir() / ".capops.yaml");
}

TEST_CASE("config: keys, types and paths relative to the file", "[cli][config]") {
  SourceManager sm;
  workspace::ConfigResult r =
      ParseText(&sm,
                "policies: ../packs/ai\n"
                "plans: [plans/*.yaml, q2.yaml]\n"
                "rules: {disable: [CAP-ALC-007], severity: {CAP-GOV-001: warning}}\n"
                "fail-on: never\n"
                "waivers: waivers.yaml\n");
  CHECK(Messages(r.diagnostics).empty());
  CHECK(r.config.policies == std::vector<std::string>{"packs/ai"});
  CHECK(r.config.plans == std::vector<std::string>{"cfg/plans/*.yaml", "cfg/q2.yaml"});
  CHECK(r.config.disable.size() == 1);
  REQUIRE(r.config.severity.size() == 1);
  CHECK(r.config.severity[0].severity == Severity::kWarning);
  CHECK(r.config.fail_on == lint::FailOn::kNever);
  CHECK(r.config.waivers == "cfg/waivers.yaml");
}

TEST_CASE("config: unknown keys and wrong types are located errors", "[cli][config]") {
  struct Case {
    const char* text;
    const char* expected;
  };
  const Case cases[] = {
      {"polices: [a]\n", "1:10 unknown key `polices` in config | did you mean `policies`?\n"},
      {"fail-on: 3\n",
       "1:10 `fail-on` must be a string, not an int | quote the value to make it a string\n"},
      {"fail-on: sometimes\n",
       "1:10 unknown `fail-on` value `sometimes` | expected `error`, `warning`, `info` or "
       "`never`\n"},
      {"plans: {a: b}\n", "1:8 `plans` must be a string or a list of strings, not a map\n"},
      {"rules: {disabel: [X]}\n",
       "1:18 unknown key `disabel` in `rules` section | did you mean `disable`?\n"},
      {"rules: {severity: {X: fatal}}\n",
       "1:23 severity of `X` must be `error`, `warning` or `info`, not `fatal`\n"},
      {"- a\n", "1:1 a config must be a mapping, not a list\n"},
      {"rules-url: docs/index.html\n",
       "1:12 `rules-url` must be an absolute `https://` or `http://` URL | the address where "
       "`capops-lint doc -o DIR` is published, e.g. `https://example.org/capops/index.html`\n"},
      {"rules-url: javascript:alert(1)\n",
       "1:12 `rules-url` must be an absolute `https://` or `http://` URL | the address where "
       "`capops-lint doc -o DIR` is published, e.g. `https://example.org/capops/index.html`\n"},
      {"rules-url: https:///index.html\n",
       "1:12 `rules-url` has no host | the address where `capops-lint doc -o DIR` is published, "
       "e.g. `https://example.org/capops/index.html`\n"},
      {"rules-url: \"https://x.org/a b\"\n",
       "1:12 `rules-url` holds whitespace or a control character | the address where "
       "`capops-lint doc -o DIR` is published, e.g. `https://example.org/capops/index.html`\n"},
      {"rules-url: https://x.org/index.html#CAP-ALC-001\n",
       "1:12 `rules-url` holds a fragment (`#…`); the rule id is added as one | the address where "
       "`capops-lint doc -o DIR` is published, e.g. `https://example.org/capops/index.html`\n"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    SourceManager sm;
    workspace::ConfigResult r = ParseText(&sm, c.text);
    CHECK(r.diagnostics.HasErrors());
    CHECK(Messages(r.diagnostics) == c.expected);
  }
}

TEST_CASE("config: rule selection, severity and fail-on apply, and flags win", "[cli][config]") {
  Scratch s;
  std::string config =
      s.Write(".capops.yaml",
              "plans: [plan.yaml]\n"
              "rules:\n  disable: [CAP-ALC-001]\n  severity: {CAP-GOV-001: warning}\n"
              "fail-on: never\n");
  RunResult r = Lint({"--config", config, "--format", "short"});
  CHECK(r.exit_code == kExitClean);  // fail-on: never
  CHECK_FALSE(Has(r.out, "CAP-ALC-001"));
  CHECK(Has(r.out, "warning[CAP-GOV-001]"));
  CHECK(Has(r.out, "error[CAP-SUP-001]"));
  CHECK(Lint({"--config", config, "--fail-on", "error"}).exit_code == kExitFindings);
}

TEST_CASE("config: rules-url links SARIF rules to the catalogue, and --rules-url wins",
          "[cli][config]") {
  Scratch s;
  std::string config = s.Write(
      ".capops.yaml", "plans: [plan.yaml]\nrules-url: https://a.example/rules/index.html\n");
  auto help_uri = [](const std::string& sarif) {
    nlohmann::json doc = nlohmann::json::parse(sarif);
    for (const auto& rule : doc["runs"][0]["tool"]["driver"]["rules"]) {
      if (rule["id"] == "CAP-ALC-001") return rule.value("helpUri", std::string());
    }
    return std::string();
  };
  RunResult from_config = Lint({"--config", config, "--format", "sarif"});
  CHECK(help_uri(from_config.out) == "https://a.example/rules/index.html#CAP-ALC-001");
  RunResult from_flag =
      Lint({"--config", config, "--format", "sarif", "--rules-url", "http://b.example/c.html"});
  CHECK(help_uri(from_flag.out) == "http://b.example/c.html#CAP-ALC-001");
  for (const char* bad :
       {"b.example/c.html", "https://b.example/c.html#x", "file:///etc/passwd", ""}) {
    INFO(bad);
    RunResult r = Lint({"--config", config, "--format", "sarif", "--rules-url", bad});
    CHECK(r.exit_code == kExitUsage);
    CHECK(Has(r.err, "--rules-url"));
    CHECK(r.out.empty());
  }
}

TEST_CASE("config: param values are checked against their types and change the outcome",
          "[cli][config]") {
  Scratch s;
  // With exploration no longer a research slice, the replacement-pool rule stays quiet.
  std::string config =
      s.Write(".capops.yaml",
              "plans: [plan.yaml]\n"
              "params:\n  capops.ai.allocation.research_slices: [training, tuning]\n");
  RunResult r = Lint({"--config", config, "--format", "json"});
  CHECK_FALSE(Has(r.out, "\"CAP-ALC-001\""));
  RunResult plain =
      Lint({"--config", s.Write("plain.yaml", "plans: [plan.yaml]\n"), "--format", "json"});
  CHECK(Has(plain.out, "\"CAP-ALC-001\""));
  // The digest ties the report to the values in force.
  CHECK(nlohmann::json::parse(r.out)["ruleset_digest"] !=
        nlohmann::json::parse(plain.out)["ruleset_digest"]);

  std::string bad =
      s.Write("bad.yaml",
              "plans: [plan.yaml]\n"
              "params:\n  research_slices: [trainin]\n  reserch_slices: [training]\n");
  RunResult wrong = Lint({"--config", bad});
  CHECK(wrong.exit_code == kExitUsage);
  CHECK(Has(wrong.err, "unknown Slice `trainin`"));
  CHECK(Has(wrong.err, "unknown param `reserch_slices`"));
  CHECK(Has(wrong.err, "did you mean `capops.ai.allocation.research_slices`?"));
}

TEST_CASE("config: CI reports show disabled and re-graded rules", "[cli][config]") {
  Scratch s;
  std::string config =
      s.Write(".capops.yaml",
              "plans: [plan.yaml]\n"
              "rules:\n  disable: [CAP-ALC-001]\n  severity: {CAP-GOV-001: warning}\n");
  std::string junit = Lint({"--config", config, "--format", "junit"}).out;
  // The case of each rule, up to the end of its element.
  auto testcase = [&](const std::string& name) {
    size_t at = junit.find("name=\"" + name + "\"");
    if (at == std::string::npos) return std::string();
    size_t open = junit.rfind("<testcase", at);
    size_t end = junit.find("</testcase>", at), self = junit.find("/>\n", at);
    size_t stop = self < junit.find('\n', at) ? self + 2 : end + 11;
    return junit.substr(open, stop - open);
  };
  CHECK(Has(testcase("CAP-ALC-001 replacement_not_free"),
            "<skipped message=\"disabled in the config\"/>"));
  CHECK(Has(junit, "skipped=\"1\""));
  // A warning does not fail a run that fails on errors: its finding is the case's output.
  std::string gov = testcase("CAP-GOV-001 decision_record_complete");
  INFO(gov);
  CHECK(Has(gov, "<system-out>"));
  CHECK(Has(gov, "warning decision record misses trade-off"));
  CHECK_FALSE(Has(gov, "<failure"));
  std::string fails_on_warnings =
      Lint({"--config", config, "--format", "junit", "--fail-on", "warning"}).out;
  junit = fails_on_warnings;
  CHECK(Has(testcase("CAP-GOV-001 decision_record_complete"), "<failure type=\"CAP-GOV-001\""));
  nlohmann::json sarif = nlohmann::json::parse(Lint({"--config", config, "--format", "sarif"}).out);
  std::map<std::string, nlohmann::json> rules;
  for (const auto& rule : sarif["runs"][0]["tool"]["driver"]["rules"]) rules[rule["id"]] = rule;
  CHECK(rules["CAP-ALC-001"]["defaultConfiguration"]["enabled"] == false);
  CHECK(rules["CAP-GOV-001"]["defaultConfiguration"]["enabled"] == true);
  CHECK(rules["CAP-GOV-001"]["defaultConfiguration"]["level"] == "warning");
}

TEST_CASE("config: a selector that names no rule stops the run", "[cli][config]") {
  Scratch s;
  std::string config =
      s.Write(".capops.yaml", "plans: [plan.yaml]\nrules: {disable: [CAP-ALC-01]}\n");
  RunResult r = Lint({"--config", config});
  CHECK(r.exit_code == kExitUsage);
  CHECK(Has(r.err, "no rule matches `CAP-ALC-01`"));
  CHECK(Has(r.err, "did you mean `CAP-ALC-001`?"));
  CHECK(Has(r.err, ".capops.yaml:2:"));
}

TEST_CASE("plans: directories and globs expand to sorted plan files", "[cli][plans]") {
  CHECK(lint::GlobMatch("plans/*.yaml", "plans/q2.yaml"));
  CHECK_FALSE(lint::GlobMatch("plans/*.yaml", "plans/eu/q2.yaml"));
  CHECK(lint::GlobMatch("plans/**/*.yaml", "plans/q2.yaml"));
  CHECK(lint::GlobMatch("plans/**/*.yaml", "plans/eu/west/q2.yaml"));
  CHECK(lint::GlobMatch("./plans/q?.yaml", "plans/q2.yaml"));
  CHECK_FALSE(lint::GlobMatch("plans/*.yaml", "plans/.hidden.yaml"));
  Diagnostic note;
  auto role = [&](const std::string& text) {
    return workspace::ClassifyFile("x.yaml", text, {}, &note);
  };
  CHECK(role("apiVersion: capops.dev/v1\nkind: CapacityPlan\n") == workspace::FileRole::kPlan);
  CHECK(role("---\nkind: \"CapacityPlan\"  # quoted\n") == workspace::FileRole::kPlan);
  CHECK(role("kind: Inventory\nx:\n  kind: CapacityPlan\n") == workspace::FileRole::kInventory);

  Scratch s;
  s.Write("eu/plan.yaml", s.Read("plan.yaml"));
  s.Write("eu/inventory.yaml", s.Read("inventory.yaml"));
  s.Write("eu/notes.yaml", "title: not a plan\n");
  workspace::DiskFileSystem disk;
  workspace::PlanSet set(disk);
  std::string error;
  REQUIRE(set.Add(s.dir().string(), &error));
  CHECK(set.plans() == std::vector<std::string>{s.Path("eu/plan.yaml"), s.Path("plan.yaml")});
  set.Group({});
  CHECK(set.groups().size() == 2);  // each directory with its own inventory
  workspace::PlanSet none(disk);
  CHECK_FALSE(none.Add(s.Path("*.yml"), &error));
  CHECK(error == "no plan files match `" + s.Path("*.yml") + "`");
}

TEST_CASE("plans: a directory lints every plan in one deterministic run", "[cli][plans]") {
  Scratch s;
  s.Write("eu/plan.yaml", s.Read("plan.yaml"));
  s.Write("eu/inventory.yaml", s.Read("inventory.yaml"));
  RunResult first = Lint({"--no-config", "--format", "short", s.dir().string()});
  CHECK(first.exit_code == kExitFindings);
  CHECK(first.out.find("eu/plan.yaml") < first.out.find(s.Path("plan.yaml") + ":"));
  CHECK(first.out == Lint({"--no-config", "--format", "short", s.dir().string()}).out);
  CHECK(Has(Lint({"--no-config", s.dir().string()}).out, "(2 plans, "));
}

const char* kWaiverHead = "waivers:\n";

std::string WaiverEntry(const std::string& rule, const std::string& target,
                        const std::string& expires) {
  return "  - rule: " + rule + "\n    file: plan.yaml\n    target: " + target +
         "\n    owner: reliability-lead\n    reason: lent until the Q2 hardware arrives\n    "
         "expires: " +
         expires + "\n";
}

TEST_CASE("waivers: one suppresses, one expired, one matched nothing", "[cli][waivers]") {
  Scratch s;
  std::string waivers =
      s.Write("waivers.yaml", std::string(kWaiverHead) +
                                  WaiverEntry("CAP-ALC-001", "a-explore", "2099-12-31") +
                                  WaiverEntry("CAP-SUP-001", "allocations[a-tune]", "2020-01-01") +
                                  WaiverEntry("CAP-CMP-001", "no-such-allocation", "2099-12-31"));
  RunResult r = Lint({"--no-config", "--waivers", waivers, s.Path("plan.yaml")});
  CHECK(r.exit_code == kExitFindings);
  CHECK(Has(r.out, "plan.yaml:" + LineOf(s.Read("plan.yaml"), "{id: a-explore") +
                       ":44: waived[CAP-ALC-001] exploration demand `explore` counts 2 GPUs of "
                       "replacement pool `serve-eu-spare` as free (owner `reliability-lead`, until "
                       "2099-12-31)"));
  CHECK_FALSE(Has(r.out, "error[CAP-ALC-001]"));
  CHECK(Has(r.out, "error[CAP-SUP-001]"));  // its waiver expired
  CHECK(Has(r.out, "warning[waiver]: waiver for `CAP-SUP-001` expired on 2020-01-01"));
  CHECK(Has(r.out, "warning[waiver]: stale waiver: no `CAP-CMP-001` finding matches it"));
  CHECK(Has(r.out, ", 1 waived"));

  RunResult json =
      Lint({"--no-config", "--format", "json", "--waivers", waivers, s.Path("plan.yaml")});
  CHECK(Has(json.out, "\"justification\": \"lent until the Q2 hardware arrives\""));
  CHECK(Has(json.out, "\"waived\": 1"));
}

TEST_CASE("waivers: a run of some of the config's plans calls stale only the waivers it tested",
          "[cli][waivers][pre-commit]") {
  // pre-commit passes the changed files, in batches: a run that did not lint
  // `two/plan.yaml` cannot say its waiver matches nothing.
  Scratch s;
  for (const char* dir : {"one", "two"}) {
    s.Write(std::string(dir) + "/plan.yaml", s.Read("plan.yaml"));
    s.Write(std::string(dir) + "/inventory.yaml", s.Read("inventory.yaml"));
  }
  auto entry = [](const std::string& file, const std::string& target) {
    return "  - {rule: CAP-CMP-001, file: " + file + ", target: " + target +
           ", owner: o, reason: accepted, expires: 2099-01-01}\n";
  };
  s.Write("waivers.yaml", std::string(kWaiverHead) + entry("two/plan.yaml", "no-such-allocation") +
                              entry("one/plan.yaml", "no-such-allocation-either"));
  s.Write(".capops.yaml", "plans: [one/plan.yaml, two/plan.yaml]\nwaivers: waivers.yaml\n");
  std::string config = s.Path(".capops.yaml");
  auto stale = [](const RunResult& r) {
    size_t n = 0;
    for (size_t at = r.out.find("stale waiver"); at != std::string::npos;
         at = r.out.find("stale waiver", at + 1))
      ++n;
    return n;
  };
  RunResult one = Lint({"--config", config, s.Path("one/plan.yaml")});
  INFO(one.out);
  CHECK(stale(one) == 1);  // one/'s own waiver, which this run did test
  CHECK(Has(one.out, "waivers.yaml:3:"));
  CHECK(Has(one.out, "(1 plan, "));
  // Every plan of the config, named or not: both waivers are judged.
  CHECK(stale(Lint({"--config", config})) == 2);
  CHECK(stale(Lint({"--config", config, s.Path("one/plan.yaml"), s.Path("two/plan.yaml")})) == 2);
  // Without a config the plans named are all there is.
  CHECK(stale(Lint(
            {"--no-config", "--waivers", s.Path("waivers.yaml"), s.Path("one/plan.yaml")})) == 2);
}

TEST_CASE("waivers: a waived finding does not fail the run", "[cli][waivers]") {
  Scratch s;
  std::string plan = s.Write("one/plan.yaml", s.Read("plan.yaml"));
  s.Write("one/inventory.yaml", s.Read("inventory.yaml"));
  // Waive every finding of the example: the run passes, and fails again without the waivers.
  std::string entries;
  for (const char* rule : {"CAP-ALC-001", "CAP-ALC-006", "CAP-ALC-010", "CAP-CMP-001",
                           "CAP-GOV-001", "CAP-SUP-001", "CAP-SUP-005"}) {
    entries += "  - {rule: " + std::string(rule) +
               ", file: 'one/*.yaml', owner: o, reason: accepted, expires: 2099-01-01}\n";
  }
  std::string waivers = s.Write("waivers.yaml", kWaiverHead + entries);
  RunResult before = Lint({"--no-config", plan});
  RunResult after = Lint({"--no-config", "--waivers", waivers, plan});
  INFO(after.out);
  CHECK(before.exit_code == kExitFindings);
  CHECK(after.exit_code == kExitClean);
}

TEST_CASE("waivers: entries without owner, reason or expiry are rejected", "[cli][waivers]") {
  Scratch s;
  std::string waivers =
      s.Write("waivers.yaml",
              "waivers:\n  - rule: CAP-ALC-001\n    file: plan.yaml\n    reason: why\n"
              "    expires: soon\n    ownr: me\n");
  RunResult r = Lint({"--no-config", "--waivers", waivers, s.Path("plan.yaml")});
  CHECK(r.exit_code == kExitUsage);
  CHECK(Has(r.err, "error[config]: this waiver has no `owner`"));
  CHECK(Has(r.err, "waivers.yaml:2:5"));
  CHECK(Has(r.err, "error[config]: `expires` must be a date (YYYY-MM-DD), not a string"));
  CHECK(Has(r.err, "waivers.yaml:5:14"));
  CHECK(Has(r.err, "unknown key `ownr` in waiver"));
}

TEST_CASE("baseline: known findings stay known when lines move, and new ones are reported",
          "[cli][baseline]") {
  Scratch s;
  std::string plan = s.Path("plan.yaml");
  RunResult written = Lint({"--no-config", "--write-baseline", s.Path("baseline.yaml"), plan});
  CHECK(written.exit_code == kExitClean);
  std::string baseline = s.Read("baseline.yaml");
  CHECK(Has(baseline,
            "  - {rule: \"CAP-ALC-001\", file: \"plan.yaml\", at: \"allocations[a-explore].pool\", "
            "facts: \"a=a-explore d=explore p=serve-eu-spare\", statement: \""));
  CHECK_FALSE(
      Has(baseline, ":" + LineOf(s.Read("plan.yaml"), "{id: a-explore")));  // no line numbers
  // The fact a finding points at is its `at`, not one of its facts, even
  // where the evidence shows it (a rule over computed values).
  CHECK(Has(baseline,
            "  - {rule: \"CAP-GOV-001\", file: \"plan.yaml\", at: \"decision\", statement: \""));

  // Every line moves down; a new finding appears.
  std::string text = s.Read("plan.yaml");
  size_t tune = text.find("evidence: [q-h100, f-h100]");
  REQUIRE(tune != std::string::npos);
  text.insert(tune, "interruptible: true, ");
  s.Write("plan.yaml", "# a comment that shifts every line\n\n" + text);
  RunResult r =
      Lint({"--no-config", "--format", "short", "--baseline", s.Path("baseline.yaml"), plan});
  CHECK(r.exit_code == kExitFindings);
  CHECK(r.out == plan + ":" + LineOf(s.Read("plan.yaml"), "{id: a-tune") +
                     ":75: error[CAP-ALC-006]: allocation `a-tune` is interruptible but demand "
                     "`tune-v3` has no tested checkpoint restore\n");
  CHECK(
      Has(Lint({"--no-config", "--baseline", s.Path("baseline.yaml"), plan}).out, ", 9 baselined"));

  // Rewritten after the edit, the file differs by the one new line: it diffs well.
  Lint({"--no-config", "--write-baseline", s.Path("again.yaml"), plan});
  std::string again = s.Read("again.yaml");
  std::string added =
      "  - {rule: \"CAP-ALC-006\", file: \"plan.yaml\", at: \"allocations[a-tune].interruptible\", "
      "facts: \"a=a-tune d=tune-v3\", statement: \"";
  size_t at = again.find(added);
  REQUIRE(at != std::string::npos);
  added = again.substr(at, again.find('\n', at) + 1 - at);
  CHECK(again.substr(0, at) + again.substr(at + added.size()) == baseline);
}

TEST_CASE("baseline: a known finding that got worse is reported as such, in every format",
          "[cli][baseline]") {
  Scratch s;
  std::string plan = s.Path("plan.yaml");
  REQUIRE(Lint({"--no-config", "--write-baseline", s.Path("baseline.yaml"), plan}).exit_code ==
          kExitClean);
  // The tuning allocation's 4 GPUs have no confirmed supply: 4 short.
  CHECK(Has(s.Read("baseline.yaml"),
            "at: \"allocations[a-tune].gpus\", facts: \"a=a-tune d=tune-v3 p=train-eu\""));
  CHECK(Has(s.Read("baseline.yaml"), "measure: 4}\n"));
  std::string text = s.Read("plan.yaml");
  const std::string tune = "{id: a-tune, demand: tune-v3, pool: train-eu, gpus: 4,";
  size_t at = text.find(tune);
  REQUIRE(at != std::string::npos);
  auto tuned = [&](int gpus) {
    std::string edited = text;
    s.Write("plan.yaml", edited.replace(at, tune.size(),
                                        "{id: a-tune, demand: tune-v3, pool: train-eu, gpus: " +
                                            std::to_string(gpus) + ","));
  };
  auto lint = [&](const std::string& format) {
    return Lint({"--no-config", "--format", format, "--baseline", s.Path("baseline.yaml"), plan});
  };

  // 12 GPUs: the same finding (its message's numbers changed), 12 short.
  tuned(12);
  RunResult r = lint("short");
  CHECK(r.exit_code == kExitFindings);
  const std::string note = "worse than the baseline: 12 over `0`, baseline 4";
  CHECK(Has(r.out, "error[CAP-SUP-005]: allocation `a-tune` needs 12 GPUs of `h100-80`"));
  CHECK(Has(r.out, "(" + note + ")\n"));
  CHECK(Has(lint("text").out, "   = note: " + note + "\n"));
  CHECK(Has(lint("text").out, "8 baselined, 1 worse than the baseline\n"));
  nlohmann::json json = nlohmann::json::parse(lint("json").out);
  CHECK(json["summary"]["worse_than_baseline"] == 1);
  auto worse = std::find_if(json["violations"].begin(), json["violations"].end(),
                            [](const nlohmann::json& v) { return !v["baseline"].is_null(); });
  REQUIRE(worse != json["violations"].end());
  CHECK((*worse)["measure"] == 12);
  CHECK((*worse)["baseline"]["measure"] == 4);
  CHECK((*worse)["baseline"]["note"] == note);
  nlohmann::json sarif = nlohmann::json::parse(lint("sarif").out);
  size_t updated = 0;
  for (const nlohmann::json& result : sarif["runs"][0]["results"]) {
    if (result.value("baselineState", "") != "updated") continue;
    ++updated;
    CHECK(result["properties"]["baselineMeasure"] == 4);
    CHECK(Has(result["message"]["text"].get<std::string>(), "\nnote: " + note));
  }
  CHECK(updated == 1);
  CHECK(Has(lint("github").out, "%0Anote: " + note + "\n"));
  CHECK(Has(lint("github").out, " 8 baselined, 1 worse than the baseline, in 2 files\n"));
  CHECK(Has(lint("html").out, " · 8 baselined · 1 worse than the baseline · "));
  CHECK(Has(lint("junit").out, "(" + note + ")"));
  CHECK(Has(lint("html").out, "<p class=\"baseline\"><b>note</b> worse than the baseline"));

  // 2 GPUs, or the 4 it had: 2 or 4 short, no worse, still known.
  for (int gpus : {2, 4}) {
    tuned(gpus);
    r = lint("short");
    INFO(gpus << " GPUs: " << r.out);
    CHECK(r.exit_code == kExitClean);
    CHECK_FALSE(Has(r.out, "CAP-SUP-005"));
    CHECK(Has(lint("text").out, ", 9 baselined\n"));
  }
}

TEST_CASE("fail-on never exits 0 with findings, and --output writes the report to a file",
          "[cli]") {
  Scratch s;
  RunResult r = Lint(
      {"--no-config", "--fail-on", "never", "--output", s.Path("report.txt"), s.Path("plan.yaml")});
  CHECK(r.exit_code == kExitClean);
  CHECK(r.out.empty());
  CHECK(Has(s.Read("report.txt"), "error[CAP-ALC-001]"));
  CHECK(Lint({"--no-config", "--fail-on", "warning", s.Path("plan.yaml")}).exit_code ==
        kExitFindings);
  CHECK(Lint({"--no-config", "--output", s.Path("no/such/dir/r.txt"), s.Path("plan.yaml")})
            .exit_code == kExitUsage);
}

// The check command in-process, with the given fact-text threshold.
RunResult Check(CheckOptions options, size_t release_text_bytes) {
  options.session.engine.release_text_bytes = release_text_bytes;
  std::istringstream in;
  std::ostringstream out, err;
  int code = RunCheck(options, in, false, out, err);
  return {code, out.str(), err.str()};
}

TEST_CASE("a report is the same, byte for byte, with fact texts released or kept", "[cli]") {
  Scratch s;
  CheckOptions options;
  options.session.config = (fs::path(capops::testing::SourceDir()) / "examples/ci/.capops.yaml")
                               .string();  // with a waiver
  options.session.trace = true;
  using report::Format;
  for (Format format : {Format::kText, Format::kJson, Format::kSarif, Format::kGithub}) {
    options.format = format;
    RunResult kept = Check(options, EngineOptions{}.release_text_bytes);
    RunResult released = Check(options, 0);
    INFO("format " << static_cast<int>(format));
    CHECK(released.exit_code == kept.exit_code);
    CHECK(released.out == kept.out);
    CHECK(released.err == kept.err);
  }
  options.format = Format::kText;
  RunResult text = Check(options, 0);
  CHECK(Has(text.out, "1 waived"));  // the waiver found its finding by fact path
  CHECK(Has(text.out, "|   - {id: q-h100, kind: quota"));  // a quoted line

  options.session.write_baseline = s.Path("kept.baseline");
  Check(options, EngineOptions{}.release_text_bytes);
  options.session.write_baseline = s.Path("released.baseline");
  Check(options, 0);
  CHECK(s.Read("released.baseline") == s.Read("kept.baseline"));
  CHECK(Has(s.Read("released.baseline"),
            "allocations[a-train-alt]"));  // a fact path, from the text read back
}

TEST_CASE("a fact file changed on disk after a lint loses its snippets, nothing else", "[cli]") {
  Scratch s;
  std::string plan_text = s.Read("plan.yaml");
  // The line of the allocation CAP-ALC-001 points at.
  std::string explore_line = LineOf(plan_text, "{id: a-explore");
  std::istringstream lines(plan_text);
  std::string explore_text;
  for (int i = 0; i < std::stoi(explore_line); ++i) std::getline(lines, explore_text);
  REQUIRE(Has(explore_text, "a-explore"));

  auto lint = [&](size_t release_text_bytes, Engine* engine) {
    std::string error;
    std::ostringstream problems;
    REQUIRE(LoadPack({}, false, engine, problems));
    engine->options().release_text_bytes = release_text_bytes;
    std::vector<TextFile> plans, inventories;
    REQUIRE(workspace::ReadAll(workspace::DiskFileSystem(), {s.Path("plan.yaml")}, SIZE_MAX, &plans,
                               &error));  // no limit
    REQUIRE(workspace::ReadAll(workspace::DiskFileSystem(), {s.Path("inventory.yaml")}, SIZE_MAX,
                               &inventories, &error));
    CHECK(plans[0].stamp.has_value());
    return engine->Lint(std::move(plans), std::move(inventories));
  };
  auto text_of = [](const Engine& engine, const eval::LintReport& report) {
    std::ostringstream out;
    report::WriteText(engine.sources(), report, {}, out);
    return out.str();
  };
  Engine kept_engine, released_engine;
  eval::LintReport kept = lint(SIZE_MAX, &kept_engine);
  eval::LintReport released = lint(0, &released_engine);
  size_t released_files = 0;
  for (FileId f = 0; f < released_engine.sources().size(); ++f) {
    released_files += released_engine.sources().file(f).released();
  }
  CHECK(released_files == 2);  // the plan and the inventory, not the policies
  std::string before = text_of(kept_engine, kept);
  CHECK(Has(before, explore_text));

  s.Write("plan.yaml", plan_text + "# edited\n");  // lines already read back would stay
  std::string after = text_of(released_engine, released);
  CHECK_FALSE(Has(after, explore_text));
  CHECK(Has(after,
            "plan.yaml:" + explore_line + ":44"));  // the finding is still there, and where it is
  CHECK(Has(after, "|   - {id: q-h100, kind: quota"));  // the inventory did not change
  CHECK(after.size() < before.size());
  CHECK(text_of(kept_engine, kept) == before);  // a kept text is what was linted
}

}  // namespace
}  // namespace capops::cli
