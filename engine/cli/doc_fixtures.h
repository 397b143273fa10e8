// SPDX-License-Identifier: Apache-2.0
// The test fixtures of `capops-lint doc`: the fact files of the policy tests
// that name a rule, shown with the rule as the facts it fires or stays quiet
// on. Each fixture is written once. One that the catalogue shows once stays
// inline in that rule's entry; one it would show more than once (the
// scenario's plan, read by a test that names every rule of the pack; a file
// two tests of one rule read) gets a section of its own on the fixtures page
// (fixtures.html, fixtures.md) with the tests and rules that read it, and
// the rules link to it.
//
//   doc::Fixtures fixtures(engine, paths);
//   fixtures.WriteRuleMarkdown("CAP-ALC-001", md);   // in the rule's entry
//   fixtures.WritePages(html, md);                   // the fixtures page
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/cli/doc_page.h"

namespace capops::cli::doc {

/// A fixture longer than this is cut in the catalogue, and says so.
constexpr size_t kMaxFixtureBytes = 6000;

class Fixtures {
 public:
  /// Reads the fact files of `engine`'s policy tests (a file it cannot
  /// read is shown as a comment that says why). `paths` must outlive this.
  Fixtures(const Engine& engine, const CatalogPaths& paths);

  /// The fixtures of rule `id`: each that only this entry shows inline,
  /// under a `#### Fires on` / `#### Quiet on` heading; the shared ones as
  /// links to the fixtures page, under `#### Fixtures shared with other
  /// rules`. Nothing when no test names the rule.
  void WriteRuleMarkdown(const std::string& id, std::ostream& out) const;
  void WriteRuleHtml(const std::string& id, std::ostream& out) const;

  /// The fixtures page: each shared fixture once, at its anchor, with the
  /// tests and rules that read it.
  void WritePages(std::ostream& html, std::ostream& md) const;

  /// How many fixtures the fixtures page holds.
  size_t shared() const;

 private:
  struct Use {
    std::string rule;
    bool fires = false;
    std::string test;
  };
  struct Fixture {
    std::string shown;        // the path as the catalogue shows it
    std::string inline_test;  // the test whose inline YAML it is; "" for a file
    std::string text;
    std::string anchor;  // its id on the fixtures page; "" when inline
    std::vector<Use> uses;
  };
  struct Example {
    size_t fixture;
    std::string test;
  };
  struct RuleExamples {
    std::vector<Example> fires, quiet;
  };

  // A rule's examples: those only its entry shows, one by one; then the
  // shared ones, a group per test and verdict.
  struct RuleView {
    struct Group {
      bool fires;
      std::string test;
      std::vector<size_t> fixtures;
    };
    std::vector<std::pair<bool, const Example*>> own;  // fires?, example
    std::vector<Group> shared;
  };
  RuleView View(const std::string& id) const;
  // How a page writes a line of a rule's shared fixtures, a link to one, a test's name.
  struct Markup {
    const char* item_open;
    const char* item_close;
    std::string (*link)(const std::string& shown, const std::string& anchor);
    std::string (*test)(const std::string& name);
  };
  // "fires on A, B (test …)", a line per group of `view.shared`.
  std::string SharedLines(const RuleView& view, const Markup& m) const;
  std::string Title(const Fixture& f) const;

  std::vector<Fixture> fixtures_;
  std::map<std::string, RuleExamples> by_rule_;
};

}  // namespace capops::cli::doc
