// SPDX-License-Identifier: Apache-2.0
// SARIF 2.1.0 reports (OASIS sarif-v2.1.0-os), for code-scanning consumers.
// Keys are written in a fixed order (nlohmann::ordered_json): output is
// byte-for-byte stable for the same input.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "engine/common/escape.h"
#include "engine/common/json_text.h"
#include "engine/common/sha256.h"
#include "engine/lint/finding_key.h"
#include "engine/report/ci_report.h"
#include "engine/report/report.h"
#include "engine/report/snippet.h"

namespace capops::report {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kSchema = "https://json.schemastore.org/sarif-2.1.0.json";

const char* Level(Severity s) {
  return s == Severity::kError ? "error" : s == Severity::kWarning ? "warning" : "note";
}

// A URI reference for a path: relative paths stay relative (consumers
// resolve them against the checkout), absolute ones become `file://` URIs;
// unreserved characters and `/` are kept, the rest percent-encoded.
std::string Uri(std::string_view path) {
  std::string slashed(path);
  std::replace(slashed.begin(), slashed.end(), '\\', '/');
  return (!path.empty() && path[0] == '/' ? "file://" : "") + PercentEncoded(slashed, "/");
}

// Where a file is: relative to %SRCROOT% when it is under the source root,
// else by its path as given (absolute ones as file:// URIs).
Json ArtifactLocation(std::string_view path, const std::string& source_root,
                      const std::string& working_dir) {
  if (!source_root.empty()) {
    std::string relative = lint::RelativePath(path, source_root, working_dir);
    if (!relative.empty() && relative[0] != '/' && relative.rfind("../", 0) != 0 &&
        relative != "..") {
      return {{"uri", Uri(relative)}, {"uriBaseId", "SRCROOT"}};
    }
  }
  return {{"uri", Uri(path)}};
}

// `length`: how many characters the place spans (0: the YAML token there),
// as the text report underlines it.
Json PhysicalLocation(const SourceManager& sources, const CiOptions& options, const SourceLoc& loc,
                      uint32_t length = 0) {
  Json physical = {
      {"artifactLocation",
       ArtifactLocation(sources.Path(loc.file), options.source_root, options.working_dir)}};
  if (loc.valid()) {
    Json region = {{"startLine", loc.line}};
    if (loc.column > 0) region["startColumn"] = loc.column;
    if (uint32_t end = SpanEndColumn(sources, loc, length); end != 0) {
      region["endLine"] = loc.line;
      region["endColumn"] = end;  // SARIF's end column is the one after the region
    }
    physical["region"] = std::move(region);
  }
  return physical;
}

Json Message(const std::string& text) {
  return Json{{"text", text.empty() ? std::string("(no message)") : text}};
}

// Diagnostics that are not a rule's: described under `capops/<code>`.
std::string DiagnosticRuleId(const Diagnostic& d, const std::map<std::string, size_t>& rule_index) {
  if (rule_index.count(d.code) != 0) return d.code;
  return "capops/" + (d.code.empty() ? std::string("error") : d.code);
}

const char* CodeSummary(std::string_view id) {
  if (id == "capops/yaml") return "A fact file is not valid YAML or breaks a limit";
  if (id == "capops/facts") return "A fact document is malformed or does not match the schema";
  if (id == "capops/schema")
    return "Rules were not evaluated on facts that do not match the schema";
  if (id == "capops/waiver") return "A waiver expired or matches no finding";
  return "A problem capops-lint found in its inputs";
}

// A rule's help as code scanning shows it beside an alert: its doc, why it
// matters, how to fix it, the params it reads with this run's values.
std::string HelpMarkdown(const RuleDescriptor& r) {
  std::string md = MarkdownText(r.help.substr(0, r.help.find("\nbecause: ")));
  for (const std::string& b : r.because) md += "\n\n**Why:** " + MarkdownText(b);
  for (const std::string& f : r.fix) md += "\n\n**Fix:** " + MarkdownText(f);
  if (!r.params.empty()) md += "\n\n| param | type | value |\n|---|---|---|";
  for (const RuleDescriptor::Param& p : r.params) {
    md += "\n| " + MarkdownCell(p.name, Cell::kCode) + " | " + MarkdownCell(p.type, Cell::kCode) +
          " | " + MarkdownCell(p.value, Cell::kCode) + " |";
  }
  md += "\n\nOwner: " + MarkdownText(r.owner) + " · source: " + MarkdownText(r.source);
  return md;
}

Json RuleJson(const RuleDescriptor& r, const CiOptions& options) {
  Json properties = {{"owner", r.owner}, {"source", r.source}, {"tags", r.tags}};
  Json rule = {{"id", r.id},
               {"name", r.name},
               {"shortDescription", Message(r.summary)},
               {"fullDescription", Message(r.help)},
               {"help", {{"text", r.help}, {"markdown", HelpMarkdown(r)}}},
               {"defaultConfiguration", {{"enabled", r.enabled}, {"level", Level(r.severity)}}},
               {"properties", std::move(properties)}};
  if (!options.rules_url.empty()) rule["helpUri"] = options.rules_url + "#" + r.id;
  return rule;
}

// The `--explain` trace as a code flow: each traced clause in turn, at the
// first field of the facts it read (at the clause in the policy when it
// read none), saying what it evaluated to and the fields' values. A whole
// record a variable holds is the evidence's to show, not the flow's.
Json TraceFlow(const SourceManager& sources, const CiOptions& options,
               const std::vector<eval::TraceStep>& trace) {
  Json locations = Json::array();
  for (const eval::TraceStep& step : trace) {
    SourceLoc at = step.loc;
    std::string text = "`" + step.clause + "` is " + step.value;
    bool read = false;
    for (const eval::TraceValue& value : step.values) {
      if (!value.fact.valid() || value.expr.find_first_of(".[(") == std::string::npos) continue;
      if (!read) at = value.fact;
      text += std::string(read ? ", " : "; read ") + "`" + value.expr + "` = " + value.value;
      read = true;
    }
    locations.push_back({{"location",
                          {{"physicalLocation", PhysicalLocation(sources, options, at)},
                           {"message", Message(text + ".")}}}});
  }
  return {{"threadFlows", Json::array({{{"locations", std::move(locations)}}})}};
}

// The edits that repair a result (common/fix.h) as SARIF `fixes`: per fix,
// per file, its replacements, each a deleted region (empty for an
// insertion) and the content inserted there.
Json FixesJson(const SourceManager& sources, const CiOptions& options,
               const std::vector<Fix>& fixes) {
  Json out = Json::array();
  for (const Fix& f : fixes) {
    std::map<FileId, Json> by_file;
    for (const Replacement& r : f.replacements) {
      if (!r.begin.valid() || !r.end.valid()) continue;
      Json deleted = {{"startLine", r.begin.line},
                      {"startColumn", r.begin.column},
                      {"endLine", r.end.line},
                      {"endColumn", r.end.column}};
      by_file[r.file].push_back(
          {{"deletedRegion", std::move(deleted)}, {"insertedContent", {{"text", r.text}}}});
    }
    Json changes = Json::array();
    for (auto& [file, replacements] : by_file) {
      changes.push_back(
          {{"artifactLocation",
            ArtifactLocation(sources.Path(file), options.source_root, options.working_dir)},
           {"replacements", std::move(replacements)}});
    }
    if (!changes.empty())
      out.push_back(
          {{"description", Message(f.description)}, {"artifactChanges", std::move(changes)}});
  }
  return out;
}

// `fingerprint`: the finding's identity, "" when not known.
Json ViolationResult(const SourceManager& sources, const CiOptions& options,
                     const eval::Violation& v, size_t index, const std::string& fingerprint) {
  Json result = {{"ruleId", v.rule_id}, {"ruleIndex", index}, {"level", Level(v.severity)}};
  // Code scanning matches alerts across runs by it: the same finding keeps
  // its alert when lines move, as it keeps its place in a baseline.
  if (!fingerprint.empty()) result["partialFingerprints"] = {{"capopsFinding/v1", fingerprint}};
  std::string text = v.message;
  if (!v.because.empty()) text += "\nbecause: " + v.because;
  if (!v.fix.empty()) text += "\nfix: " + v.fix;
  // Advice is no SARIF fix, which must change an artifact: it is said in
  // the message and given in full in the properties.
  if (v.acquisition) text += "\nhelp: " + v.acquisition->description;
  std::string note = eval::BaselineNote(v);
  if (!note.empty()) text += "\nnote: " + note;
  result["message"] = Message(text);
  // Listed in the baseline, but grown past it: SARIF's `updated`.
  if (!note.empty()) result["baselineState"] = "updated";
  result["locations"] =
      Json::array({{{"physicalLocation", PhysicalLocation(sources, options, v.loc)}}});
  Json related = Json::array();
  auto relate = [&](const SourceLoc& loc, const std::string& message) {
    if (!loc.valid()) return;
    related.push_back({{"id", related.size()},
                       {"physicalLocation", PhysicalLocation(sources, options, loc)},
                       {"message", Message(message)}});
  };
  // A binding in a planner's words (allocation `a-explore`), else as the rule has it.
  for (const eval::Evidence& e : v.evidence)
    relate(e.loc, e.shown.empty() ? e.name + " = " + e.value : e.shown);
  for (const eval::Label& l : v.labels) relate(l.loc, l.message);
  if (!related.empty()) result["relatedLocations"] = std::move(related);
  if (!v.trace.empty()) result["codeFlows"] = Json::array({TraceFlow(sources, options, v.trace)});
  if (Json fixes = FixesJson(sources, options, v.fixes); !fixes.empty())
    result["fixes"] = std::move(fixes);
  // The params the finding rests on, each with its value and where it was
  // set, and the size of the problem the rule states, with what a baseline recorded.
  Json properties = Json::object();
  if (v.params && !v.params->empty()) properties["params"] = Json::parse(ParamsJson(v));
  if (!v.measure.is(ValueKind::kNull)) properties["measure"] = Json::parse(ValueJson(v.measure));
  if (v.acquisition) properties["acquisition"] = Json::parse(AcquisitionJson(v));
  if (!note.empty()) properties["baselineMeasure"] = Json::parse(ValueJson(v.baseline_measure));
  if (!properties.empty()) result["properties"] = std::move(properties);
  if (v.suppression) {
    const eval::Suppression& s = *v.suppression;
    Json suppression = {
        {"kind", "external"}, {"status", "accepted"}, {"justification", s.justification}};
    if (s.loc.valid())
      suppression["location"] = {{"physicalLocation", PhysicalLocation(sources, options, s.loc)}};
    suppression["properties"] = {{"owner", s.owner}, {"expires", s.expires}};
    result["suppressions"] = Json::array({std::move(suppression)});
  }
  return result;
}

Json DiagnosticResult(const SourceManager& sources, const CiOptions& options, const Diagnostic& d,
                      const std::string& rule_id, size_t index) {
  std::string text = d.message;
  if (!d.help.empty()) text += "\nhelp: " + d.help;
  Json result = {{"ruleId", rule_id},
                 {"ruleIndex", index},
                 {"level", Level(d.severity)},
                 {"message", Message(text)}};
  // Located only inside the source root: a rule's error in an installed
  // pack names no path of the machine that ran it. Its identity is the
  // rule, the file as the repository knows it, and what was said — not a
  // line number, so that it survives edits elsewhere in the file.
  Json where = d.loc.file == kNoFile ? Json() : PhysicalLocation(sources, options, d.loc, d.length);
  bool inside = where.is_object() && where["artifactLocation"].contains("uriBaseId");
  std::string file = inside ? where["artifactLocation"]["uri"].get<std::string>() : "";
  if (inside || (where.is_object() && options.source_root.empty()))
    result["locations"] = Json::array({{{"physicalLocation", std::move(where)}}});
  result["partialFingerprints"] = {
      {"capopsDiagnostic/v1", Sha256().Add(rule_id).Add(file).Add(d.message).Hex()}};
  Json related = Json::array();
  for (const RelatedLoc& r : d.related) {
    if (r.loc.file == kNoFile) continue;
    Json at = PhysicalLocation(sources, options, r.loc);
    if (!options.source_root.empty() && !at["artifactLocation"].contains("uriBaseId")) continue;
    related.push_back({{"id", related.size()},
                       {"physicalLocation", std::move(at)},
                       {"message", Message(r.message)}});
  }
  if (!related.empty()) result["relatedLocations"] = std::move(related);
  if (Json fixes = FixesJson(sources, options, d.fixes); !fixes.empty())
    result["fixes"] = std::move(fixes);
  return result;
}

}  // namespace

void WriteSarif(const SourceManager& sources, const eval::LintReport& report,
                const std::vector<RuleDescriptor>& rules, const CiOptions& options,
                std::ostream& out) {
  Json rule_list = Json::array();
  std::map<std::string, size_t> rule_index;
  for (const RuleDescriptor& r : rules) {
    rule_index.emplace(r.id, rule_list.size());
    rule_list.push_back(RuleJson(r, options));
  }
  Json results = Json::array();
  for (size_t k = 0; k < report.violations.size(); ++k) {
    const eval::Violation& v = report.violations[k];
    auto it = rule_index.find(v.rule_id);
    if (it == rule_index.end()) {  // a rule the caller did not describe
      it = rule_index.emplace(v.rule_id, rule_list.size()).first;
      rule_list.push_back(
          {{"id", v.rule_id}, {"name", v.rule_name}, {"shortDescription", Message(v.rule_name)}});
    }
    results.push_back(
        ViolationResult(sources, options, v, it->second,
                        k < options.fingerprints.size() ? options.fingerprints[k] : ""));
  }
  for (const Diagnostic& d : report.errors.items()) {
    std::string id = DiagnosticRuleId(d, rule_index);
    auto it = rule_index.find(id);
    if (it == rule_index.end()) {
      it = rule_index.emplace(id, rule_list.size()).first;
      rule_list.push_back({{"id", id},
                           {"shortDescription", Message(CodeSummary(id))},
                           {"defaultConfiguration", {{"level", "error"}}}});
    }
    results.push_back(DiagnosticResult(sources, options, d, id, it->second));
  }
  Json driver = {{"name", "capops-lint"},
                 {"version", options.version},
                 {"semanticVersion", options.version},
                 {"rules", std::move(rule_list)}};
  if (!options.rules_url.empty()) driver["informationUri"] = options.rules_url;
  Json run = {
      {"tool", {{"driver", std::move(driver)}}},
      {"results", std::move(results)},
      {"columnKind", "unicodeCodePoints"},
      {"properties", {{"rulesetDigest", report.ruleset_digest}, {"baselined", report.baselined}}}};
  if (!options.automation_id.empty()) run["automationDetails"] = {{"id", options.automation_id}};
  if (!options.source_root.empty()) {
    std::string root =
        options.source_root.back() == '/' ? options.source_root : options.source_root + "/";
    run["originalUriBaseIds"] = {{"SRCROOT", {{"uri", Uri(root)}}}};
  }
  Json doc = {{"$schema", kSchema}, {"version", "2.1.0"}, {"runs", Json::array({std::move(run)})}};
  out << JsonText(doc, 2) << '\n';
}

}  // namespace capops::report
