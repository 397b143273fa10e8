// SPDX-License-Identifier: Apache-2.0
// Config files: finding `.capops.yaml`, reading it through the YAML adapter
// (so every value keeps its line and column) and checking every key.
#include "engine/workspace/config_file.h"

namespace capops::workspace {

namespace fs = std::filesystem;
using lint::FailOn;
using lint::LocatedString;
using lint::MapReader;
using lint::ParseFailOn;

namespace {

Diagnostic& ConfigError(Diagnostics* diags, SourceLoc loc, std::string message) {
  Diagnostic& d = diags->Error(loc, std::move(message));
  d.code = "config";
  return d;
}

// Paths in the file are relative to its directory and stay inside the
// repository that holds it (the nearest directory above it with a `.git`),
// or, outside any repository, inside its own directory: a config checked
// into a repository must not make a run read (and quote) files elsewhere on
// the machine. Checked by text first (`..`, absolute paths), then where the
// path really leads (a symbolic link out).
fs::path ConfigRoot(const FileSystem& files, const fs::path& dir) {
  fs::path start = files.Absolute(dir.empty() ? "." : dir.string());
  return RepositoryRoot(files, start).value_or(start);
}

bool Under(const fs::path& root, const fs::path& path) {
  return !PathBelow(root, path).empty();
}

bool Inside(const FileSystem& files, const fs::path& root, const fs::path& resolved) {
  fs::path absolute = files.Absolute(resolved.string());
  if (!Under(root, absolute)) return false;
  return Under(files.RealPath(root.string()), files.RealPath(absolute.string()));
}

std::string Resolve(const FileSystem& files, const fs::path& dir, const LocatedString& path,
                    Diagnostics* diags) {
  fs::path p(path.text);
  fs::path resolved =
      (p.is_absolute() || dir.empty()) ? p.lexically_normal() : (dir / p).lexically_normal();
  fs::path root = ConfigRoot(files, dir);
  if (path.text.empty() || !Inside(files, root, resolved)) {
    ConfigError(diags, path.loc, "path `" + path.text + "` is outside `" + root.string() + "`")
        .help =
        "paths in a config file stay inside the repository that holds it (or its directory, "
        "outside a repository); name other files on the command line";
    return "";
  }
  return resolved.string();
}

std::vector<std::string> ResolveAll(const FileSystem& files, const fs::path& dir,
                                    const std::vector<LocatedString>& paths, Diagnostics* diags) {
  std::vector<std::string> out;
  for (const LocatedString& p : paths) out.push_back(Resolve(files, dir, p, diags));
  return out;
}

void ReadSeverities(const Value& map, Config* config, Diagnostics* diags) {
  for (const auto& [rule, value] : map.entries()) {
    Severity s = Severity::kError;
    if (!value.is(ValueKind::kString) || !ParseSeverity(value.string_value(), &s)) {
      ConfigError(diags, value.loc(),
                  "severity of `" + rule + "` must be `error`, `warning` or `info`, not `" +
                      value.ToString() + "`");
      continue;
    }
    config->severity.push_back({{rule, value.loc()}, s});
  }
}

// `rules: {params: {RULE: {name: value}}}`; which rules and params there
// are is known once the policies are compiled (ApplyConfigParams).
void ReadRuleParams(const Value& map, Config* config, Diagnostics* diags) {
  for (const auto& [rule, params] : map.entries()) {
    if (!params.is(ValueKind::kMap)) {
      ConfigError(diags, params.loc(),
                  "params of `" + rule + "` must be a map of param names to values, not `" +
                      params.ToString() + "`")
          .help = "e.g. `" + rule + ": {max_memory_pressure: 0.95}`";
      continue;
    }
    for (const auto& [name, value] : params.entries())
      config->rule_params.push_back({{rule, params.loc()}, {name, value.loc()}, value});
  }
}

void ReadRules(const Value& rules, Config* config, Diagnostics* diags) {
  MapReader r(rules, "`rules` section", diags);
  r.Strings("enable", &config->enable);
  r.Strings("disable", &config->disable);
  if (const Value* severity = r.Map("severity")) ReadSeverities(*severity, config, diags);
  if (const Value* params = r.Map("params")) ReadRuleParams(*params, config, diags);
  r.Finish();
}

void ReadFailOn(MapReader* r, Config* config, Diagnostics* diags) {
  LocatedString text;
  if (!r->String("fail-on", &text)) return;
  FailOn f;
  if (!ParseFailOn(text.text, &f)) {
    ConfigError(diags, text.loc, "unknown `fail-on` value `" + text.text + "`").help =
        "expected `error`, `warning`, `info` or `never`";
    return;
  }
  config->fail_on = f;
}

void ReadRoot(const FileSystem& files, const Value& root, const fs::path& dir, Config* config,
              Diagnostics* diags) {
  MapReader r(root, "config", diags);
  std::vector<LocatedString> paths;
  r.Strings("policies", &paths);
  config->policies = ResolveAll(files, dir, std::exchange(paths, {}), diags);
  r.Strings("inventories", &paths);
  config->inventories = ResolveAll(files, dir, std::exchange(paths, {}), diags);
  r.Strings("plans", &paths);
  config->plans = ResolveAll(files, dir, std::exchange(paths, {}), diags);
  if (const Value* rules = r.Map("rules")) ReadRules(*rules, config, diags);
  if (const Value* params = r.Map("params")) {
    for (const auto& [name, value] : params->entries())
      config->params.push_back({{name, value.loc()}, value});
  }
  ReadFailOn(&r, config, diags);
  LocatedString file;
  if (r.String("waivers", &file)) config->waivers = Resolve(files, dir, file, diags);
  if (r.String("baseline", &file)) config->baseline = Resolve(files, dir, file, diags);
  if (r.String("cache", &file)) config->cache = Resolve(files, dir, file, diags);
  LocatedString url;
  if (r.String("rules-url", &url)) {
    std::string why;
    if (ValidRulesUrl(url.text, &why)) {
      config->rules_url = url.text;
    } else {
      ConfigError(diags, url.loc, "`rules-url` " + why).help =
          "the address where `capops-lint doc -o DIR` is published, e.g. "
          "`https://example.org/capops/index.html`";
    }
  }
  r.Finish();
}

}  // namespace

fs::path PathBelow(const fs::path& dir, const fs::path& path) {
  fs::path rel = path.lexically_relative(dir);
  return rel.empty() || *rel.begin() == ".." ? fs::path() : rel;
}

std::optional<fs::path> RepositoryRoot(const FileSystem& files, const fs::path& start) {
  fs::path dir = files.Absolute(start.empty() ? "." : start.string());
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    if (files.Exists((p / ".git").string())) return p;
    if (!p.has_relative_path()) break;
  }
  return std::nullopt;
}

bool ValidRulesUrl(const std::string& url, std::string* why) {
  std::string_view rest = url;
  for (std::string_view scheme : {"https://", "http://"}) {
    if (rest.substr(0, scheme.size()) == scheme) rest.remove_prefix(scheme.size());
  }
  if (rest.size() == url.size()) {
    *why = "must be an absolute `https://` or `http://` URL";
    return false;
  }
  if (rest.empty() || rest.front() == '/') {
    *why = "has no host";
    return false;
  }
  for (unsigned char c : url) {
    if (c <= ' ' || c == 0x7f) {
      *why = "holds whitespace or a control character";
      return false;
    }
  }
  if (url.find('#') != std::string::npos) {
    *why = "holds a fragment (`#…`); the rule id is added as one";
    return false;
  }
  return true;
}

std::optional<fs::path> FindConfig(const FileSystem& files, const fs::path& start) {
  fs::path dir = files.Absolute(start.string());
  fs::path up;  // `start`, then `start/..`, … as the user would write them
  while (true) {
    fs::path candidate = dir / kConfigFileName;
    // Anything by that name is the config: a FIFO, a directory or a link to
    // a device is refused when read, never passed over for one further up.
    if (files.Exists(candidate.string())) {
      fs::path shown =
          start.is_absolute() ? candidate : (start / up / kConfigFileName).lexically_normal();
      return shown;
    }
    if (!dir.has_relative_path()) return std::nullopt;  // the root
    dir = dir.parent_path();
    up /= "..";
  }
}

ConfigResult ParseConfig(const FileSystem& files, const SourceManager& sources, FileId file,
                         const facts::LoadOptions& options) {
  ConfigResult result;
  result.config.path = std::string(sources.Path(file));
  facts::RawLoadResult loaded = facts::LoadRawYaml(sources, file, options);
  result.diagnostics.Append(loaded.diagnostics);
  if (loaded.documents.size() > 1) {
    ConfigError(&result.diagnostics, loaded.documents[1].loc(), "a config file holds one document");
  }
  if (!loaded.documents.empty()) {
    fs::path dir = fs::path(result.config.path).parent_path();
    ReadRoot(files, loaded.documents[0], dir, &result.config, &result.diagnostics);
  }
  result.diagnostics.Sort();
  return result;
}

ConfigResult LoadConfig(const FileSystem& files, SourceManager* sources, const fs::path& path,
                        const facts::LoadOptions& options) {
  std::string text, error;
  if (!files.Read(path.string(), options.max_file_bytes, &text, &error)) {
    ConfigResult result;
    result.config.path = path.string();
    FileId f = sources->Add(path.string(), "");
    ConfigError(&result.diagnostics, SourceLoc{f, 1, 1}, error);
    return result;
  }
  FileId f = sources->Add(path.string(), std::move(text));
  return ParseConfig(files, *sources, f, options);
}

}  // namespace capops::workspace
