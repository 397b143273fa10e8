// SPDX-License-Identifier: Apache-2.0
// The repository's capops configuration: `.capops.yaml` — what it says
// (Config). Finding and reading it is the workspace's (workspace/config_file.h).
//
// Found by walking up from the working directory (FindConfig) or named with
// `--config FILE`. Paths in it are relative to the file's directory and come
// back resolved against it; a path that leads outside the repository that
// holds the file (the nearest directory above it with a `.git`; outside a
// repository, the file's own directory) — by `..`, an absolute path or a
// symbolic link — is a located error, so a checked-in config cannot make a
// run read files elsewhere on the machine. Every key is checked: an unknown key, a value of
// the wrong type or an impossible value is a located Diagnostic, and the
// command exits 2 rather than run with a configuration it misread.
//
//   # .capops.yaml
//   policies: [policies/capops-ai]        # default: the shipped pack
//   inventories: []                       # default: inventory.yaml beside each plan
//   plans: ["examples/**/plan.yaml"]      # files, directories or globs
//   rules:
//     disable: [CAP-ALC-007, "tag:experimental"]   # ids, id globs, tag:NAME
//     enable: []                          # if given, only these rules run
//     severity: {CAP-ALC-008: error}      # error, warning or info
//     params:                             # `param` values for one rule alone
//       CAP-RDY-003: {max_memory_pressure: 0.95}
//   params:                               # `param` values, by qualified name
//     capops.ai.allocation.research_slices: [exploration, training, tuning]
//     capops.ai.readiness:                # or by package
//       max_memory_pressure: 0.9
//   fail-on: error                        # error, warning, info or never
//   waivers: .capops-waivers.yaml
//   baseline: .capops-baseline.yaml
//   cache: .capops-cache                  # reuse findings of unchanged plans (--cache)
//
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/common/diagnostic.h"
#include "engine/common/source.h"
#include "engine/common/value.h"
#include "engine/facts/loader.h"
#include "engine/lint/fail_on.h"
#include "engine/lint/map_reader.h"

namespace capops::lint {

inline constexpr const char* kConfigFileName = ".capops.yaml";

/// `rules.severity`: a rule's severity replaced.
struct SeverityOverride {
  LocatedString rule;
  Severity severity = Severity::kError;
};

/// `params`: a `param`'s value replaced; `value` keeps its location. `name`
/// is a param's qualified (or bare) name, or a package's whose `value` is
/// a map of its params' names to values: which one is known only once the
/// policies are compiled (ApplyConfigParams, config_params.h).
struct ParamOverride {
  LocatedString name;
  Value value;
};

/// `rules.params`: a `param`'s value for one rule alone.
struct RuleParamOverride {
  LocatedString rule;
  LocatedString name;  // the param's bare or qualified name
  Value value;
};

struct Config {
  std::string path;                      // the file read
  std::vector<std::string> policies;     // resolved against the file's directory
  std::vector<std::string> inventories;  // resolved
  std::vector<std::string> plans;        // resolved; may hold globs and directories
  std::vector<LocatedString> enable;     // rule ids, id globs (`CAP-ALC-*`) or `tag:NAME`
  std::vector<LocatedString> disable;
  std::vector<SeverityOverride> severity;
  std::vector<ParamOverride> params;
  std::vector<RuleParamOverride> rule_params;
  std::optional<FailOn> fail_on;
  std::string waivers;   // resolved; empty: none
  std::string baseline;  // resolved; empty: none
  std::string cache;     // resolved; empty: no result cache
  /// `rules-url`: where the rule catalogue (`capops-lint doc`'s
  /// index.html) is published; SARIF links each rule to `URL#RULE-ID`.
  std::string rules_url;
};

}  // namespace capops::lint
