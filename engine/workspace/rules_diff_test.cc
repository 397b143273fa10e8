// SPDX-License-Identifier: Apache-2.0
// `rules --diff`: two small packs in a scratch directory, one edit apart —
// a tightened `where`, an added and a removed rule, a param default, a
// change of layout only — and what the diff says about rules and findings;
// then the CLI's formats, a git revision as the old version, and errors.
#include "engine/lint/rules_diff.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/cli/driver.h"
#include "engine/cli/rules_diff_command.h"
#include "tests/support/fixture.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_dir.h"

namespace capops::lint {
namespace {

namespace fs = std::filesystem;

// A scratch directory (removed at the end) with an old and a new pack, and
// the golden case's plan beside its inventory: allocations `a-one` to
// `a-four` of 1 to 4 GPUs on lines 8 to 11.
struct Packs : testing::TempDir {
  explicit Packs(const std::string& name) : TempDir("capops-rules-diff-" + name) {
    fs::create_directories(dir() / "old");
    fs::create_directories(dir() / "new");
    Write("plans/plan.yaml", Plan());
    Write("plans/inventory.yaml", Inventory());
  }

  static std::string Plan() {
    return testing::ReadSourceFile("tests/golden/rules-diff/plans/plan.yaml");
  }
  static std::string Inventory() {
    return testing::ReadSourceFile("tests/golden/rules-diff/plans/inventory.yaml");
  }
};

// T-001 with its `where` threshold and the param's default filled in.
std::string Pack(const std::string& where, const std::string& min_gpus = "0",
                 bool with_t002 = true) {
  std::string text = "package t\nparam min_gpus: int = " + min_gpus + R"(

/// Allocations above a size.
@id("T-001") @severity(error) @owner("capacity-team")
rule big_allocation {
  for a in plan.allocations
  where a.gpus > min_gpus
  )" + where + R"(
  deny at a.gpus "allocation `{a.id}` takes {a.gpus} GPUs"
}
)";
  if (with_t002) {
    text += R"(
@id("T-002") @severity(warning)
rule huge_allocation {
  for a in plan.allocations
  where a.gpus >= 4
  warn at a.gpus "allocation `{a.id}` is huge"
}
)";
  }
  return text;
}

struct Outcome {
  RulesDiff rules;
  FindingsDiff findings;
};

using nlohmann::json;

// A changed rule, read back from the JSON output.
RuleChange ChangeFrom(const json& c) {
  RuleChange change;
  change.rule.id = c["id"];
  for (const auto& f : c["fields"]) change.fields.push_back({f["field"], f["old"], f["new"]});
  for (const auto& f : c["params"]) change.params.push_back({f["field"], f["old"], f["new"]});
  for (const auto& x : c["clauses"]) {
    ClauseChange::Kind kind = x["change"] == "changed" ? ClauseChange::Kind::kChanged
                              : x["change"] == "added" ? ClauseChange::Kind::kAdded
                                                       : ClauseChange::Kind::kRemoved;
    change.clauses.push_back(
        {kind, x["old_index"], x["new_index"], x["keyword"], x["old"], x["new"]});
  }
  return change;
}

std::vector<DiffFinding> FindingsFrom(const json& list) {
  std::vector<DiffFinding> findings;
  for (const auto& f : list) {
    const json& at = f["location"];
    findings.push_back({f["rule"],
                        f["severity"],
                        at["file"],
                        at["line"],
                        at["column"],
                        f["at"],
                        f["message"],
                        f["key"],
                        "",
                        {},
                        {},
                        {},
                        {}});
  }
  return findings;
}

// Diffs the two packs over the plan (`rules --diff old new plans/plan.yaml
// --format json`) and reads the output back.
Outcome Diff(const Packs& packs) {
  cli::RulesDiffOptions options{packs.Path("old"),
                                packs.Path("new"),
                                {packs.Path("plans/plan.yaml")},
                                {},
                                report::Format::kJson,
                                false};
  std::ostringstream out, err;
  int code = cli::RunRulesDiff(options, out, err);
  INFO(err.str());
  REQUIRE(code == cli::kExitClean);
  json j = json::parse(out.str());
  Outcome o;
  for (const auto& r : j["added"])
    o.rules.added.push_back({r["id"], r["name"], r["severity"], r["defined_at"]});
  for (const auto& r : j["removed"])
    o.rules.removed.push_back({r["id"], r["name"], r["severity"], r["defined_at"]});
  for (const auto& c : j["changed"]) o.rules.changed.push_back(ChangeFrom(c));
  o.rules.unchanged = j["unchanged"];
  o.rules.old_digest = j["old_digest"];
  o.rules.new_digest = j["new_digest"];
  o.findings.appeared = FindingsFrom(j["findings"]["appeared"]);
  o.findings.disappeared = FindingsFrom(j["findings"]["disappeared"]);
  return o;
}

// "RULE at" for each finding, in order.
std::vector<std::string> Places(const std::vector<DiffFinding>& findings) {
  std::vector<std::string> out;
  for (const DiffFinding& f : findings) out.push_back(f.rule + " " + f.at);
  return out;
}

using Strings = std::vector<std::string>;

TEST_CASE("a tightened `where` lists exactly the findings that disappear", "[cli][rules-diff]") {
  Packs packs("tightened");
  packs.Write("old/rules.cpl", Pack("where a.gpus > 1"));
  packs.Write("new/rules.cpl", Pack("where a.gpus > 2"));
  Outcome o = Diff(packs);
  CHECK(o.rules.added.empty());
  CHECK(o.rules.removed.empty());
  REQUIRE(o.rules.changed.size() == 1);
  const RuleChange& c = o.rules.changed[0];
  CHECK(c.rule.id == "T-001");
  CHECK(c.fields.empty());
  CHECK(c.params.empty());
  REQUIRE(c.clauses.size() == 1);
  CHECK(c.clauses[0].kind == ClauseChange::Kind::kChanged);
  CHECK(c.clauses[0].old_index == 3);
  CHECK(c.clauses[0].new_index == 3);
  CHECK(c.clauses[0].keyword == "where");
  CHECK(c.clauses[0].old_text == "where a.gpus > 1");
  CHECK(c.clauses[0].new_text == "where a.gpus > 2");
  CHECK(o.rules.unchanged == 1);
  CHECK(o.rules.old_digest != o.rules.new_digest);
  CHECK(Places(o.findings.disappeared) == Strings{"T-001 allocations[a-two].gpus"});
  CHECK(o.findings.disappeared[0].line == 9);
  CHECK(o.findings.disappeared[0].message == "allocation `a-two` takes 2 GPUs");
  CHECK(o.findings.appeared.empty());
}

TEST_CASE("an added and a removed rule, and their findings", "[cli][rules-diff]") {
  Packs packs("added-removed");
  packs.Write("old/rules.cpl", Pack("where a.gpus > 1"));
  std::string added = R"(
@id("T-003") @severity(info)
rule single_gpu {
  for a in plan.allocations
  where a.gpus == 1
  warn at a.gpus "allocation `{a.id}` holds one GPU"
}
)";
  packs.Write("new/rules.cpl", Pack("where a.gpus > 1", "0", false) + added);
  Outcome o = Diff(packs);
  REQUIRE(o.rules.added.size() == 1);
  CHECK(o.rules.added[0].id == "T-003");
  CHECK(o.rules.added[0].name == "single_gpu");
  CHECK(o.rules.added[0].severity == "info");
  REQUIRE(o.rules.removed.size() == 1);
  CHECK(o.rules.removed[0].id == "T-002");
  CHECK(o.rules.changed.empty());
  CHECK(o.rules.unchanged == 1);
  CHECK(Places(o.findings.disappeared) == Strings{"T-002 allocations[a-four].gpus"});
  CHECK(Places(o.findings.appeared) == Strings{"T-003 allocations[a-one].gpus"});
}

TEST_CASE("a param's default is a change of every rule that reads it", "[cli][rules-diff]") {
  Packs packs("param");
  packs.Write("old/rules.cpl", Pack("where a.gpus < 100", "1"));
  packs.Write("new/rules.cpl", Pack("where a.gpus < 100", "3"));
  Outcome o = Diff(packs);
  REQUIRE(o.rules.changed.size() == 1);
  const RuleChange& c = o.rules.changed[0];
  CHECK(c.clauses.empty());
  REQUIRE(c.params.size() == 1);
  CHECK(c.params[0].field == "param min_gpus");
  CHECK(c.params[0].old_value == "int = 1");
  CHECK(c.params[0].new_value == "int = 3");
  CHECK(Places(o.findings.disappeared) ==
        Strings{"T-001 allocations[a-two].gpus", "T-001 allocations[a-three].gpus"});
  CHECK(o.findings.appeared.empty());
}

// T-003 with two statements at the same fact; the first fires from `cap`
// up; `more` is added to the second one's message.
std::string TwoStatements(const std::string& cap, const std::string& more = "") {
  return "package t\nparam cap: int = " + cap + R"(

@id("T-003") @severity(error)
rule sizes {
  for a in plan.allocations
  where a.gpus >= 4
  deny when a.gpus >= cap at a.gpus "allocation `{a.id}` is at the cap of {cap}"
  deny at a.gpus "allocation `{a.id}` takes {a.gpus} GPUs)" +
         more + R"("
}
)";
}

TEST_CASE("a second statement firing at a fact is the finding that appears", "[cli][rules-diff]") {
  Packs packs("second-statement");
  packs.Write("old/rules.cpl", TwoStatements("10"));
  packs.Write("new/rules.cpl", TwoStatements("4"));
  Outcome o = Diff(packs);
  REQUIRE(o.findings.appeared.size() == 1);
  CHECK(o.findings.appeared[0].message == "allocation `a-four` is at the cap of 4");
  CHECK(o.findings.appeared[0].line == 11);
  CHECK(o.findings.disappeared.empty());

  // The other statement's finding also changed (its message names more):
  // it still pairs with its old self, and the new statement's is shown.
  packs.Write("new/rules.cpl", TwoStatements("4", " of pool `{a.pool}`"));
  Outcome both = Diff(packs);
  REQUIRE(both.findings.appeared.size() == 1);
  CHECK(both.findings.appeared[0].message == "allocation `a-four` is at the cap of 4");
}

TEST_CASE("layout and comments are no change", "[cli][rules-diff]") {
  Packs packs("layout");
  std::string text = Pack("where a.gpus > 1");
  std::string relaid = "// reformatted\n" + text;
  for (size_t at = relaid.find("\n  "); at != std::string::npos; at = relaid.find("\n  ", at + 5))
    relaid.replace(at, 3, "\n     ");
  relaid.replace(relaid.find("a.gpus > 1"), 10, "a.gpus   >   1  // the threshold");
  packs.Write("old/rules.cpl", text);
  packs.Write("new/rules.cpl", relaid);
  Outcome o = Diff(packs);
  CHECK(o.rules.added.empty());
  CHECK(o.rules.removed.empty());
  CHECK(o.rules.changed.empty());
  CHECK(o.rules.unchanged == 2);
  CHECK(o.rules.old_digest == o.rules.new_digest);
  CHECK(o.findings.appeared.empty());
  CHECK(o.findings.disappeared.empty());
}

TEST_CASE("clauses are aligned: an inserted clause is added, the rest unchanged",
          "[cli][rules-diff]") {
  Packs packs("aligned");
  packs.Write("old/rules.cpl", Pack("where a.gpus > 1"));
  std::string inserted = Pack("where a.gpus > 1");
  inserted.replace(inserted.find("  where a.gpus > min_gpus"), 0,
                   "  let d = plan.demands[a.demand]\n");
  inserted.insert(inserted.find("allocation `{a.id}` takes"), "big: ");
  packs.Write("new/rules.cpl", inserted);
  Outcome o = Diff(packs);
  REQUIRE(o.rules.changed.size() == 1);
  const RuleChange& c = o.rules.changed[0];
  REQUIRE(c.clauses.size() == 1);
  CHECK(c.clauses[0].kind == ClauseChange::Kind::kAdded);
  CHECK(c.clauses[0].new_index == 2);
  CHECK(c.clauses[0].keyword == "let");
  CHECK(c.clauses[0].new_text == "let d = plan.demands[a.demand]");
  REQUIRE(c.fields.size() == 1);
  CHECK(c.fields[0].field == "deny 1 message");
  // Same findings, with new messages: nothing appears or disappears.
  CHECK(o.findings.appeared.empty());
  CHECK(o.findings.disappeared.empty());
}

const char* kTests = R"(test "fires" {
  facts "fixtures/facts.yaml"
  expect T-001
}
)";

TEST_CASE("both versions' test fixtures are linted, a shared one once", "[cli][rules-diff]") {
  Packs packs("fixtures");
  std::string facts = Packs::Inventory() + "---\n" + Packs::Plan();
  for (const char* side : {"old", "new"}) {
    packs.Write(std::string(side) + "/rules_test.cpl", kTests);
    packs.Write(std::string(side) + "/fixtures/facts.yaml", facts);
  }
  packs.Write("old/rules.cpl", Pack("where a.gpus > 1"));
  packs.Write("new/rules.cpl", Pack("where a.gpus > 3"));
  cli::RulesDiffOptions options{
      packs.Path("old"), packs.Path("new"), {}, {}, report::Format::kText, true};
  std::ostringstream out, err;
  CHECK(cli::RunRulesDiff(options, out, err) == cli::kExitClean);  // nothing appeared
  INFO(out.str() << err.str());
  std::string fixture = packs.Path("new") + "/fixtures/facts.yaml";
  CHECK(out.str().find("findings over 1 test fact set and 0 plan files: 2 disappeared, 0 appeared, "
                       "0 severity changed, 0 worse, 0 better, 2 unchanged\n") !=
        std::string::npos);
  CHECK(out.str().find("\n" + fixture + "\n  - T-001 " + fixture + ":17:") != std::string::npos);
  CHECK(out.str().find(" docs[1].allocations[a-three].gpus  allocation `a-three` takes 3 GPUs\n") !=
        std::string::npos);

  // The old fixture differs: both are linted, each under its own name.
  packs.Write("old/fixtures/facts.yaml",
              facts + "  - {id: a-five, demand: explore, pool: p, gpus: 2}\n");
  std::ostringstream out2;
  CHECK(cli::RunRulesDiff(options, out2, err) == cli::kExitClean);
  CHECK(out2.str().find("findings over 2 test fact sets") != std::string::npos);
  CHECK(out2.str().find("allocations[a-five].gpus") != std::string::npos);
}

using testing::CliResult;
using testing::RunCli;

TEST_CASE("rules --diff on the command line: text, markdown, exit codes", "[cli][rules-diff]") {
  Packs packs("cli");
  packs.Write("old/rules.cpl", Pack("where a.gpus > 2"));
  packs.Write("new/rules.cpl", Pack("where a.gpus > 1"));
  std::string plan = packs.Path("plans/plan.yaml");
  CliResult r = RunCli({"rules", "--diff", packs.Path("old"), packs.Path("new"), plan});
  INFO(r.out << r.err);
  CHECK(r.exit_code == cli::kExitClean);
  CHECK(r.out.find("rules: 0 added, 0 removed, 1 changed, 1 unchanged\n~ T-001  big_allocation  "
                   "(error)  ") != std::string::npos);
  CHECK(r.out.find("    clause 3 `where` changed\n      old: where a.gpus > 2\n      new: where "
                   "a.gpus > 1\n") != std::string::npos);
  CHECK(r.out.find("0 disappeared, 1 appeared, 0 severity changed, 0 worse, 0 better, 3 "
                   "unchanged\nby rule:\n") != std::string::npos);
  CHECK(r.out.find("\n" + plan + "\n  + T-001 " + plan + ":9:") != std::string::npos);

  CHECK(RunCli({"rules", "--diff", packs.Path("old"), packs.Path("new"), "--fail-on-new", plan})
            .exit_code == cli::kExitFindings);
  CliResult md = RunCli(
      {"rules", "--diff", packs.Path("old"), packs.Path("new"), "--format", "markdown", plan});
  CHECK(md.out.find("- clause 3 `where` changed: `where a.gpus > 2` → `where a.gpus > 1`\n") !=
        std::string::npos);
  CHECK(md.out.find("```diff\n+ T-001 ") != std::string::npos);

  CliResult missing = RunCli({"rules", "--diff", packs.Path("nowhere"), packs.Path("new")});
  CHECK(missing.exit_code == cli::kExitUsage);
  CHECK(missing.err.find("no policy file or directory") != std::string::npos);
  CHECK(RunCli({"rules", "--diff", packs.Path("old")}).exit_code == cli::kExitUsage);
  CHECK(RunCli({"rules", "--digest", "--diff", packs.Path("old"), packs.Path("new")}).exit_code ==
        cli::kExitUsage);

  packs.Write("new/broken.cpl", "package t\nparam oops: int = \"x\"\n");
  CliResult broken = RunCli({"rules", "--diff", packs.Path("old"), packs.Path("new")});
  CHECK(broken.exit_code == cli::kExitUsage);
  CHECK(broken.err.find("broken.cpl:2:") != std::string::npos);
}

// `rules --diff old new plan [args…]` on the command line.
CliResult DiffCli(const Packs& packs, std::vector<std::string> args = {}) {
  args.insert(args.begin(), {"rules", "--diff", packs.Path("old"), packs.Path("new"),
                             packs.Path("plans/plan.yaml")});
  return RunCli(args);
}

// The findings of `DiffCli(packs, args)` in JSON.
json FindingsJson(const Packs& packs, std::vector<std::string> args = {}) {
  args.insert(args.end(), {"--format", "json"});
  CliResult r = DiffCli(packs, args);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == cli::kExitClean);
  return json::parse(r.out)["findings"];
}

TEST_CASE("a finding whose severity changed is its own category, failing the run or not",
          "[cli][rules-diff]") {
  Packs packs("severity");
  std::string warns = Pack("where a.gpus > 1");
  std::string denies = warns;
  // T-002, a warning made an error.
  denies.replace(denies.find("@severity(warning)"), 18, "@severity(error)");
  denies.replace(denies.find("warn at a.gpus"), 4, "deny");
  packs.Write("old/rules.cpl", warns);
  packs.Write("new/rules.cpl", denies);

  json j = FindingsJson(packs);
  CHECK(j["appeared"].empty());
  CHECK(j["disappeared"].empty());
  REQUIRE(j["severity_changed"].size() == 1);
  const json& f = j["severity_changed"][0];
  CHECK(f["rule"] == "T-002");
  CHECK(f["at"] == "allocations[a-four].gpus");
  CHECK(f["old_severity"] == "warning");
  CHECK(f["severity"] == "error");
  CHECK(f["verdict"] == "now fails");
  CHECK(j["unchanged"] == 3);  // T-001's; not T-002's
  CHECK(j["by_rule"] == json::parse(R"([
    {"rule": "T-001", "appeared": 0, "disappeared": 0, "severity_changed": 0, "worse": 0,
     "better": 0, "unchanged": 3},
    {"rule": "T-002", "appeared": 0, "disappeared": 0, "severity_changed": 1, "worse": 0,
     "better": 0, "unchanged": 0}])"));

  CliResult text = DiffCli(packs);
  CHECK(text.out.find("0 appeared, 1 severity changed (1 now fail --fail-on error, 0 no longer "
                      "do), 0 worse, 0 better, 3 unchanged\n") != std::string::npos);
  CHECK(text.out.find("  ~ T-002 " + packs.Path("plans/plan.yaml") +
                      ":11:48 allocations[a-four].gpus  allocation `a-four` is huge  [warning -> "
                      "error, now fails --fail-on error]\n") != std::string::npos);
  // It fails the run now: that is new to --fail-on-new, as an appeared finding is.
  CHECK(DiffCli(packs, {"--fail-on-new"}).exit_code == cli::kExitFindings);

  // A run that fails on warnings already failed on it: a change, not a new failure.
  CliResult warning = DiffCli(packs, {"--fail-on", "warning", "--fail-on-new"});
  CHECK(warning.exit_code == cli::kExitClean);
  CHECK(warning.out.find("1 severity changed, 0 worse") != std::string::npos);
  CHECK(warning.out.find("[warning -> error]\n") != std::string::npos);
  CHECK(FindingsJson(packs, {"--fail-on", "warning"})["severity_changed"][0]["verdict"] == "same");

  // The other way, an error made a warning no longer fails the run.
  packs.Write("old/rules.cpl", denies);
  packs.Write("new/rules.cpl", warns);
  CliResult down = DiffCli(packs, {"--fail-on-new"});
  CHECK(down.exit_code == cli::kExitClean);
  CHECK(down.out.find("1 severity changed (0 now fail --fail-on error, 1 no longer do)") !=
        std::string::npos);
  CHECK(down.out.find("[error -> warning, no longer fails --fail-on error]\n") !=
        std::string::npos);
}

// T-005 over pool `p` (8 GPUs) that the plan's allocations fill with 10 at
// once, past its capacity less `reserve`: the measure is 2 + reserve.
std::string Overfull(const std::string& reserve) {
  return "package t\nparam reserve: int = " + reserve + R"(

@id("T-005") @severity(error)
rule overfull {
  for p in inventory.pools
  let used = plan.allocations.filter(a, a.pool == p.id).timeline(a, [], a.gpus)
  for o in used.over(p.hosts * p.gpus_per_host - reserve)
  deny at p.id "pool `{p.id}` holds {o.amount} GPUs at once"
}
)";
}

TEST_CASE("a finding whose measure grew is worse, one whose measure shrank better",
          "[cli][rules-diff]") {
  Packs packs("measure");
  packs.Write("old/rules.cpl", Overfull("1"));
  packs.Write("new/rules.cpl", Overfull("3"));
  json j = FindingsJson(packs);
  CHECK(j["appeared"].empty());
  CHECK(j["better"].empty());
  CHECK(j["unchanged"] == 0);
  REQUIRE(j["worse"].size() == 1);
  CHECK(j["worse"][0]["rule"] == "T-005");
  CHECK(j["worse"][0]["measure"] == "5");
  CHECK(j["worse"][0]["old_measure"] == "3");
  CHECK(j["worse"][0]["measure_of"] == "over `p.hosts * p.gpus_per_host - reserve`");
  CliResult text = DiffCli(packs, {"--fail-on-new"});
  CHECK(text.exit_code == cli::kExitFindings);  // a worse finding is new to --fail-on-new
  CHECK(text.out.find("0 severity changed, 1 worse, 0 better, 0 unchanged\n") != std::string::npos);
  CHECK(text.out.find(" pools[p].id  pool `p` holds 10 GPUs at once  [worse: 5 over "
                      "`p.hosts * p.gpus_per_host - reserve`, was 3]\n") != std::string::npos);
  CHECK(text.out.find("\n  > T-005 ") != std::string::npos);

  packs.Write("new/rules.cpl", Overfull("0"));
  CliResult better = DiffCli(packs, {"--fail-on-new"});
  CHECK(better.exit_code == cli::kExitClean);
  CHECK(better.out.find("0 worse, 1 better, 0 unchanged\n") != std::string::npos);
  CHECK(better.out.find("  [better: 2 over `p.hosts * p.gpus_per_host - reserve`, was 3]\n") !=
        std::string::npos);
  CHECK(better.out.find("\n  < T-005 ") != std::string::npos);

  // The same measure: unchanged, though the message says it otherwise.
  std::string reworded = Overfull("1");
  reworded.replace(reworded.find("GPUs at once"), 12, "GPUs at one time");
  packs.Write("new/rules.cpl", reworded);
  CHECK(DiffCli(packs).out.find("0 worse, 0 better, 1 unchanged\n") != std::string::npos);
}

// A plan of `n` allocations of 2 GPUs each: T-001 (`> 1`) fires on each.
std::string ManyAllocations(int n) {
  std::string plan = Packs::Plan();
  plan = plan.substr(0, plan.find("allocations:")) + "allocations:\n";
  for (int i = 0; i < n; ++i)
    plan += "  - {id: a-" + std::to_string(i) + ", demand: explore, pool: p, gpus: 2}\n";
  return plan;
}

TEST_CASE("findings are counted per rule first, and a long list is cut and says so",
          "[cli][rules-diff]") {
  Packs packs("cap");
  packs.Write("old/rules.cpl", Pack("where a.gpus > 9"));
  packs.Write("new/rules.cpl", Pack("where a.gpus > 1"));
  packs.Write("plans/plan.yaml", ManyAllocations(60));
  CliResult r = DiffCli(packs);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == cli::kExitClean);
  size_t by_rule = r.out.find(
      "\nby rule:\n  rule   appeared  disappeared  severity  worse  better  unchanged\n"
      "  T-001        60            0         0      0       0          0\n");
  size_t details = r.out.find("\nfindings (- disappeared, + appeared");
  CHECK(by_rule != std::string::npos);
  CHECK(by_rule < details);
  // The default cap: 50 of them, and what was left out.
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') < 80);
  CHECK(r.out.find("+ T-001 ") != std::string::npos);
  CHECK(r.out.find("allocations[a-49].gpus") != std::string::npos);
  CHECK(r.out.find("allocations[a-50].gpus") == std::string::npos);
  CHECK(r.out.find("\n… and 10 more findings not shown (50 of 60; --max-findings 0 shows all)\n") !=
        std::string::npos);

  CliResult all = DiffCli(packs, {"--max-findings", "0"});
  CHECK(all.out.find("allocations[a-59].gpus") != std::string::npos);
  CHECK(all.out.find("not shown") == std::string::npos);
  CliResult three = DiffCli(packs, {"--max-findings", "3", "--format", "markdown"});
  CHECK(three.out.find("| `T-001` | 60 | 0 | 0 | 0 | 0 | 0 |\n") != std::string::npos);
  CHECK(three.out.find("allocations[a-2].gpus") != std::string::npos);
  CHECK(three.out.find("allocations[a-3].gpus") == std::string::npos);
  CHECK(three.out.find("… and 57 more findings not shown (3 of 60") != std::string::npos);
  // JSON lists them all, whatever the cap.
  json j = json::parse(DiffCli(packs, {"--max-findings", "3", "--format", "json"}).out);
  CHECK(j["findings"]["appeared"].size() == 60);

  // Rules whose findings did not change are summed up in one line.
  packs.Write("plans/plan.yaml", Packs::Plan());
  CliResult one = DiffCli(packs);
  CHECK(one.out.find("\n  T-002         0            0         0      0       0          1\n") ==
        std::string::npos);
  CHECK(one.out.find("\n  (1 other rule: 1 finding unchanged)\n") != std::string::npos);
  packs.Write("new/rules.cpl", Pack("where a.gpus > 9"));
  CliResult same = DiffCli(packs);
  CHECK(same.out.find("\nby rule: none changed (1 rule: 1 finding unchanged)\n") !=
        std::string::npos);
  CHECK(same.out.find("findings (") == std::string::npos);
}

TEST_CASE("rules --diff refuses a bad cap or threshold, and both without --diff",
          "[cli][rules-diff]") {
  Packs packs("bad-flags");
  packs.Write("old/rules.cpl", Pack("where a.gpus > 1"));
  packs.Write("new/rules.cpl", Pack("where a.gpus > 2"));
  for (std::vector<std::string> args : {std::vector<std::string>{"--max-findings", "-1"},
                                        {"--max-findings", "many"},
                                        {"--max-findings", "99999999999999999999999"},
                                        {"--max-findings"},
                                        {"--fail-on", "fatal"}}) {
    CliResult r = DiffCli(packs, args);
    INFO(args[0] << " " << (args.size() > 1 ? args[1] : "") << ": " << r.err);
    CHECK(r.exit_code == cli::kExitUsage);
    CHECK(r.out.empty());
    CHECK(r.err.find(args[0]) != std::string::npos);
  }
  CliResult lone = RunCli({"rules", "--max-findings", "3", packs.Path("new")});
  CHECK(lone.exit_code == cli::kExitUsage);
  CHECK(lone.err.find("--diff") != std::string::npos);
  CHECK(RunCli({"rules", "--fail-on", "warning", packs.Path("new")}).exit_code == cli::kExitUsage);
}

// Runs a shell command in `dir`; true when it succeeds.
bool Shell(const fs::path& dir, const std::string& command) {
  std::string line = "cd '" + dir.string() + "' && " + command + " >/dev/null 2>&1";
  return std::system(line.c_str()) == 0;
}

TEST_CASE("the old version may be a git revision of the new one", "[cli][rules-diff]") {
  Packs packs("git");
  if (!Shell(packs.dir(), "git --version")) {
    WARN("git is not installed; skipped");
    return;
  }
  packs.Write("new/rules.cpl", Pack("where a.gpus > 1"));
  // A fixture outside the pack is not in the snapshot: it is read from the work tree.
  packs.Write(
      "new/rules_test.cpl",
      "test \"t\" { facts \"../plans/plan.yaml\" inventory \"../plans/inventory.yaml\" }\n");
  REQUIRE(Shell(packs.dir(),
                "git init -q . && git add new plans && git -c user.name=t -c user.email=t@t "
                "-c commit.gpgsign=false commit -q -m old"));
  packs.Write("new/rules.cpl", Pack("where a.gpus > 2"));
  std::string plan = packs.Path("plans/plan.yaml");
  CliResult r = RunCli({"rules", "--diff", "git:HEAD", packs.Path("new"), plan});
  INFO(r.out << r.err);
  CHECK(r.exit_code == cli::kExitClean);
  CHECK(r.err.empty());
  CHECK(r.out.find("old: HEAD:new  sha256:") == 0);
  CHECK(r.out.find("~ T-001  big_allocation  (error)  ") != std::string::npos);
  CHECK(r.out.find("findings over 1 test fact set and 1 plan file: 1 disappeared, 0 appeared") !=
        std::string::npos);

  packs.Write("later/rules.cpl", Pack("where a.gpus > 2"));
  CliResult later = RunCli({"rules", "--diff", "git:HEAD", packs.Path("later")});
  CHECK(later.exit_code == cli::kExitUsage);
  CHECK(later.err.find("error: `later` does not exist at git revision `HEAD`") !=
        std::string::npos);

  CliResult unknown = RunCli({"rules", "--diff", "git:no-such-rev", packs.Path("new")});
  CHECK(unknown.exit_code == cli::kExitUsage);
  CHECK(unknown.err == "capops-lint: error: unknown git revision `no-such-rev`\n");
  CliResult outside = RunCli({"rules", "--diff", "git:HEAD", fs::temp_directory_path().string()});
  CHECK(outside.exit_code == cli::kExitUsage);
  CHECK(outside.err.find("is not in a git work tree") != std::string::npos);
}

}  // namespace
}  // namespace capops::lint
