// SPDX-License-Identifier: Apache-2.0
// The params command: compile the packs, apply the config's params as a
// lint does, and list each param with its values and their provenance.
#include "engine/cli/params_command.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/common/escape.h"
#include "engine/common/json_text.h"
#include "engine/lint/config_params.h"
#include "engine/lint/rule_catalog.h"
#include "engine/report/report.h"
#include "engine/workspace/config_file.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli {

namespace {

using nlohmann::ordered_json;

// One param as listed: its settings and its readers.
struct ParamRow {
  const ParamSetting* setting;             // the value for every rule without its own
  const ParamSetting* declared;            // the pack's default
  std::vector<const ParamSetting*> rules;  // values for single rules, by rule id
  std::vector<std::string> read_by;        // rule ids
};

std::vector<ParamRow> Rows(const Engine& engine, const std::vector<ParamSetting>& defaults,
                           const std::vector<ParamSetting>& per_rule) {
  std::vector<ParamRow> rows;
  for (const ParamSetting& s : engine.param_settings())
    rows.push_back({&s, &defaults[s.param], {}, {}});
  for (const ParamSetting& s : per_rule) rows[s.param].rules.push_back(&s);
  for (const check::RuleInfo& r : engine.program()->rules) {
    for (uint32_t p : r.params) rows[p].read_by.push_back(r.id);
  }
  return rows;
}

std::string Where(const ParamSource& s) {
  return s.line == 0 ? s.file : s.file + ":" + std::to_string(s.line);
}

const char* LevelName(ParamSource::Level level) {
  switch (level) {
    case ParamSource::Level::kDefault:
      return "default";
    case ParamSource::Level::kPackage:
      return "package";
    case ParamSource::Level::kRule:
      return "rule";
  }
  return "";
}

void WriteText(const std::vector<ParamRow>& rows, std::ostream& out) {
  for (const ParamRow& row : rows) {
    const ParamSetting& s = *row.setting;
    out << Visible(s.qualified) << ": " << Visible(s.type) << " = " << Visible(s.value.ToLiteral())
        << "  (" << Visible(s.source.Text()) << ")\n";
    if (s.source.level != ParamSource::Level::kDefault) {
      out << "  default: " << Visible(row.declared->value.ToLiteral()) << "  ("
          << Visible(Where(row.declared->source)) << ")\n";
    }
    for (const ParamSetting* r : row.rules) {
      out << "  for " << Visible(r->source.rule) << ": " << Visible(r->value.ToLiteral()) << "  ("
          << Visible(Where(r->source)) << ")\n";
    }
    out << "  read by: "
        << (row.read_by.empty() ? "no rule" : Visible(lint::Joined(row.read_by, ", "))) << '\n';
  }
  out << rows.size() << " param" << (rows.size() == 1 ? "" : "s") << '\n';
}

ordered_json ValueOf(const Value& v) {
  return ordered_json::parse(report::ValueJson(v));
}

void WriteJson(const Engine& engine, const std::vector<ParamRow>& rows, std::ostream& out) {
  ordered_json params = ordered_json::array();
  for (const ParamRow& row : rows) {
    const ParamSetting& s = *row.setting;
    ordered_json rules = ordered_json::array();
    for (const ParamSetting* r : row.rules) {
      rules.push_back(
          {{"rule", r->source.rule}, {"value", ValueOf(r->value)}, {"set_at", Where(r->source)}});
    }
    params.push_back({{"name", s.qualified},
                      {"type", s.type},
                      {"default", ValueOf(row.declared->value)},
                      {"declared_at", Where(row.declared->source)},
                      {"value", ValueOf(s.value)},
                      {"level", LevelName(s.source.level)},
                      {"set_at", Where(s.source)},
                      {"rules", std::move(rules)},
                      {"read_by", row.read_by}});
  }
  out << JsonText(ordered_json{{"ruleset_digest", engine.ruleset_digest()}, {"params", params}}, 2)
      << '\n';
}

// The config in force: named, found upwards, or none. Nullopt after
// printing its errors.
std::optional<lint::Config> ReadConfig(const ParamsOptions& options, SourceManager* sources,
                                       std::ostream& err) {
  workspace::DiskFileSystem disk;
  std::optional<std::filesystem::path> path;
  if (!options.config.empty()) {
    path = options.config;
  } else if (!options.no_config) {
    path = workspace::FindConfig(disk, ".");
  }
  if (!path) return lint::Config{};
  workspace::ConfigResult r = workspace::LoadConfig(disk, sources, *path, facts::LoadOptions{});
  if (!r.diagnostics.HasErrors()) return std::move(r.config);
  report::WriteDiagnostics(*sources, r.diagnostics, {false, options.color}, err);
  return std::nullopt;
}

}  // namespace

int RunParams(const ParamsOptions& options, std::ostream& out, std::ostream& err) {
  SourceManager config_sources;
  std::optional<lint::Config> config = ReadConfig(options, &config_sources, err);
  if (!config) return Fail(err, "the config is not usable");
  Engine engine;
  std::string error;
  const std::vector<std::string>& policies =
      options.policies.empty() ? config->policies : options.policies;
  if (!LoadPack(policies, options.color, &engine, err)) return kExitUsage;
  std::vector<ParamSetting> defaults = engine.param_settings();
  Diagnostics problems;
  if (!lint::ApplyConfigParams(*config, &engine, &problems)) {
    problems.Sort();
    report::WriteDiagnostics(config_sources, problems, {false, options.color}, err);
    return Fail(err, "the config's params are not usable");
  }
  std::vector<ParamSetting> per_rule = engine.RuleParamSettings();
  std::vector<ParamRow> rows = Rows(engine, defaults, per_rule);
  if (options.format == report::Format::kJson) {
    WriteJson(engine, rows, out);
  } else {
    WriteText(rows, out);
  }
  return kExitClean;
}

}  // namespace capops::cli
