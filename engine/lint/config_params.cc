// SPDX-License-Identifier: Apache-2.0
// Applies a config's `params` and `rules.params` to a compiled engine,
// telling a param from a package (config_params.h).
#include "engine/lint/config_params.h"

#include <algorithm>
#include <set>

namespace capops::lint {

namespace {

// The params' packages, and whether `name` is a param's (bare or qualified) name.
struct ParamNames {
  explicit ParamNames(const Engine& engine) {
    for (const ParamSetting& s : engine.param_settings()) {
      names.insert(s.name);
      names.insert(s.qualified);
      if (s.qualified.size() > s.name.size())
        packages.insert(s.qualified.substr(0, s.qualified.size() - s.name.size() - 1));
    }
  }
  std::set<std::string> names;
  std::set<std::string> packages;
};

ParamSource SetAt(const Config& config, const Value& value) {
  return ParamSource{ParamSource::Level::kPackage, config.path, value.loc().line, ""};
}

// `package: {name: value, …}`: each of the package's params by name.
bool SetPackage(const Config& config, const ParamNames& known, const std::string& package,
                const Value& values, Engine* engine, Diagnostics* problems) {
  if (known.packages.count(package) == 0) {
    Diagnostic& d = problems->Error(values.loc(), "unknown package `" + package + "`");
    d.code = "config";
    std::string guess = ClosestName(
        package, std::vector<std::string>(known.packages.begin(), known.packages.end()));
    d.help = guess.empty() ? "a key of `params` is a param (`package.name: value`) or a package "
                             "(`package: {name: value}`)"
                           : "did you mean `" + guess + "`?";
    return false;
  }
  bool ok = true;
  for (const auto& [name, value] : values.entries()) {
    ok = engine->SetParam(package + "." + name, value, problems, SetAt(config, value)) && ok;
  }
  return ok;
}

}  // namespace

bool ApplyConfigParams(const Config& config, Engine* engine, Diagnostics* problems) {
  if (engine->program() == nullptr) return false;
  ParamNames known(*engine);
  bool ok = true;
  for (const ParamOverride& p : config.params) {
    // A map under a name no param has is a package's params; a map under a
    // param's name is that param's value (a `map` or record param).
    if (p.value.is(ValueKind::kMap) && known.names.count(p.name.text) == 0) {
      ok = SetPackage(config, known, p.name.text, p.value, engine, problems) && ok;
    } else {
      ok = engine->SetParam(p.name.text, p.value, problems, SetAt(config, p.value)) && ok;
    }
  }
  for (const RuleParamOverride& p : config.rule_params) {
    ParamSource source = SetAt(config, p.value);
    ok = engine->SetRuleParam(p.rule.text, p.name.text, p.value, problems, std::move(source)) && ok;
  }
  return ok;
}

}  // namespace capops::lint
