// JUnit XML reports: a <testsuite> per file, a <testcase> per rule in it, so
// CI systems show which rules passed and failed for each plan.
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
  std::string where(sources.Path(loc.file));
  if (loc.valid()) where += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
  return where;
}

// One finding of a testcase: a violation or an error.
struct Finding {
  std::string line;  // "path:line:col: severity message"
  bool waived = false;
};

struct Suite {
  std::map<std::string, std::vector<Finding>> by_rule;  // rule id (or `capops/<code>`) → findings
};

void Collect(const SourceManager& sources, const eval::LintReport& report,
             const std::set<std::string>& rule_ids, std::map<std::string, Suite>* suites) {
  for (const eval::Violation& v : report.violations) {
    // One line per finding: a newline in a message or a path is shown, not kept.
    std::string line =
        Visible(Where(sources, v.loc) + ": " + SeverityName(v.severity) + " " + v.message);
    if (v.suppression) line += " (waived: " + Visible(v.suppression->justification) + ")";
    (*suites)[std::string(sources.Path(v.loc.file))].by_rule[v.rule_id].push_back(
        {line, v.suppression.has_value()});
  }
  for (const Diagnostic& d : report.errors.items()) {
    std::string line =
        Visible(Where(sources, d.loc) + ": " + SeverityName(d.severity) + " " + d.message);
    // A rule error's code is its rule id; other codes (`yaml`, `facts`) get a case of their own.
    std::string id = d.code.empty() ? "capops/error" : d.code;
    if (!rule_ids.count(id)) id = "capops/" + (d.code.empty() ? std::string("error") : d.code);
    (*suites)[std::string(sources.Path(d.loc.file))].by_rule[id].push_back({line});
  }
}

// `findings` is null when the rule found nothing in the file.
void WriteCase(const std::string& file, const std::string& id, const std::string& name,
               const std::vector<Finding>* findings, bool disabled, std::ostream& out) {
  out << "    <testcase classname=\"" << Xml(file) << "\" name=\"" << Xml(name) << "\"";
  size_t failing = 0;
  std::string body, waived;
  if (findings != nullptr) {
    for (const Finding& f : *findings) {
      (f.waived ? waived : body) += f.line + "\n";
      failing += !f.waived;
    }
  }
  if (findings == nullptr && disabled) {
    out << ">\n      <skipped message=\"disabled in the config\"/>\n    </testcase>\n";
    return;
  }
  if (failing == 0 && waived.empty()) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  if (failing > 0) {
    out << "      <failure type=\"" << Xml(id) << "\" message=\"" << failing << " finding"
        << (failing == 1 ? "" : "s") << " of " << Xml(id) << "\">" << XmlText(body)
        << "</failure>\n";
  }
  if (!waived.empty()) out << "      <system-out>" << XmlText(waived) << "</system-out>\n";
  out << "    </testcase>\n";
}

struct Case {
  std::string id;
  std::string name;
  bool disabled = false;
};

// Every rule is a testcase; findings under other ids (file errors) add theirs.
std::vector<Case> SuiteCases(const std::vector<RuleDescriptor>& rules, const Suite& suite) {
  std::vector<Case> cases;
  std::set<std::string> described;
  for (const RuleDescriptor& r : rules) {
    cases.push_back({r.id, r.id + " " + r.name, !r.enabled});
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
  Collect(sources, report, rule_ids, &suites);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"capops-lint\">\n";
  for (auto& [file, suite] : suites) {
    std::vector<Case> cases = SuiteCases(rules, suite);
    size_t failures = 0, skipped = 0;
    for (const Case& c : cases) {
      auto it = suite.by_rule.find(c.id);
      if (it == suite.by_rule.end()) {
        skipped += c.disabled;
        continue;
      }
      failures += std::any_of(it->second.begin(), it->second.end(),
                              [](const Finding& f) { return !f.waived; });
    }
    out << "  <testsuite name=\"" << Xml(file) << "\" tests=\"" << cases.size() << "\" failures=\""
        << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n";
    for (const Case& c : cases) {
      auto it = suite.by_rule.find(c.id);
      WriteCase(file, c.id, c.name, it == suite.by_rule.end() ? nullptr : &it->second, c.disabled,
                out);
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace capops::report
