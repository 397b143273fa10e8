// Baselines and finding identity: which statement of a rule fired and what
// its message names are part of a finding's identity, so a second
// statement firing at a known fact, or a message that grew, is reported;
// a finding that only moved stays known; old baseline files still work.
#include "engine/lint/baseline.h"

#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace capops::lint
