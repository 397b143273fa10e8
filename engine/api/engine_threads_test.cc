// SPDX-License-Identifier: Apache-2.0
// Engine's thread contract (engine.h): once compiled, Lint, LoadFacts and
// WhyNot with a SourceManager of their own may run on any number of
// threads at once. Built
// into the test suite and, alone, under ThreadSanitizer (capops_thread_tests,
// .ci/run), where a data race between lints is fatal.
#include <catch2/catch.hpp>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/api/engine.h"
#include "tests/support/fixture.h"
#include "tests/support/paths.h"

namespace capops {
namespace {

std::string Slurp(const std::string& relative) {
  std::ifstream in(capops::testing::SourceDir() + "/" + relative, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Scenario {
  TextFile plan;
  TextFile inventory;
};

// The scenario and its variants: different plans, different findings.
std::vector<Scenario> Scenarios() {
  std::vector<Scenario> out;
  for (const char* dir :
       {"", "clean/", "late-start/", "production-squeeze/", "quota-and-catalog/"}) {
    std::string base = std::string("examples/visual-inspection/") + dir;
    out.push_back({{base + "plan.yaml", Slurp(base + "plan.yaml")},
                   {base + "inventory.yaml", Slurp(base + "inventory.yaml")}});
  }
  return out;
}

// Everything a report says, as text: findings with their places, evidence
// and traces, and every error.
std::string Signature(const eval::LintReport& r, const SourceManager& sources) {
  std::ostringstream out;
  auto place = [&](const SourceLoc& loc) {
    return std::string(sources.Path(loc.file)) + ":" + std::to_string(loc.line) + ":" +
           std::to_string(loc.column);
  };
  out << r.plans << " plans, " << r.files << " files\n";
  for (const eval::Violation& v : r.violations) {
    out << place(v.loc) << " " << v.rule_id << " " << v.message << "\n";
    for (const eval::Evidence& e : v.evidence)
      out << "  " << e.name << "=" << e.value << " " << place(e.loc) << "\n";
    for (const eval::TraceStep& t : v.trace) out << "  " << t.clause << " -> " << t.value << "\n";
    if (v.params) {
      for (const eval::ParamUse& p : *v.params)
        out << "  param " << p.name << "=" << p.value.ToLiteral() << " " << p.set_at << "\n";
    }
  }
  for (const Diagnostic& d : r.errors.items()) out << place(d.loc) << " " << d.message << "\n";
  return out.str();
}

std::string LintOnce(const Engine& engine, const Scenario& s, bool trace) {
  SourceManager sources(&engine.sources());
  LintOptions lint;
  lint.trace = trace;
  eval::LintReport r = engine.Lint({s.plan}, {s.inventory}, lint, &sources);
  return Signature(r, sources);
}

// The shipped pack, compiled into `engine`, one rule reading a value of
// its own (shared, as the package's values are, by every lint).
void CompilePack(Engine* engine) {
  testing::AddStdlib(engine);
  testing::AddPolicyDir("policies/capops-ai", engine);
  Diagnostics problems;
  REQUIRE(engine->Compile(&problems));
  REQUIRE(engine->SetRuleParam("CAP-DEM-003", "exploration_cap", Value::Int(1), &problems));
}

TEST_CASE("one compiled engine lints different plans from 8 threads at once", "[api][threads]") {
  EngineOptions options;
  options.jobs = 2;  // each lint runs its rules on threads of its own too
  Engine engine(options);
  CompilePack(&engine);
  size_t policy_files = engine.sources().size();

  std::vector<Scenario> scenarios = Scenarios();
  std::vector<std::string> expected[2];
  for (bool trace : {false, true}) {
    for (const Scenario& s : scenarios) expected[trace].push_back(LintOnce(engine, s, trace));
  }
  REQUIRE(expected[0][0] != expected[0][1]);  // the plans differ, and so do their findings
  REQUIRE(expected[0][0].find("CAP-") != std::string::npos);

  constexpr size_t kThreads = 8;
  constexpr size_t kRounds = 3;
  std::vector<std::vector<std::string>> got(kThreads);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      // Each thread starts at another plan, so every plan is being linted
      // by several threads at once.
      for (size_t k = 0; k < kRounds * scenarios.size(); ++k) {
        got[t].push_back(LintOnce(engine, scenarios[(t + k) % scenarios.size()], (t + k) % 2 == 1));
      }
    });
  }
  for (std::thread& th : threads) th.join();

  for (size_t t = 0; t < kThreads; ++t) {
    REQUIRE(got[t].size() == kRounds * scenarios.size());
    for (size_t k = 0; k < got[t].size(); ++k) {
      INFO("thread " << t << ", lint " << k);
      CHECK(got[t][k] == expected[(t + k) % 2][(t + k) % scenarios.size()]);
    }
  }
  CHECK(engine.sources().size() == policy_files);  // no lint added to the engine's own sources
}

// What an editor asks between lints: the facts of a plan, then why a rule
// did or did not fire at one of them, into sources of the question's own.
std::string WhyNotOnce(const Engine& engine, const Scenario& s) {
  SourceManager sources(&engine.sources());
  eval::Facts facts;
  Diagnostics problems;
  if (!engine.LoadFacts({s.plan}, {s.inventory}, &facts, &problems, &sources))
    return "facts refused";
  auto focus = [](const Value& v) { return v.Id() == "a-explore"; };
  std::optional<eval::WhyNotResult> r = engine.WhyNot("CAP-ALC-001", facts, focus, sources);
  if (!r) return "no rule";
  std::ostringstream out;
  out << (r->in_domain ? "in domain\n" : "not in domain\n");
  for (const eval::WhyNotOutcome& o : r->outcomes) {
    out << (o.fired ? "fires" : o.failed_clause) << " @" << sources.Path(o.clause_loc.file) << ":"
        << o.clause_loc.line;
    for (const eval::Evidence& e : o.bindings)
      out << " " << e.name << "=" << e.value << "@" << e.loc.line;
    out << "\n";
  }
  return out.str();
}

TEST_CASE("facts and why-not answered from 8 threads at once, into sources of their own",
          "[api][threads]") {
  Engine engine;
  CompilePack(&engine);
  size_t policy_files = engine.sources().size();
  std::vector<Scenario> scenarios = Scenarios();
  std::vector<std::string> expected;
  for (const Scenario& s : scenarios) expected.push_back(WhyNotOnce(engine, s));
  REQUIRE(expected[0].rfind("in domain\n", 0) == 0);  // the scenario has the allocation
  REQUIRE(expected[0].find("a=a-explore") != std::string::npos);
  constexpr size_t kThreads = 8;
  std::vector<std::vector<std::string>> got(kThreads);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (size_t k = 0; k < 2 * scenarios.size(); ++k) {
        got[t].push_back(WhyNotOnce(engine, scenarios[(t + k) % scenarios.size()]));
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (size_t t = 0; t < kThreads; ++t) {
    for (size_t k = 0; k < got[t].size(); ++k) {
      INFO("thread " << t << ", question " << k);
      CHECK(got[t][k] == expected[(t + k) % scenarios.size()]);
    }
  }
  CHECK(engine.sources().size() == policy_files);  // no question added to the engine's own sources
}

}  // namespace
}  // namespace capops
