// SPDX-License-Identifier: Apache-2.0
// A config's params applied to a compiled engine — the one way capops-lint
// and the language server apply them:
//
//   params:
//     capops.ai.readiness.max_memory_pressure: 0.95   # a param, by qualified name
//     capops.ai.allocation:                           # a package's params
//       exploration_cap: 0.2
//   rules:
//     params:
//       CAP-RDY-003: {max_memory_pressure: 0.97}      # for that rule alone
//
// Each value is checked against its param's type (units included) and
// remembered with the config file and line that set it, which findings
// then name (ParamSource). A key that is not a param is a package when its
// value is a map; a rule's value must be for a param the rule reads.
//
//   Diagnostics problems;
//   if (!ApplyConfigParams(config, &engine, &problems)) … exit 2
#pragma once

#include "engine/api/engine.h"
#include "engine/lint/config.h"

namespace capops::lint {

/// Sets `config`'s params on `engine` (compiled): package-wide values
/// first, then per-rule ones. Every problem is a located error in
/// `*problems` (in the config file); false when there is one. The values
/// given before a problem stay set.
bool ApplyConfigParams(const Config& config, Engine* engine, Diagnostics* problems);

}  // namespace capops::lint
