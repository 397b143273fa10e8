// SPDX-License-Identifier: Apache-2.0
// JUnit XML reports: a <testsuite> per file, a <testcase> per rule in it, so
// CI systems show which rules passed and failed for each plan. A rule that
// did not run (disabled, or the plan's facts break the schema) is skipped,
// never passed; a finding fails its testcase only when it fails the run
// (--fail-on), else it is listed as the testcase's output.
#include <algorithm>
#include <map>
#include <set>

#include "engine/common/escape.h"
#include "engine/report/ci_report.h"

namespace capops::report {

namespace {

// Any bytes as XML text: entities, and characters XML 1.0 cannot hold (or
// that are not UTF-8) written as visible escapes (escape.h).
std::string Xml(std::string_view text) {
  return XmlText(text, Keep::kNothing);
}

std::string Where(const SourceManager& sources, const SourceLoc& loc) {
  std::string where(sources.ShownPath(loc.file));
  if (loc.valid()) where += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
  return where;
}

// One finding of a testcase: a violation or an error.
struct Finding {
  std::string line;      // "path:line:col: severity message"
  bool failing = false;  // fails the run: not waived, and --fail-on reaches it
  uint32_t at = 0;       // its line in the file, 0 for none
};

struct Suite {
  std::map<std::string, std::vector<Finding>> by_rule;  // rule id (or `capops/<code>`) → findings
  std::string not_run;  // why no rule ran on this file, "" when they did
};

void Collect(const SourceManager& sources, const eval::LintReport& report,
             const std::set<std::string>& rule_ids, lint::FailOn fail_on,
             std::map<std::string, Suite>* suites) {
  for (const eval::Violation& v : report.violations) {
    // One line per finding: a newline in a message or a path is shown, not kept.
    std::string line =
        Visible(Where(sources, v.loc) + ": " + SeverityName(v.severity) + " " + v.message);
    if (v.suppression) line += " (waived: " + Visible(v.suppression->justification) + ")";
    if (std::string note = eval::BaselineNote(v); !note.empty()) line += " (" + Visible(note) + ")";
    (*suites)[std::string(sources.ShownPath(v.loc.file))].by_rule[v.rule_id].push_back(
        {line, !v.suppression && lint::Reaches(v.severity, fail_on), v.loc.line});
  }
  for (const Diagnostic& d : report.errors.items()) {
    std::string line =
        Visible(Where(sources, d.loc) + ": " + SeverityName(d.severity) + " " + d.message);
    Suite& suite = (*suites)[std::string(sources.ShownPath(d.loc.file))];
    if (eval::IsNotEvaluatedNote(d)) suite.not_run = d.message;
    // A rule error's code is its rule id; other codes (`yaml`, `facts`) get a case of their own.
    std::string id = d.code.empty() ? "capops/error" : d.code;
    if (!rule_ids.count(id)) id = "capops/" + (d.code.empty() ? std::string("error") : d.code);
    suite.by_rule[id].push_back({line, lint::Reaches(d.severity, fail_on), d.loc.line});
  }
}

// `findings` is null when the rule found nothing in the file; `skipped`
// says why the rule did not run on it ("" when it did).
void WriteCase(const std::string& file, const std::string& id, const std::string& name,
               const std::vector<Finding>* findings, const std::string& skipped,
               std::ostream& out) {
  out << "    <testcase classname=\"" << Xml(file) << "\" name=\"" << Xml(name) << "\" file=\""
      << Xml(file) << "\"";
  size_t failing = 0;
  std::string body, listed;
  if (findings != nullptr) {
    for (const Finding& f : *findings) {
      (f.failing ? body : listed) += f.line + "\n";
      failing += f.failing;
    }
    // The line of its first failing finding, else of its first.
    auto first = std::find_if(findings->begin(), findings->end(),
                              [](const Finding& f) { return f.failing; });
    if (first == findings->end()) first = findings->begin();
    if (first != findings->end() && first->at != 0) out << " line=\"" << first->at << "\"";
  }
  if (findings == nullptr && !skipped.empty()) {
    out << ">\n      <skipped message=\"" << Xml(skipped) << "\"/>\n    </testcase>\n";
    return;
  }
  if (failing == 0 && listed.empty()) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  if (failing > 0) {
    out << "      <failure type=\"" << Xml(id) << "\" message=\"" << failing << " finding"
        << (failing == 1 ? "" : "s") << " of " << Xml(id) << "\">" << XmlText(body)
        << "</failure>\n";
  }
  if (!listed.empty()) out << "      <system-out>" << XmlText(listed) << "</system-out>\n";
  out << "    </testcase>\n";
}

struct Case {
  std::string id;
  std::string name;
  bool disabled = false;
  bool rule = false;  // a rule's case, not one of a file error's
};

// Every rule is a testcase; findings under other ids (file errors) add theirs.
std::vector<Case> SuiteCases(const std::vector<RuleDescriptor>& rules, const Suite& suite) {
  std::vector<Case> cases;
  std::set<std::string> described;
  for (const RuleDescriptor& r : rules) {
    cases.push_back({r.id, r.id + " " + r.name, !r.enabled, true});
    described.insert(r.id);
  }
  for (const auto& [id, findings] : suite.by_rule) {
    if (described.count(id) == 0) cases.push_back({id, id});
  }
  return cases;
}

}  // namespace

void WriteJunit(const SourceManager& sources, const eval::LintReport& report,
                const std::vector<RuleDescriptor>& rules, const CiOptions& options,
                std::ostream& out) {
  std::map<std::string, Suite> suites;
  for (const std::string& plan : options.plan_files) suites[plan];
  std::set<std::string> rule_ids;
  for (const RuleDescriptor& r : rules) rule_ids.insert(r.id);
  Collect(sources, report, rule_ids, options.fail_on, &suites);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"capops-lint\">\n";
  for (auto& [file, suite] : suites) {
    std::vector<Case> cases = SuiteCases(rules, suite);
    // Why a case did not run: disabled, or no rule ran on the file. Only a
    // rule's case is skipped; the cases of the file's own errors are not.
    const std::string& not_run = suite.not_run;
    auto skipped_because = [&not_run](const Case& c) -> std::string {
      if (c.disabled) return "disabled in the config";
      return c.rule ? not_run : "";
    };
    size_t failures = 0, skipped = 0;
    for (const Case& c : cases) {
      auto it = suite.by_rule.find(c.id);
      if (it == suite.by_rule.end()) {
        skipped += !skipped_because(c).empty();
        continue;
      }
      failures += std::any_of(it->second.begin(), it->second.end(),
                              [](const Finding& f) { return f.failing; });
    }
    out << "  <testsuite name=\"" << Xml(file) << "\" tests=\"" << cases.size() << "\" failures=\""
        << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n";
    for (const Case& c : cases) {
      auto it = suite.by_rule.find(c.id);
      WriteCase(file, c.id, c.name, it == suite.by_rule.end() ? nullptr : &it->second,
                skipped_because(c), out);
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace capops::report
