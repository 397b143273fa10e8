// SPDX-License-Identifier: Apache-2.0
// Policy tests: Engine::Tests and Engine::RunTest (policy_test.h). The lint
// run does the work; this file places findings in the facts and judges the
// expectations.
#include "engine/api/policy_test.h"

#include <algorithm>

#include "engine/api/engine.h"
#include "engine/api/lint_run.h"

namespace capops {

namespace {

std::string LocText(const SourceManager& sources, const SourceLoc& loc) {
  if (!loc.valid()) return "<unknown>";
  return std::string(sources.ShownPath(loc.file)) + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.column);
}

// The selector of the first value (shallowest first) whose text starts at
// `loc`, or "". Walked with an explicit stack: facts may be deep.
std::string PlaceOf(const SourceManager& sources, const eval::Facts& facts, const SourceLoc& loc) {
  std::string_view path = sources.Path(loc.file);
  auto here = [&](const Value& v) {
    return v.loc().valid() && v.loc().line == loc.line && v.loc().column == loc.column &&
           sources.Path(v.loc().file) == path;
  };
  std::vector<std::pair<const Value*, std::string>> stack = {{&facts.inventory, "inventory"},
                                                             {&facts.plan, ""}};
  while (!stack.empty()) {
    auto [v, selector] = stack.back();
    stack.pop_back();
    if (!selector.empty() && selector != "inventory" && here(*v)) return selector;
    std::vector<std::pair<const Value*, std::string>> children;
    if (v->is(ValueKind::kMap)) {
      for (const auto& [key, child] : v->entries())
        children.emplace_back(&child, selector.empty() ? key.str() : selector + "." + key.str());
    } else if (v->is(ValueKind::kList)) {
      for (size_t i = 0; i < v->items().size(); ++i) {
        const Value& item = v->items()[i];
        std::string key = item.Id().empty() ? std::to_string(i) : std::string(item.Id());
        children.emplace_back(&item, selector + "[" + key + "]");
      }
    }
    std::reverse(children.begin(), children.end());
    // Depth-first, in document order; a parent is tested before its children.
    stack.insert(stack.end(), children.begin(), children.end());
  }
  return "";
}

bool IsLineColumn(const std::string& at) {
  size_t colon = at.find(':');
  auto digits = [](std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  return colon != std::string::npos && digits(std::string_view(at).substr(0, colon)) &&
         digits(std::string_view(at).substr(colon + 1));
}

std::string WithoutPlanRoot(const std::string& selector) {
  return selector.rfind("plan.", 0) == 0 ? selector.substr(5) : selector;
}

bool Matches(const syntax::TestExpectation& e, const TestFinding& f,
             const std::string& first_file) {
  if (f.rule_id != e.rule_id) return false;
  if (!e.message.empty() && f.message.find(e.message) == std::string::npos) return false;
  if (e.at.empty()) return true;
  if (IsLineColumn(e.at)) return f.location == first_file + ":" + e.at;
  return WithoutPlanRoot(e.at) == f.place;
}

}  // namespace

// A test's `param "name: value"` settings over `*params`: each is YAML text
// holding a mapping, read and checked as a config file's `params` are.
bool Engine::TestParams(const PolicyTest& test, SourceManager* sources, eval::ParamValues* values,
                        std::vector<std::string>* errors) const {
  for (const syntax::TestDecl::ParamSetting& setting : test.decl->params) {
    FileId file = sources->Add(test.path + "#param", setting.yaml);
    facts::RawLoadResult loaded = facts::LoadRawYaml(*sources, file, options_.facts);
    Diagnostics problems = loaded.diagnostics;
    if (loaded.documents.size() != 1 || loaded.documents[0].kind() != ValueKind::kMap) {
      problems.Error(sources->Resolve(setting.span), "`param` takes `\"NAME: VALUE\"`, a mapping");
    } else {
      for (const auto& [name, value] : loaded.documents[0].entries()) {
        std::optional<size_t> index = ParamIndex(std::string(name), value.loc(), &problems);
        Value checked;
        if (index && CheckParamValue(*index, value, &checked, &problems))
          values->SetEverywhere(*index, checked);
      }
    }
    for (const Diagnostic& d : problems.items())
      errors->push_back(LocText(*sources, d.loc) + ": " + d.message);
    if (problems.HasErrors()) return false;
  }
  return true;
}

std::string ExpectationText(const syntax::TestExpectation& e) {
  std::string out = (e.none ? "expect_none " : "expect ") + e.rule_id;
  if (!e.at.empty()) out += " at \"" + e.at + "\"";
  if (e.count >= 0) out += " count " + std::to_string(e.count);
  if (!e.message.empty()) out += " message \"" + e.message + "\"";
  return out;
}

std::vector<PolicyTest> Engine::Tests() const {
  std::vector<PolicyTest> tests;
  if (!program_) return tests;
  std::vector<const syntax::Module*> modules;
  for (const auto& m : program_->modules) modules.push_back(m.get());
  std::sort(modules.begin(), modules.end(), [&](const auto* a, const auto* b) {
    return sources_.Path(a->file) < sources_.Path(b->file);
  });
  for (const syntax::Module* m : modules) {
    for (const syntax::TestDecl& t : m->tests) {
      tests.push_back(
          PolicyTest{&t, std::string(sources_.Path(m->file)), sources_.Resolve(t.name_span)});
    }
  }
  return tests;
}

PolicyTestResult Engine::RunTest(const PolicyTest& test, const std::vector<TextFile>& plans,
                                 const std::vector<TextFile>& inventories, eval::Coverage* coverage,
                                 SourceManager* sources) const {
  PolicyTestResult result;
  result.name = test.decl->name;
  result.path = test.path;
  result.loc = test.loc;
  if (!program_) return result;
  LintOptions lint;
  lint.coverage = coverage;
  eval::Facts facts;  // the facts the findings are in, to name their places
  eval::ParamValues values = values_;
  if (!TestParams(test, sources, &values, &result.errors)) return result;
  LintRun run(*program_, values, digest_, options_, EvalOptionsFor(lint), {}, sources);
  run.Load(inventories, plans);
  eval::LintReport report = run.Finish(&facts);

  for (const Diagnostic& d : report.errors.items()) {
    if (d.severity == Severity::kError)
      result.errors.push_back(LocText(*sources, d.loc) + ": " + d.message);
  }
  if (report.plans == 0)
    result.errors.push_back("no plan was evaluated: the test's facts hold no valid `CapacityPlan`");
  for (const eval::Violation& v : report.violations) {
    TestFinding f{v.rule_id, PlaceOf(*sources, facts, v.loc), LocText(*sources, v.loc), v.message,
                  false};
    if (f.place.empty()) f.place = f.location;
    result.fired.insert(v.rule_id);
    result.findings.push_back(std::move(f));
  }
  if (report.plans > 0) {
    for (const check::RuleInfo& r : program_->rules) {
      if (result.fired.count(r.id) == 0) result.quiet.insert(r.id);
    }
  }
  std::vector<std::string> ids;
  for (const check::RuleInfo& r : program_->rules) ids.push_back(r.id);
  std::string first_file = plans.empty() ? "" : plans[0].path;
  bool all_met = true;
  for (const syntax::TestExpectation& e : test.decl->expectations) {
    ExpectationOutcome o{&e, 0, false, ""};
    for (TestFinding& f : result.findings) {
      if (!Matches(e, f, first_file)) continue;
      ++o.found;
      if (!e.none) f.expected = true;
    }
    if (std::find(ids.begin(), ids.end(), e.rule_id) == ids.end()) {
      std::string near = ClosestName(e.rule_id, ids);
      o.problem = "no rule `" + e.rule_id + "` in the rule set" +
                  (near.empty() ? "" : "; did you mean `" + near + "`?");
    } else if (e.none) {
      o.met = o.found == 0;
    } else {
      o.met = e.count >= 0 ? o.found == static_cast<size_t>(e.count) : o.found > 0;
    }
    all_met = all_met && o.met;
    result.outcomes.push_back(std::move(o));
  }
  result.passed = all_met && result.errors.empty();
  return result;
}

}  // namespace capops
