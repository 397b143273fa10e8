// SPDX-License-Identifier: Apache-2.0
// The rules command: compile the packs and print their catalogue or digest
// (or hand a --diff to rules_diff_command.cc).
#include "engine/cli/rules_command.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/cli/rules_diff_command.h"
#include "engine/common/escape.h"
#include "engine/common/json_text.h"
#include "engine/lint/fail_on.h"
#include "engine/lint/rule_catalog.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli {

namespace {

using nlohmann::json;

void WriteJson(const Engine& engine, std::ostream& out) {
  json rules = json::array();
  for (const lint::RuleEntry& e : lint::BuildCatalog(engine)) {
    const check::RuleInfo& r = *e.info;
    json params = json::array();
    for (const lint::ParamEntry& p : e.params) {
      params.push_back(
          {{"name", p.name}, {"type", p.type}, {"default", p.default_text}, {"value", p.value}});
    }
    rules.push_back({{"id", r.id},
                     {"name", r.rule->name},
                     {"severity", SeverityName(r.severity)},
                     {"owner", r.owner},
                     {"tags", r.tags},
                     {"source", r.source},
                     {"defined_at", e.defined_at},
                     {"doc", r.rule->doc},
                     {"because", e.because},
                     {"fix", e.fix},
                     {"params", params}});
  }
  out << JsonText(json{{"ruleset_digest", engine.ruleset_digest()}, {"rules", rules}}, 2) << '\n';
}

void WriteMarkdown(const Engine& engine, std::ostream& out) {
  out << "| id | name | severity | owner | tags | source | params "
         "|\n|---|---|---|---|---|---|---|\n";
  for (const lint::RuleEntry& e : lint::BuildCatalog(engine)) {
    const check::RuleInfo& r = *e.info;
    std::vector<std::string> params;
    for (const lint::ParamEntry& p : e.params)
      params.push_back(MarkdownCell(p.name + " = " + p.value, Cell::kCode));
    out << "| " << MarkdownCell(r.id, Cell::kText) << " | "
        << MarkdownCell(r.rule->name, Cell::kCode) << " | " << SeverityName(r.severity) << " | "
        << MarkdownCell(r.owner, Cell::kText) << " | "
        << MarkdownCell(lint::Joined(r.tags, ", "), Cell::kText) << " | "
        << MarkdownCell(r.source, Cell::kText) << " | " << lint::Joined(params, ", ") << " |\n";
  }
  out << "\nruleset digest: `" << engine.ruleset_digest() << "`\n";
}

void WriteText(const Engine& engine, std::ostream& out) {
  for (const lint::RuleEntry& e : lint::BuildCatalog(engine)) {
    const check::RuleInfo& r = *e.info;
    out << Visible(r.id) << "  " << Visible(r.rule->name) << "  (" << SeverityName(r.severity)
        << ")  " << Visible(e.defined_at) << '\n';
    if (!r.owner.empty()) out << "  owner: " << Visible(r.owner) << '\n';
    if (!r.tags.empty()) out << "  tags: " << Visible(lint::Joined(r.tags, ", ")) << '\n';
    if (!r.source.empty()) out << "  source: " << Visible(r.source) << '\n';
    for (const lint::ParamEntry& p : e.params) {
      out << "  param " << Visible(p.name) << ": " << Visible(p.type) << " = " << Visible(p.value);
      if (p.value != p.default_text) out << "  (default " << Visible(p.default_text) << ")";
      out << '\n';
    }
  }
  out << engine.program()->rules.size() << " rules, ruleset " << engine.ruleset_digest() << '\n';
}

}  // namespace

int RunRules(const RulesOptions& options, std::ostream& out, std::ostream& err) {
  if (options.diff.size() == 2) {
    lint::FailOn fail_on = lint::FailOn::kError;
    if (!lint::ParseFailOn(options.fail_on, &fail_on))
      return Fail(err, "unknown --fail-on `" + options.fail_on + "`");
    return RunRulesDiff({options.diff[0], options.diff[1], options.policies, options.inventories,
                         options.format, options.fail_on_new, fail_on, options.max_findings},
                        out, err);
  }
  Engine engine;
  if (!LoadPack(options.policies, false, &engine, err)) return kExitUsage;
  if (options.digest) {
    out << engine.ruleset_digest() << '\n';
  } else if (options.canonical) {
    out << engine.CanonicalForm();
  } else if (options.format == report::Format::kJson) {
    WriteJson(engine, out);
  } else if (options.format == report::Format::kMarkdown) {
    WriteMarkdown(engine, out);
  } else {
    WriteText(engine, out);
  }
  return kExitClean;
}

}  // namespace capops::cli
