// SPDX-License-Identifier: Apache-2.0
// The shipped pack against its fixtures: for every rule, a fact file that
// must make it fire and one that must leave it quiet, both without errors.
//   policies/capops-ai/fixtures/<RULE-ID>/fires.yaml
//   policies/capops-ai/fixtures/<RULE-ID>/quiet.yaml
//   policies/capops-ai/fixtures/<RULE-ID>/fires.at   (where it must fire: line:col)
// And against the example scenario: each variant fires exactly the rules
// listed (one id a line) in the `expected-rules.txt` beside its plan.
//   examples/visual-inspection/[<variant>/]{plan,inventory}.yaml
// And why-not, binding by binding, against the lint on the facts of every
// policy test of the pack and every fixture file.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "engine/facts/loader.h"
#include "tests/support/fixture.h"
#include "tests/support/paths.h"

namespace capops {
namespace {

namespace fs = std::filesystem;

const fs::path kPack = fs::path(capops::testing::SourceDir()) / "policies" / "capops-ai";

std::unique_ptr<testing::Compiled> CompilePack() {
  auto c = std::make_unique<testing::Compiled>();
  testing::AddStdlib(&c->engine);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kPack)) {
    if (entry.path().extension() == ".cpl") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    c->engine.AddPolicy(
        f.filename().string(),
        testing::ReadSourceFile(fs::relative(f, capops::testing::SourceDir()).string()));
  }
  c->ok = c->engine.Compile(&c->diagnostics);
  return c;
}

size_t CountRule(const eval::LintReport& report, const std::string& rule) {
  return std::count_if(report.violations.begin(), report.violations.end(),
                       [&](const eval::Violation& v) { return v.rule_id == rule; });
}

// "line:col" of each violation of `rule`, sorted.
std::vector<std::string> PlacesOf(const eval::LintReport& report, const std::string& rule) {
  std::vector<std::string> places;
  for (const eval::Violation& v : report.violations) {
    if (v.rule_id == rule)
      places.push_back(std::to_string(v.loc.line) + ":" + std::to_string(v.loc.column));
  }
  std::sort(places.begin(), places.end());
  places.erase(std::unique(places.begin(), places.end()), places.end());
  return places;
}

// The places listed in a fixture's `fires.at`: one `line:col` a line, `#`
// comments, and `param NAME: VALUE` lines for a rule that fires only once the
// organisation sets a parameter (into `*params`, when given).
std::vector<std::string> ExpectedPlaces(const fs::path& file,
                                        std::vector<std::string>* params = nullptr) {
  std::vector<std::string> places;
  std::istringstream in(
      testing::ReadSourceFile(fs::relative(file, capops::testing::SourceDir()).string()));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("param ", 0) == 0) {
      if (params != nullptr) params->push_back(line.substr(6));
    } else if (!line.empty() && line[0] != '#') {
      places.push_back(line);
    }
  }
  std::sort(places.begin(), places.end());
  return places;
}

// The pack compiled with the `NAME: VALUE` settings of a `fires.at` applied,
// each read as a config file's `params` are.
std::unique_ptr<testing::Compiled> CompilePackWith(const std::vector<std::string>& params) {
  auto c = CompilePack();
  for (const std::string& setting : params) {
    SourceManager sources;
    FileId file = sources.Add("fires.at", setting);
    facts::RawLoadResult loaded = facts::LoadRawYaml(sources, file, {});
    REQUIRE(loaded.documents.size() == 1);
    for (const auto& [name, value] : loaded.documents[0].entries()) {
      Diagnostics problems;
      CHECK(c->engine.SetParam(std::string(name), value, &problems));
    }
  }
  return c;
}

TEST_CASE("every rule of the pack fires on its fixture and stays quiet on the other",
          "[policies]") {
  auto pack = CompilePack();
  REQUIRE(pack->ok);
  std::set<std::string> rules;
  for (const check::RuleInfo& r : pack->engine.program()->rules) rules.insert(r.id);
  REQUIRE(rules.size() >= 3);

  std::set<std::string> tested;
  for (const auto& entry : fs::directory_iterator(kPack / "fixtures")) {
    std::string rule = entry.path().filename().string();
    tested.insert(rule);
    INFO("rule " << rule);
    CHECK(rules.count(rule) == 1);
    for (const char* name : {"fires.yaml", "quiet.yaml"}) {
      INFO(name);
      std::string text = testing::ReadSourceFile(
          fs::relative(entry.path() / name, capops::testing::SourceDir()).string());
      std::vector<std::string> params;
      std::vector<std::string> expected = ExpectedPlaces(entry.path() / "fires.at", &params);
      std::unique_ptr<testing::Compiled> set = params.empty() ? nullptr : CompilePackWith(params);
      Engine& engine = set ? set->engine : pack->engine;
      eval::LintReport r = engine.Lint({{name, text}}, {});
      CHECK(testing::Lines(r.errors).empty());
      if (std::string(name) == "fires.yaml") {
        CHECK(PlacesOf(r, rule) == expected);
      } else {
        CHECK(CountRule(r, rule) == 0);
      }
    }
  }
  for (const std::string& rule : rules) {
    INFO("rule without fixtures: " << rule);
    CHECK(tested.count(rule) == 1);
  }
}

TEST_CASE("the planner changes no finding of the pack on its fixtures", "[policies][plan]") {
  auto pack = CompilePack();
  REQUIRE(pack->ok);
  size_t findings = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kPack / "fixtures")) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    std::string text =
        testing::ReadSourceFile(fs::relative(entry.path(), capops::testing::SourceDir()).string());
    pack->engine.options().optimize = true;
    std::vector<std::string> planned = testing::Findings(pack->engine.Lint({{"f.yaml", text}}, {}));
    pack->engine.options().optimize = false;
    CHECK(planned == testing::Findings(pack->engine.Lint({{"f.yaml", text}}, {})));
    findings += planned.size();
  }
  CHECK(findings > 33);
}

// A fact set the pack's tests lint: the facts of a `test` declaration of
// its `*_test.cpl` files (with its params), or one fixture file alone.
struct FactCase {
  std::string name;
  std::vector<TextFile> plans, inventories;
  std::vector<std::string> params;  // `NAME: VALUE` settings, as a config sets them
};

std::vector<FactCase> PackFactCases(const Engine& engine) {
  std::vector<FactCase> cases;
  for (const PolicyTest& t : engine.Tests()) {
    FactCase c{t.path + ": " + t.decl->name, {}, {}, {}};
    for (const syntax::TestDecl::Facts& f : t.decl->facts) {
      using Kind = syntax::TestDecl::Facts::Kind;
      if (f.kind == Kind::kInlineYaml) {
        c.plans.push_back({c.name, f.value});
        continue;
      }
      fs::path file = (kPack / fs::path(t.path).parent_path() / f.value).lexically_normal();
      std::string relative = fs::relative(file, capops::testing::SourceDir()).string();
      (f.kind == Kind::kInventoryFile ? c.inventories : c.plans)
          .push_back({relative, testing::ReadSourceFile(relative)});
    }
    for (const syntax::TestDecl::ParamSetting& p : t.decl->params) c.params.push_back(p.yaml);
    cases.push_back(std::move(c));
  }
  for (const auto& entry : fs::recursive_directory_iterator(kPack / "fixtures")) {
    if (entry.path().extension() != ".yaml") continue;
    std::string relative = fs::relative(entry.path(), capops::testing::SourceDir()).string();
    cases.push_back({relative, {{relative, testing::ReadSourceFile(relative)}}, {}, {}});
  }
  return cases;
}

// The `for` variables of a binding (`name=value`, sorted): what tells one
// binding of a rule from another, in a finding's evidence as in why-not.
std::set<std::string> ForBindings(const check::RuleInfo& rule,
                                  const std::vector<eval::Evidence>& bound) {
  std::set<std::string> vars, key;
  for (const syntax::Clause& c : rule.rule->clauses) {
    if (c.kind == syntax::ClauseKind::kFor) vars.insert(c.var);
  }
  for (const eval::Evidence& e : bound) {
    if (!e.at_fact && vars.count(e.name) != 0) key.insert(e.name + "=" + e.value);
  }
  return key;
}

std::string KeyText(const std::set<std::string>& key) {
  std::string text;
  for (const std::string& part : key) text += part + "; ";
  return text;
}

// Why-not, over every binding of every rule, against the lint of the same
// facts: a binding it says fires is one the lint reports, one it says stops
// (at a clause, or at statements that do not fire) is one the lint does not.
TEST_CASE("why-not agrees with the lint on every rule of the pack and every fixture",
          "[policies][why-not]") {
  auto pack = CompilePack();
  REQUIRE(pack->ok);
  std::vector<FactCase> cases = PackFactCases(pack->engine);
  REQUIRE(cases.size() > 300);
  size_t fired = 0, held = 0;
  for (const FactCase& c : cases) {
    INFO("facts: " << c.name);
    std::unique_ptr<testing::Compiled> set = c.params.empty() ? nullptr : CompilePackWith(c.params);
    Engine& engine = set ? set->engine : pack->engine;
    eval::LintReport report = engine.Lint(c.plans, c.inventories);
    eval::Facts facts;
    Diagnostics problems;
    REQUIRE(engine.LoadFacts(c.plans, c.inventories, &facts, &problems));
    for (const check::RuleInfo& rule : engine.program()->rules) {
      INFO("rule " << rule.id);
      std::vector<std::set<std::string>> found;  // the lint's bindings of the rule
      for (const eval::Violation& v : report.violations) {
        if (v.rule_id == rule.id) found.push_back(ForBindings(rule, v.evidence));
      }
      std::optional<eval::WhyNotResult> why = engine.WhyNot(rule.id, facts, nullptr, 100'000);
      REQUIRE(why);
      CHECK(why->in_domain);
      CHECK_FALSE(why->capped);
      std::set<std::set<std::string>> said;  // the bindings why-not says fire
      for (const eval::WhyNotOutcome& o : why->outcomes) {
        std::set<std::string> key = ForBindings(rule, o.bindings);
        INFO("why-not binding " << KeyText(key)
                                << (o.fired ? "fires" : "stops at " + o.failed_clause));
        if (o.fired) {
          ++fired;
          said.insert(key);
          CHECK(std::count(found.begin(), found.end(), key) > 0);
        } else {
          ++held;  // no finding of the lint is of this binding, or extends it
          CHECK(std::none_of(found.begin(), found.end(), [&](const std::set<std::string>& f) {
            return std::includes(f.begin(), f.end(), key.begin(), key.end());
          }));
        }
      }
      for (const std::set<std::string>& key : found) {
        INFO("lint binding " << KeyText(key));
        CHECK(said.count(key) == 1);
      }
      // Every path is accounted for: each item of the rule's first `for`
      // (or, without one, the rule's one binding) has its outcomes.
      const std::vector<syntax::Clause>& clauses = rule.rule->clauses;
      if (clauses.empty() || clauses[0].kind != syntax::ClauseKind::kFor) {
        CHECK_FALSE(why->outcomes.empty());
        continue;
      }
      const syntax::Clause& first = clauses[0];
      const Span& range = first.expr->span;
      std::string text =
          engine.sources().file(range.file).text().substr(range.begin, range.end - range.begin);
      Value items = engine.EvaluateExpression(text, facts, false).value;
      REQUIRE(items.is(ValueKind::kList));
      for (const Value& item : items.items()) {
        std::string bound = first.var + "=" + std::string(item.Id());
        INFO("first binding " << bound);
        CHECK(std::any_of(why->outcomes.begin(), why->outcomes.end(),
                          [&](const eval::WhyNotOutcome& o) {
                            return ForBindings(rule, o.bindings).count(bound) == 1;
                          }));
      }
    }
  }
  CHECK(fired > 1000);  // 3424 bindings fire, 26809 stop, over 351 fact sets
  CHECK(held > 10000);
}

TEST_CASE("every finding of the pack on its fixtures, explained, has a trace", "[policies]") {
  auto pack = CompilePack();
  REQUIRE(pack->ok);
  LintOptions explain;
  explain.trace = true;
  std::set<std::string> rules;
  for (const FactCase& c : PackFactCases(pack->engine)) {
    INFO("facts: " << c.name);
    std::unique_ptr<testing::Compiled> set = c.params.empty() ? nullptr : CompilePackWith(c.params);
    Engine& engine = set ? set->engine : pack->engine;
    for (const eval::Violation& v : engine.Lint(c.plans, c.inventories, explain).violations) {
      INFO("rule " << v.rule_id << ": " << v.message);
      CHECK_FALSE(v.trace.empty());
      rules.insert(v.rule_id);
    }
  }
  CHECK(rules.size() == pack->engine.program()->rules.size());
}

// The rule ids listed in an `expected-rules.txt`: one a line, `#` comments.
std::set<std::string> ExpectedRules(const fs::path& file) {
  std::set<std::string> ids;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    line.erase(0, line.find_first_not_of(" \t\r"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (!line.empty()) ids.insert(line);
  }
  return ids;
}

TEST_CASE("each example variant fires exactly the rules its README lists", "[policies]") {
  auto pack = CompilePack();
  REQUIRE(pack->ok);
  const fs::path examples =
      fs::path(capops::testing::SourceDir()) / "examples" / "visual-inspection";
  std::vector<fs::path> variants = {examples};
  for (const auto& entry : fs::directory_iterator(examples)) {
    if (entry.is_directory()) variants.push_back(entry.path());
  }
  std::sort(variants.begin(), variants.end());
  REQUIRE(variants.size() >= 4);
  for (const fs::path& dir : variants) {
    INFO("variant " << fs::relative(dir, capops::testing::SourceDir()).string());
    REQUIRE(fs::exists(dir / "expected-rules.txt"));
    auto read = [&](const char* name) {
      return testing::ReadSourceFile(
          fs::relative(dir / name, capops::testing::SourceDir()).string());
    };
    eval::LintReport r = pack->engine.Lint({{"plan.yaml", read("plan.yaml")}},
                                           {{"inventory.yaml", read("inventory.yaml")}});
    CHECK(testing::Lines(r.errors).empty());
    std::set<std::string> fired;
    for (const eval::Violation& v : r.violations) fired.insert(v.rule_id);
    CHECK(fired == ExpectedRules(dir / "expected-rules.txt"));
  }
}

// The pack carries the example's facts for its scenario tests: the same
// files, so that what the tests check is what a user runs.
TEST_CASE("the pack's scenario facts are the example's, byte for byte", "[policies]") {
  const fs::path examples =
      fs::path(capops::testing::SourceDir()) / "examples" / "visual-inspection";
  std::set<std::string> in_examples, in_pack;
  for (const auto& entry : fs::recursive_directory_iterator(examples)) {
    if (entry.path().extension() == ".yaml")
      in_examples.insert(fs::relative(entry.path(), examples).string());
  }
  for (const auto& entry : fs::recursive_directory_iterator(kPack / "scenario")) {
    if (entry.is_regular_file())
      in_pack.insert(fs::relative(entry.path(), kPack / "scenario").string());
  }
  CHECK(in_pack == in_examples);
  CHECK(in_examples.size() >= 10);
  auto read = [](const fs::path& file) {
    return testing::ReadSourceFile(fs::relative(file, capops::testing::SourceDir()).string());
  };
  for (const std::string& name : in_examples) {
    INFO("policies/capops-ai/scenario/" << name << " differs from examples/visual-inspection/"
                                        << name << ": copy the example over it");
    CHECK(read(kPack / "scenario" / name) == read(examples / name));
  }
}

// The pack README's traceability table names fixtures that exist, and every
// rule of the pack encodes at least one of its statements.
TEST_CASE("the pack's traceability table points at real fixtures and covers every rule",
          "[policies]") {
  auto pack = CompilePack();
  REQUIRE(pack->ok);
  std::ifstream in(kPack / "README.md");
  std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t start = readme.find("## Traceability");
  REQUIRE(start != std::string::npos);
  std::string table = readme.substr(start, readme.find("\n## ", start + 1) - start);
  std::set<std::string> encoding;  // rule ids the table's rules column names
  size_t rows = 0;
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| ", 0) != 0 || line.rfind("| statement", 0) == 0) continue;
    ++rows;
    std::vector<std::string> cells;  // "| a | b |": the text between the bars
    std::string inner = line.substr(2, line.size() - 4);
    for (size_t at = 0;;) {
      size_t bar = inner.find(" | ", at);
      cells.push_back(inner.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
      if (bar == std::string::npos) break;
      at = bar + 3;
    }
    REQUIRE(cells.size() == 6);
    INFO(line);
    for (size_t c : {2, 3}) {  // fires, stays quiet
      if (cells[c] == "—") continue;
      std::string path = cells[c].substr(cells[c].find('`') + 1);
      path = path.substr(0, path.find('`'));
      CHECK(fs::is_regular_file(kPack / "fixtures" / path));
    }
    std::istringstream ids(cells[1]);
    for (std::string word; ids >> word;) {
      size_t dash = word.find('-');
      if (dash == 3 && word.size() >= 7) encoding.insert("CAP-" + word.substr(0, 7));
    }
  }
  CHECK(rows >= 40);
  for (const check::RuleInfo& r : pack->engine.program()->rules) {
    INFO("rule no statement names: " << r.id);
    CHECK(encoding.count(r.id) == 1);
  }
}

}  // namespace
}  // namespace capops
