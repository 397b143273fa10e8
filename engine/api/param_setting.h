// SPDX-License-Identifier: Apache-2.0
// A param's value and where it was set: the pack's default (the `param`
// declaration), or a value a config file gives for a whole package or for
// one rule. Findings name the params they rest on with this provenance
// (eval::ParamUse), so a threshold is never an unexplained number.
//
//   for (const ParamSetting& s : engine.param_settings())
//     std::cout << s.qualified << " = " << s.value.ToLiteral() << " (" << s.source.Text() << ")\n";
#pragma once

#include <cstdint>
#include <string>

#include "engine/common/source.h"
#include "engine/common/value.h"

namespace capops {

/// Where a param value was set.
struct ParamSource {
  enum class Level : uint8_t {
    kDefault,  // the `param` declaration's default
    kPackage,  // set for every rule that reads it
    kRule,     // set for one rule (`rule`)
  };
  Level level = Level::kPackage;
  /// The policy file declaring the param (kDefault), or the file that set
  /// the value, as its path was given; "" when a program set it.
  std::string file;
  uint32_t line = 0;  // 1-based; 0: unknown
  std::string rule;   // kRule: the rule id the value is for
  /// kDefault: the policy file declaring the param, in the engine's sources.
  FileId policy = kNoFile;

  /// "pack default, policies/readiness.cpl:120", ".capops.yaml:7",
  /// ".capops.yaml:9, for CAP-RDY-003". With `shown` (the engine's sources
  /// or an extension of them), the policy file is named by its ShownPath.
  std::string Text(const SourceManager* shown = nullptr) const;
};

/// One param's value, at one level.
struct ParamSetting {
  size_t param = 0;       // its index in check::Program::params
  std::string name;       // as declared
  std::string qualified;  // `package.name` (the bare name outside a package)
  std::string type;       // as a user writes it: `set<Slice>`
  Value value;
  ParamSource source;
};

}  // namespace capops
