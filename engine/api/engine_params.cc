// SPDX-License-Identifier: Apache-2.0
// Engine's params: the value of each param for every rule and for single
// rules, where each was set, and the params each rule's findings name.
#include <algorithm>

#include "engine/api/engine.h"
#include "engine/facts/validate.h"

namespace capops {

namespace {

std::string FileLine(const std::string& file, uint32_t line) {
  return line == 0 ? file : file + ":" + std::to_string(line);
}

}  // namespace

std::string ParamSource::Text(const SourceManager* shown) const {
  switch (level) {
    case Level::kDefault:
      if (shown != nullptr && policy != kNoFile)
        return "pack default, " + FileLine(std::string(shown->ShownPath(policy)), line);
      return file.empty() ? "pack default" : "pack default, " + FileLine(file, line);
    case Level::kPackage:
      return file.empty() ? "set by the program" : FileLine(file, line);
    case Level::kRule:
      return (file.empty() ? "set by the program" : FileLine(file, line)) + ", for " + rule;
  }
  return "";
}

std::vector<size_t> Engine::ParamsNamed(const std::string& name,
                                        std::vector<std::string>* qualified) const {
  std::vector<size_t> matches;
  for (size_t i = 0; i < program_->params.size(); ++i) {
    const check::ParamInfo& p = program_->params[i];
    const std::string& package = program_->modules[p.module]->package;
    qualified->push_back(package.empty() ? p.decl->name : package + "." + p.decl->name);
    if (name == p.decl->name || name == qualified->back()) matches.push_back(i);
  }
  return matches;
}

const Value* Engine::Param(const std::string& name) const {
  if (!program_) return nullptr;
  std::vector<std::string> qualified;
  std::vector<size_t> matches = ParamsNamed(name, &qualified);
  return matches.size() == 1 && matches[0] < params().size() ? &params()[matches[0]] : nullptr;
}

void Engine::DefaultSettings() {
  settings_.clear();
  rule_settings_.clear();
  std::vector<std::string> qualified;
  ParamsNamed("", &qualified);
  for (size_t i = 0; i < program_->params.size(); ++i) {
    const check::ParamInfo& p = program_->params[i];
    SourceLoc at = sources_.Resolve(p.decl->name_span);
    ParamSource source{ParamSource::Level::kDefault, std::string(sources_.ShownPath(at.file)),
                       at.line, "", at.file};
    settings_.push_back({i, p.decl->name, qualified[i], program_->schema.Name(p.type), params()[i],
                         std::move(source)});
  }
}

bool Engine::CheckParamValue(size_t param, const Value& value, Value* checked,
                             Diagnostics* problems) const {
  Diagnostics wrong;
  // A param value read from a config file: diagnostics about its keys point
  // at the value until the config reader can say where keys are.
  facts::ValidateOptions options;
  options.key_at = {};
  const check::ParamInfo& p = program_->params[param];
  *checked = facts::ValidateValue(program_->schema, p.type, value, &wrong, options);
  // The schema's message says what the value is not; the help, which param wanted what.
  wrong.Annotate([&](Diagnostic& d) {
    if (d.help.empty())
      d.help = "param `" + p.decl->name + "` is declared `" + program_->schema.Name(p.type) + "`";
  });
  problems->Append(wrong);
  return !wrong.HasErrors();
}

std::optional<size_t> Engine::ParamIndex(const std::string& name, const SourceLoc& at,
                                         Diagnostics* problems) const {
  if (!program_) return std::nullopt;
  std::vector<std::string> qualified;
  std::vector<size_t> matches = ParamsNamed(name, &qualified);
  if (matches.size() != 1) {
    Diagnostic& d =
        problems->Error(at, matches.empty() ? "unknown param `" + name + "`"
                                            : "`" + name + "` names params in several packages");
    d.code = "config";
    // A misspelling is usually in the name, whatever the package prefix says.
    std::string wanted =
        name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
    std::vector<std::string> bare;
    for (const check::ParamInfo& p : program_->params) bare.push_back(p.decl->name);
    std::string guess = ClosestName(wanted, bare);
    auto it = std::find(bare.begin(), bare.end(), guess);
    d.help = matches.empty() && !guess.empty()
                 ? "did you mean `" + qualified[it - bare.begin()] + "`?"
                 : "name it as `package.name`";
    return std::nullopt;
  }
  return matches[0];
}

bool Engine::SetParam(const std::string& name, const Value& value, Diagnostics* problems,
                      ParamSource source) {
  std::optional<size_t> index = ParamIndex(name, value.loc(), problems);
  if (!index) return false;
  ParamSetting& setting = settings_[*index];
  Value checked;
  if (!CheckParamValue(*index, value, &checked, problems)) return false;
  setting.value = std::move(checked);
  source.level = ParamSource::Level::kPackage;
  source.rule.clear();
  setting.source = std::move(source);
  SettingsChanged();
  return true;
}

bool Engine::SetRuleParam(const std::string& rule_id, const std::string& name, const Value& value,
                          Diagnostics* problems, ParamSource source) {
  if (!program_) return false;
  auto error = [&](std::string message, std::string help) {
    Diagnostic& d = problems->Error(value.loc(), std::move(message));
    d.code = "config";
    d.help = std::move(help);
    return false;
  };
  const std::vector<check::RuleInfo>& rules = program_->rules;
  auto rule = std::find_if(rules.begin(), rules.end(),
                           [&](const check::RuleInfo& r) { return r.id == rule_id; });
  if (rule == rules.end()) {
    std::vector<std::string> ids;
    for (const check::RuleInfo& r : rules) ids.push_back(r.id);
    std::string guess = ClosestName(rule_id, ids);
    return error("unknown rule `" + rule_id + "`",
                 guess.empty() ? "" : "did you mean `" + guess + "`?");
  }
  std::vector<std::string> qualified;
  std::vector<size_t> named = ParamsNamed(name, &qualified);
  std::vector<std::string> read;  // the bare names of the params the rule reads
  std::vector<size_t> matches;
  for (uint32_t p : rule->params) {
    read.push_back(program_->params[p].decl->name);
    if (std::find(named.begin(), named.end(), p) != named.end()) matches.push_back(p);
  }
  std::string reads = read.empty() ? "it reads no param" : "it reads `" + read[0] + "`";
  for (size_t i = 1; i < read.size(); ++i)
    reads += (i + 1 == read.size() ? " and `" : ", `") + read[i] + "`";
  if (named.empty()) {
    std::string guess = ClosestName(name.substr(name.rfind('.') + 1), read);
    return error("unknown param `" + name + "`",
                 guess.empty() ? reads : "did you mean `" + guess + "`?");
  }
  if (matches.empty()) return error("`" + rule_id + "` does not read `" + name + "`", reads);
  if (matches.size() > 1)
    return error("`" + name + "` names params in several packages", "name it as `package.name`");
  Value checked;
  if (!CheckParamValue(matches[0], value, &checked, problems)) return false;
  ParamSetting setting = settings_[matches[0]];
  setting.value = std::move(checked);
  source.level = ParamSource::Level::kRule;
  source.rule = rule_id;
  setting.source = std::move(source);
  rule_settings_[{static_cast<size_t>(rule - rules.begin()), matches[0]}] = std::move(setting);
  SettingsChanged();
  return true;
}

std::vector<ParamSetting> Engine::RuleParamSettings() const {
  std::vector<ParamSetting> out;
  for (const auto& [at, setting] : rule_settings_) out.push_back(setting);  // rules sort by id
  return out;
}

std::vector<ParamSetting> Engine::SettingsRead(size_t rule) const {
  std::vector<ParamSetting> out;
  if (!program_ || rule >= program_->rules.size()) return out;
  for (uint32_t p : program_->rules[rule].params) {
    auto own = rule_settings_.find({rule, p});
    out.push_back(own == rule_settings_.end() ? settings_[p] : own->second);
  }
  return out;
}

// Each change rebuilds what rules read from the settings: few params and
// fewer per-rule values, and a change happens only before any lint.
void Engine::SettingsChanged() {
  std::vector<Value> values;
  for (const ParamSetting& s : settings_) values.push_back(s.value);
  values_ = eval::ParamValues(values);
  size_t rule = SIZE_MAX;
  std::vector<Value> own;
  for (const auto& [at, setting] : rule_settings_) {
    if (at.first != rule && rule != SIZE_MAX) values_.SetRule(rule, std::exchange(own, {}));
    if (at.first != rule) own = values;
    rule = at.first;
    own[at.second] = setting.value;
  }
  if (rule != SIZE_MAX) values_.SetRule(rule, std::move(own));
  param_uses_.clear();
  for (size_t r = 0; r < program_->rules.size(); ++r) {
    if (auto uses = ParamUses(r, nullptr)) param_uses_[program_->rules[r].id] = std::move(uses);
  }
  ComputeDigest();
}

std::shared_ptr<const std::vector<eval::ParamUse>> Engine::ParamUses(
    size_t rule, const SourceManager* shown) const {
  std::vector<eval::ParamUse> uses;
  for (ParamSetting& s : SettingsRead(rule))
    uses.push_back({s.name, s.qualified, std::move(s.value), s.source.Text(shown)});
  if (uses.empty()) return nullptr;
  return std::make_shared<const std::vector<eval::ParamUse>>(std::move(uses));
}

void Engine::NameParams(eval::LintReport* report, const SourceManager* shown) const {
  // With `shown`, each rule's params are named again, once per rule.
  std::map<std::string_view, std::shared_ptr<const std::vector<eval::ParamUse>>> renamed;
  for (eval::Violation& v : report->violations) {
    auto it = param_uses_.find(v.rule_id);
    v.params = it == param_uses_.end() ? nullptr : it->second;
    if (shown == nullptr || v.params == nullptr) continue;
    auto [named, added] = renamed.try_emplace(it->first);
    if (added) {
      const auto& rules = program_->rules;
      auto rule = std::find_if(rules.begin(), rules.end(),
                               [&](const check::RuleInfo& r) { return r.id == v.rule_id; });
      named->second = ParamUses(static_cast<size_t>(rule - rules.begin()), shown);
    }
    v.params = named->second;
  }
}

}  // namespace capops
