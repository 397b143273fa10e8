// SPDX-License-Identifier: Apache-2.0
// Renders a lint::Report in the format asked for. Entry point: WriteLintReport.
#include "engine/report/lint_report.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <utility>

#include "engine/common/sha256.h"
#include "engine/lint/finding_key.h"
#include "engine/lint/rule_catalog.h"
#include "engine/report/html_report.h"
#include "engine/report/report.h"

namespace capops::report {

namespace fs = std::filesystem;

bool ParseFormat(std::string_view name, Format* out) {
  static constexpr std::array<std::pair<std::string_view, Format>, 8> kNames = {{
      {"text", Format::kText},
      {"short", Format::kShort},
      {"json", Format::kJson},
      {"sarif", Format::kSarif},
      {"junit", Format::kJunit},
      {"github", Format::kGithub},
      {"markdown", Format::kMarkdown},
      {"html", Format::kHtml},
  }};
  for (const auto& [n, f] : kNames) {
    if (n == name) {
      *out = f;
      return true;
    }
  }
  return false;
}

std::vector<RuleDescriptor> DescribeRules(const lint::Report& report) {
  const Engine& engine = *report.engine;
  std::vector<RuleDescriptor> rules = DescribeRules(*engine.program(), engine.sources());
  for (const check::RuleInfo& info : engine.program()->rules) {
    auto it = std::find_if(rules.begin(), rules.end(),
                           [&](const RuleDescriptor& r) { return r.id == info.id; });
    if (it == rules.end()) continue;
    for (const lint::ParamEntry& p : lint::RuleParams(engine, info))
      it->params.push_back({p.name, p.type, p.value});
  }
  if (report.selection == nullptr) return rules;
  for (RuleDescriptor& r : rules) {
    r.enabled = report.selection->enabled(r.id);
    r.severity = report.selection->SeverityOf(r.id, r.severity);
  }
  return rules;
}

namespace {

// The source root SARIF's %SRCROOT% stands for (Report::source_root, as the
// host settled it) and each finding's identity relative to it, as a
// baseline keys it.
void SarifIdentities(const lint::Report& report, CiOptions* ci) {
  if (report.source_root.empty() || report.working_dir.empty()) return;
  fs::path root(report.source_root);
  ci->source_root = root.string();
  ci->working_dir = report.working_dir;
  // One analysis per config file, named by where it is in the repository.
  if (!report.config_path.empty()) {
    fs::path config = (fs::path(report.working_dir) / report.config_path).lexically_normal();
    fs::path rel = config.lexically_relative(root);
    if (!rel.empty() && *rel.begin() != "..")
      ci->automation_id = "capops/" + rel.generic_string() + "/";
  }
  if (report.engine == nullptr) return;
  lint::FindingKeys keys(*report.sources, report.engine->options().facts, root, report.working_dir);
  for (const eval::Violation& v : report.findings.violations) {
    ci->fingerprints.push_back(Sha256().Add(keys.Of(v).Fingerprint()).Hex());
  }
}

}  // namespace

void WriteLintReport(const lint::Report& report, Format format, const LintReportOptions& options,
                     std::ostream& out) {
  const SourceManager& sources = *report.sources;
  const eval::LintReport& findings = report.findings;
  CiOptions ci;
  ci.version = options.version;
  ci.plan_files = report.plan_files;
  ci.fail_on = report.fail_on;
  ci.rules_url = report.rules_url;
  switch (format) {
    case Format::kText:
    case Format::kMarkdown:  // no Markdown lint report: the text one, never nothing
      return WriteText(sources, findings, {options.explain, options.color}, out);
    case Format::kShort:
      return WriteShort(sources, findings, out);
    case Format::kJson:
      return WriteJson(sources, findings, options.version, out);
    case Format::kSarif:
      SarifIdentities(report, &ci);
      return WriteSarif(sources, findings, DescribeRules(report), ci, out);
    case Format::kJunit:
      return WriteJunit(sources, findings, DescribeRules(report), ci, out);
    case Format::kGithub:
      return WriteGithub(sources, findings, out);
    case Format::kHtml:
      return WriteHtml(report, {options.version}, out);
  }
}

}  // namespace capops::report
