// SPDX-License-Identifier: Apache-2.0
// RuleSelection: enable/disable/severity from the config, checked against the
// compiled rule set, applied to a report.
#include "engine/lint/rule_selection.h"

#include <fnmatch.h>

#include <algorithm>

namespace capops::lint {

namespace {

std::vector<std::string> RuleIds(const check::Program& program) {
  std::vector<std::string> ids;
  for (const check::RuleInfo& r : program.rules) ids.push_back(r.id);
  return ids;
}

// Selects rules; a selector that names none is an error.
std::set<std::string> Select(const std::vector<LocatedString>& selectors,
                             const check::Program& program, Diagnostics* diags) {
  std::set<std::string> ids;
  for (const LocatedString& s : selectors) {
    size_t before = ids.size();
    bool any = false;
    for (const check::RuleInfo& r : program.rules) {
      if (SelectorMatches(s.text, r)) {
        ids.insert(r.id);
        any = true;
      }
    }
    if (any || ids.size() != before) continue;
    Diagnostic& d = diags->Error(s.loc, "no rule matches `" + s.text + "`");
    d.code = "config";
    std::string closest = ClosestName(s.text, RuleIds(program));
    d.help = closest.empty() ? "name a rule id, an id glob such as `CAP-ALC-*`, or `tag:NAME`"
                             : "did you mean `" + closest + "`?";
  }
  return ids;
}

}  // namespace

bool SelectorMatches(std::string_view selector, const check::RuleInfo& rule) {
  if (selector.starts_with("tag:")) {
    std::string_view tag = selector.substr(4);
    return std::any_of(rule.tags.begin(), rule.tags.end(), [&](const std::string& t) {
      return t == tag || t == "tag(" + std::string(tag) + ")";
    });
  }
  return fnmatch(std::string(selector).c_str(), rule.id.c_str(), 0) == 0;
}

RuleSelection RuleSelection::Make(const Config& config, const check::Program& program,
                                  Diagnostics* diags) {
  RuleSelection s;
  s.total_ = program.rules.size();
  std::set<std::string> disabled = Select(config.disable, program, diags);
  if (!config.enable.empty()) {
    std::set<std::string> enabled = Select(config.enable, program, diags);
    for (const check::RuleInfo& r : program.rules) {
      if (enabled.count(r.id) == 0) disabled.insert(r.id);
    }
  }
  s.disabled_ = std::move(disabled);
  for (const SeverityOverride& o : config.severity) {
    std::set<std::string> ids = Select({o.rule}, program, diags);
    for (const std::string& id : ids) s.severity_[id] = o.severity;
  }
  return s;
}

Severity RuleSelection::SeverityOf(const std::string& rule_id, Severity declared) const {
  auto it = severity_.find(rule_id);
  return it == severity_.end() ? declared : it->second;
}

void RuleSelection::Apply(eval::LintReport* report) const {
  auto& violations = report->violations;
  violations.erase(std::remove_if(violations.begin(), violations.end(),
                                  [&](const eval::Violation& v) { return !enabled(v.rule_id); }),
                   violations.end());
  for (eval::Violation& v : violations) {
    auto it = severity_.find(v.rule_id);
    // A `warn` inside an error rule stays a warning unless the rule is re-graded.
    if (it != severity_.end()) v.severity = it->second;
  }
  if (!disabled_.empty()) {
    Diagnostics kept;
    for (const Diagnostic& d : report->errors.items()) {
      if (disabled_.count(d.code) == 0) kept.Add(d.severity, d.loc, d.message) = d;
    }
    report->errors = std::move(kept);
  }
  if (total_ != 0) report->rules = enabled_count();
}

}  // namespace capops::lint
