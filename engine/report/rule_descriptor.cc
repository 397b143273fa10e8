// SPDX-License-Identifier: Apache-2.0
// RuleDescriptor: the rule metadata the CI reports list for every rule.
#include <algorithm>

#include "engine/lint/rule_catalog.h"
#include "engine/report/ci_report.h"

namespace capops::report {

std::vector<RuleDescriptor> DescribeRules(const check::Program& program,
                                          const SourceManager& sources) {
  std::vector<RuleDescriptor> out;
  for (const check::RuleInfo& info : program.rules) {
    RuleDescriptor d;
    d.id = info.id;
    d.name = info.rule->name;
    d.severity = info.severity;
    d.owner = info.owner;
    d.source = info.source;
    d.tags = info.tags;
    d.loc = sources.Resolve(info.rule->name_span);
    const std::string& doc = info.rule->doc;
    d.summary = doc.empty() ? info.rule->name : doc.substr(0, doc.find('\n'));
    d.help = doc.empty() ? d.summary : doc;
    // Each text once: a code-scanning rule's help says a reason once.
    auto once = [](std::vector<std::string> texts, std::vector<std::string>* out) {
      for (std::string& t : texts) {
        if (std::find(out->begin(), out->end(), t) == out->end()) out->push_back(std::move(t));
      }
    };
    lint::RuleReasons reasons = lint::ReasonsOf(*info.rule);
    once(std::move(reasons.because), &d.because);
    once(std::move(reasons.fix), &d.fix);
    if (!info.rule->emits.empty()) {
      const auto& emit = info.rule->emits.front();
      if (!emit.because.empty()) d.help += "\nbecause: " + emit.because;
      if (!emit.fix.empty()) d.help += "\nfix: " + emit.fix;
    }
    out.push_back(std::move(d));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

}  // namespace capops::report
