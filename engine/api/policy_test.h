// SPDX-License-Identifier: Apache-2.0
// Policy tests: run a CPL `test` declaration against its facts and judge it.
//
// A test (syntax::TestDecl, in a `*_test.cpl` file) names fact files and
// expectations. The engine lints the facts with the compiled rule set, gives
// every finding a place — a fact selector such as `allocations[a-x].pool`
// (plan facts) or `inventory.pools[p].role`, else `file:line:col` — and
// checks each expectation against the findings. Fail closed: fact or rule
// errors, or a plan that was not evaluated, fail the test.
//
//   for (const PolicyTest& t : engine.Tests()) {
//     std::vector<TextFile> plans = …read t.decl->facts relative to t.path…;
//     PolicyTestResult r = engine.RunTest(*t.decl, plans, {}, &coverage);
//     if (!r.passed) …print r.failures and r.findings…
//   }
#pragma once

#include <set>
#include <string>
#include <vector>

#include "engine/common/source.h"
#include "engine/eval/result.h"
#include "engine/syntax/ast.h"

namespace capops {

/// A test declaration of the compiled rule set and the file it is in.
struct PolicyTest {
  const syntax::TestDecl* decl = nullptr;  // owned by the Engine's program
  std::string path;                        // the `*_test.cpl` file, as added
  SourceLoc loc;                           // the test's name
};

/// One finding of a test's lint run, with its place.
struct TestFinding {
  std::string rule_id;
  std::string place;     // selector, or file:line:col when none fits
  std::string location;  // file:line:col
  std::string message;
  bool expected = false;  // some `expect` of the test counts it
};

/// An expectation and what was found for it.
struct ExpectationOutcome {
  const syntax::TestExpectation* expectation = nullptr;
  size_t found = 0;  // matching findings
  bool met = false;
  std::string problem;  // why it is not met, e.g. "no rule `CAP-X`; did you mean `CAP-ALC-001`?"
};

struct PolicyTestResult {
  std::string name;
  std::string path;
  SourceLoc loc;
  bool passed = false;
  std::vector<ExpectationOutcome> outcomes;  // one per expectation, in order
  std::vector<TestFinding> findings;         // every finding, in report order
  std::vector<std::string> errors;           // fact and rule errors: "file:line:col: message"
  std::set<std::string> fired;               // rules that fired
  std::set<std::string> quiet;               // rules evaluated that did not fire
};

/// `expect CAP-ALC-001 at "allocations[a-x].pool" count 1 message "m"`, as written.
std::string ExpectationText(const syntax::TestExpectation& e);

}  // namespace capops
