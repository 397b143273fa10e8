// SPDX-License-Identifier: Apache-2.0
// Baselines and finding identity: which statement of a rule fired and what
// its message names are part of a finding's identity, so a second
// statement firing at a known fact, or a message that grew, is reported;
// a finding that only moved stays known; old baseline files still work.
#include "engine/lint/baseline.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "engine/cli/driver.h"
#include "tests/support/fixture.h"
#include "tests/support/memory_workspace.h"

namespace capops::lint {
namespace {

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t Count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A workspace in memory with the rules-diff golden plan (allocations
// `a-one` to `a-four` of 1 to 4 GPUs, on lines 8 to 11) and its inventory.
class Scratch : public testing::MemoryWorkspace {
 public:
  Scratch() {
    Write("plan.yaml", testing::ReadSourceFile("tests/golden/rules-diff/plans/plan.yaml"));
    Write("inventory.yaml",
          testing::ReadSourceFile("tests/golden/rules-diff/plans/inventory.yaml"));
  }

  std::string Path(const std::string& name) const { return "/repo/" + name; }
  std::string Write(const std::string& name, const std::string& text) {
    files.Add(Path(name), text);
    return Path(name);
  }
  std::string Read(const std::string& name) const { return MemoryWorkspace::Read(Path(name)); }

  // A lint of plan.yaml with the given rules, writing or reading a baseline.
  testing::MemoryLint Lint(const std::string& rules, const std::string& flag,
                           const std::string& baseline) {
    workspace::SessionOptions o;
    o.no_config = true;
    o.policies = {rules};
    o.inventories = {Path("inventory.yaml")};
    o.plans = {Path("plan.yaml")};
    (flag == "--write-baseline" ? o.write_baseline : o.baseline) = baseline;
    return MemoryWorkspace::Lint(o);
  }
};

// One rule, two statements at the same fact: the first fires from `cap`
// up, the second always (both only for `a-four`).
std::string TwoStatements(int cap) {
  return "package t\nparam cap: int = " + std::to_string(cap) + R"(

@id("T-001") @severity(error)
rule sizes {
  for a in plan.allocations
  where a.gpus >= 4
  deny when a.gpus >= cap at a.gpus "allocation `{a.id}` is at the cap of {cap}"
  deny at a.gpus "allocation `{a.id}` takes {a.gpus} GPUs"
}
)";
}

// One of two statements fires at `a-four`, which one depending on `cap`.
std::string EitherStatement(int cap) {
  return "package t\nparam cap: int = " + std::to_string(cap) + R"(

@id("T-001") @severity(error)
rule sizes {
  for a in plan.allocations
  where a.gpus >= 4
  deny when a.gpus < cap at a.gpus "allocation `{a.id}` is below the cap of {cap}"
  deny when a.gpus >= cap at a.gpus "allocation `{a.id}` is at the cap of {cap}"
}
)";
}

TEST_CASE("baseline: a second statement firing at a known fact is a new finding",
          "[lint][baseline]") {
  Scratch s;
  std::string rules = s.Write("rules.cpl", TwoStatements(10));
  REQUIRE(s.Lint(rules, "--write-baseline", s.Path("baseline.yaml")).exit_code == cli::kExitClean);
  CHECK(Count(s.Read("baseline.yaml"), "rule: \"T-001\"") == 1);

  // A param change makes the second statement fire at the same fact.
  s.Write("rules.cpl", TwoStatements(4));
  testing::MemoryLint r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
  CHECK(r.exit_code == cli::kExitFindings);
  CHECK(Count(r.out, "\n") == 1);
  CHECK(Has(r.out, "plan.yaml:11:"));
  CHECK(Has(r.out, "error[T-001]: allocation `a-four` is at the cap of 4\n"));

  // Written again, both are known, each under its own statement.
  REQUIRE(s.Lint(rules, "--write-baseline", s.Path("both.yaml")).exit_code == cli::kExitClean);
  std::string both = s.Read("both.yaml");
  CHECK(Count(both, "rule: \"T-001\"") == 2);
  CHECK(Count(both, "statement: \"") == 2);
}

TEST_CASE("baseline: a param change that moves a finding to another statement is reported",
          "[lint][baseline]") {
  Scratch s;
  std::string rules = s.Write("rules.cpl", EitherStatement(10));
  REQUIRE(s.Lint(rules, "--write-baseline", s.Path("baseline.yaml")).exit_code == cli::kExitClean);
  s.Write("rules.cpl", EitherStatement(4));
  testing::MemoryLint r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
  CHECK(r.exit_code == cli::kExitFindings);
  CHECK(Has(r.out, "error[T-001]: allocation `a-four` is at the cap of 4\n"));
}

// Demands split over two or more allocations, the message listing them.
const char* kSplit = R"cpl(package t

@id("T-002") @severity(error)
rule split {
  for d in plan.demands
  let parts = plan.allocations.filter(a, a.demand == d.id)
  where size(parts) >= 2
  deny at d.id "demand `{d.id}` is split across {parts.map(a, a.id).join(', ')} ({size(parts)})"
}
)cpl";

TEST_CASE(
    "baseline: a finding whose message names more at the same fact is new, and "
    "one that only moved stays known",
    "[lint][baseline]") {
  Scratch s;
  std::string rules = s.Write("rules.cpl", kSplit);
  REQUIRE(s.Lint(rules, "--write-baseline", s.Path("baseline.yaml")).exit_code == cli::kExitClean);
  std::string plan = s.Read("plan.yaml");

  // Lines move (a comment on top, a demand inserted before): still known.
  std::string moved = "# moved\n\n" + plan;
  moved.insert(moved.find("  - {id: explore"), "  - {id: other, slice: exploration, gpus: 1}\n");
  s.Write("plan.yaml", moved);
  testing::MemoryLint r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
  CHECK(r.exit_code == cli::kExitClean);
  CHECK(r.out.empty());

  // The same demand split three ways: the message names more, so it is new
  // (only its count is a number, which alone would not make it so).
  std::string grown = plan + "  - {id: a-five, demand: train, pool: p, gpus: 1}\n";
  s.Write("plan.yaml", grown);
  r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
  CHECK(r.exit_code == cli::kExitFindings);
  CHECK(Has(r.out, "error[T-002]: demand `train` is split across a-three, a-four, a-five (3)"));
  CHECK_FALSE(Has(r.out, "`explore`"));
}

TEST_CASE("baseline: a number in the message alone does not make a finding new",
          "[lint][baseline]") {
  Scratch s;
  std::string rules = s.Write("rules.cpl", TwoStatements(4));
  REQUIRE(s.Lint(rules, "--write-baseline", s.Path("baseline.yaml")).exit_code == cli::kExitClean);
  // The cap in the second message changes with the param; both still fire.
  s.Write("rules.cpl", TwoStatements(3));
  testing::MemoryLint r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
  CHECK(r.exit_code == cli::kExitClean);
  CHECK(r.out.empty());
}

TEST_CASE("baseline: entries of the older form, without `statement`, still match",
          "[lint][baseline]") {
  Scratch s;
  std::string rules = s.Write("rules.cpl", TwoStatements(4));
  std::string old =
      s.Write("old.yaml",
              "findings:\n"
              "  - {rule: \"T-001\", file: \"plan.yaml\", at: \"allocations[a-four].gpus\", facts: "
              "\"a=a-four\"}\n");
  Baseline b;
  SourceManager sources;
  FileId file = sources.Add(old, s.Read("old.yaml"));
  CHECK(b.Parse(sources, file, {}).empty());
  CHECK(b.legacy_size() == 1);
  CHECK(b.size() == 1);

  // One old entry hides one of the two findings at its fact, as it used to.
  testing::MemoryLint r = s.Lint(rules, "--baseline", old);
  CHECK(r.exit_code == cli::kExitFindings);
  CHECK(Count(r.out, "error[T-001]") == 1);
  s.Write("old.yaml", s.Read("old.yaml") + s.Read("old.yaml").substr(10));  // listed twice
  r = s.Lint(rules, "--baseline", old);
  CHECK(r.exit_code == cli::kExitClean);
  CHECK(r.out.empty());
}

// Pool `p` holds 8 GPUs; the plan's allocations take 10 at all times. The
// rule fires on the timeline's step over (or under) `bound`, `amount` the
// amount each allocation holds.
std::string Overfull(const std::string& method, const std::string& amount,
                     const std::string& bound) {
  return R"(package t

@id("T-003") @severity(error)
rule overfull {
  for p in inventory.pools
  let used = plan.allocations.filter(a, a.pool == p.id).timeline(a, [], )" +
         amount + R"()
  for o in used.)" +
         method + "(" + bound + R"()
  deny at p.id "pool `{p.id}` holds {o.amount} at once"
}
)";
}

// The plan with allocation `a-four` of `gpus` GPUs (4 in the file).
std::string PlanWithFour(int gpus) {
  std::string plan = testing::ReadSourceFile("tests/golden/rules-diff/plans/plan.yaml");
  const std::string four = "{id: a-four, demand: train, pool: p, gpus: 4}";
  size_t at = plan.find(four);
  REQUIRE(at != std::string::npos);
  return plan.replace(at, four.size(),
                      "{id: a-four, demand: train, pool: p, gpus: " + std::to_string(gpus) + "}");
}

TEST_CASE(
    "baseline: a known finding whose measure grew is reported as worse, one that shrank or "
    "stayed stays known",
    "[lint][baseline]") {
  Scratch s;
  std::string rules = s.Write("rules.cpl", Overfull("over", "a.gpus", "p.hosts * p.gpus_per_host"));
  REQUIRE(s.Lint(rules, "--write-baseline", s.Path("baseline.yaml")).exit_code == cli::kExitClean);
  // 10 GPUs on a pool of 8: 2 over it.
  CHECK(Has(s.Read("baseline.yaml"), "rule: \"T-003\""));
  CHECK(Has(s.Read("baseline.yaml"), ", measure: 2}\n"));

  // The same, fewer and more GPUs: only more is reported, and says so.
  for (int gpus : {4, 3, 1}) {
    s.Write("plan.yaml", PlanWithFour(gpus));
    testing::MemoryLint r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
    INFO(gpus << " GPUs: " << r.out);
    CHECK(r.exit_code == cli::kExitClean);
    CHECK(r.out.empty());
  }
  s.Write("plan.yaml", PlanWithFour(8));
  testing::MemoryLint r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
  CHECK(r.exit_code == cli::kExitFindings);
  CHECK(r.out ==
        "/repo/inventory.yaml:6:10: error[T-003]: pool `p` holds 14 at once (worse than the "
        "baseline: 6 over `p.hosts * p.gpus_per_host`, baseline 2)\n");

  // A pool grown by as much as the allocations is no worse: the measure is
  // how far past its bound the step is, not the step's amount.
  std::string inventory = s.Read("inventory.yaml");
  s.Write("inventory.yaml",
          std::string(inventory).replace(inventory.find("hosts: 2"), 8, "hosts: 3"));
  s.Write("plan.yaml", PlanWithFour(8));
  r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
  CHECK(r.exit_code == cli::kExitClean);
  CHECK(r.out.empty());
}

TEST_CASE("baseline: under a bound, or with a unit, the measure is how far past it",
          "[lint][baseline]") {
  struct Case {
    const char* method;
    const char* amount;
    const char* bound;
    const char* written;  // the measure at 10 GPUs
    int known;            // `a-four`'s GPUs where the finding stays known (or goes)
    int worse;            // … where it is worse
    const char* note;
  };
  for (const Case& c : {
           Case{"under", "a.gpus", "12", "2", 6, 1, "5 under `12`, baseline 2"},
           Case{"over", "a.gpus * 24GiB", "192GiB", "48GiB", 3, 5,
                "72GiB over `192GiB`, baseline 48GiB"},
       }) {
    INFO(c.method << " " << c.bound);
    Scratch s;
    std::string rules = s.Write("rules.cpl", Overfull(c.method, c.amount, c.bound));
    REQUIRE(s.Lint(rules, "--write-baseline", s.Path("baseline.yaml")).exit_code ==
            cli::kExitClean);
    CHECK(Has(s.Read("baseline.yaml"), ", measure: " + std::string(c.written) + "}\n"));
    s.Write("plan.yaml", PlanWithFour(c.known));
    CHECK(s.Lint(rules, "--baseline", s.Path("baseline.yaml")).out.empty());
    s.Write("plan.yaml", PlanWithFour(c.worse));
    testing::MemoryLint r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
    CHECK(r.exit_code == cli::kExitFindings);
    CHECK(Has(r.out, "(worse than the baseline: " + std::string(c.note) + ")\n"));
  }
}

TEST_CASE("baseline: entries without a measure, and of the older form, hide their finding",
          "[lint][baseline]") {
  Scratch s;
  std::string rules = s.Write("rules.cpl", Overfull("over", "a.gpus", "8"));
  REQUIRE(s.Lint(rules, "--write-baseline", s.Path("baseline.yaml")).exit_code == cli::kExitClean);
  std::string written = s.Read("baseline.yaml");
  size_t measure = written.find(", measure: 2}");
  REQUIRE(measure != std::string::npos);
  s.Write("plan.yaml", PlanWithFour(40));
  // As written before measures were recorded: any size is known.
  s.Write("baseline.yaml", std::string(written).replace(measure, 13, "}"));
  CHECK(s.Lint(rules, "--baseline", s.Path("baseline.yaml")).out.empty());
  s.Write("baseline.yaml",
          "findings:\n  - {rule: \"T-003\", file: \"inventory.yaml\", at: \"pools[p].id\", facts: "
          "\"p=p\"}\n");
  CHECK(s.Lint(rules, "--baseline", s.Path("baseline.yaml")).out.empty());

  // A measure that is not one is an error where it stands.
  s.Write("baseline.yaml", std::string(written).replace(measure, 13, ", measure: \"two\"}"));
  testing::MemoryLint r = s.Lint(rules, "--baseline", s.Path("baseline.yaml"));
  CHECK(r.exit_code == cli::kExitUsage);
  CHECK(Has(r.out, "`measure` must be a number, a duration or a size, not a string"));
}

TEST_CASE("baseline: findings of one key are paired with its entries largest to largest",
          "[lint][baseline]") {
  SourceManager sources;
  FileId plan = sources.Add("/repo/plan.yaml", "apiVersion: capops.dev/v1\nkind: CapacityPlan\n");
  auto finding = [&](int64_t measure) {
    eval::Violation v;
    v.rule_id = "T-004";
    v.loc = {plan, 2, 7};
    v.statement = "deny";
    v.measure = Value::Int(measure);
    v.measure_of = "over `8`";
    return v;
  };
  auto filter = [&](std::vector<int64_t> measures, const std::string& baseline) {
    eval::LintReport report;
    for (int64_t m : measures) report.violations.push_back(finding(m));
    Baseline b;
    FileId file = sources.Add("/repo/baseline.yaml", baseline);
    REQUIRE(b.Parse(sources, file, {}).empty());
    FindingKeys keys(sources, {}, b.base_dir(), "/repo");
    b.Filter(&report, &keys);
    return report;
  };
  eval::LintReport recorded;
  recorded.violations = {finding(4), finding(6)};
  FindingKeys keys(sources, {}, "/repo", "/repo");
  std::ostringstream baseline;
  WriteBaseline(recorded, &keys, baseline);
  REQUIRE(Count(baseline.str(), "rule: \"T-004\"") == 2);

  // In either order, 5 and 3 fit under 6 and 4.
  for (std::vector<int64_t> order : {std::vector<int64_t>{5, 3}, {3, 5}}) {
    eval::LintReport r = filter(order, baseline.str());
    CHECK(r.violations.empty());
    CHECK(r.baselined == 2);
  }
  // 7 is worse than the 6 it is paired with; 3 stays known.
  eval::LintReport r = filter({3, 7}, baseline.str());
  REQUIRE(r.violations.size() == 1);
  CHECK(r.baselined == 1);
  CHECK(eval::BaselineNote(r.violations[0]) == "worse than the baseline: 7 over `8`, baseline 6");
  // A third finding of the key is new, not worse.
  r = filter({1, 2, 3}, baseline.str());
  REQUIRE(r.violations.size() == 1);
  CHECK(eval::BaselineNote(r.violations[0]).empty());
}

}  // namespace
}  // namespace capops::lint
