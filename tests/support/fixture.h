// SPDX-License-Identifier: Apache-2.0
// Test helpers: compile CPL text and evaluate it over YAML text, in memory.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/api/engine.h"

namespace capops::testing {

/// A compiled rule set plus what it needs to stay alive.
struct Compiled {
  Engine engine;
  Diagnostics diagnostics;
  bool ok = false;
};

/// Adds the shipped stdlib (vocabulary, schema, functions) to an engine.
void AddStdlib(Engine* engine);

/// Adds every `*.cpl` file of a source-tree directory, in name order.
void AddPolicyDir(const std::string& relative_dir, Engine* engine);

/// Compiles one policy text with the shipped stdlib. Without the schema
/// (`typed` false) only the enums are loaded: `plan` and `inventory` are then
/// of type `any`, which lets evaluator tests reach run-time errors.
std::unique_ptr<Compiled> CompilePolicy(const std::string& cpl, bool typed = true);

/// Lints a plan text against an inventory text; the policy must compile.
eval::LintReport LintText(Compiled& compiled, const std::string& plan, const std::string& inventory,
                          const LintOptions& lint = {});

/// "line:col: message" for each diagnostic (file names left out).
std::vector<std::string> Lines(const Diagnostics& diagnostics);

/// Violation messages, in report order.
std::vector<std::string> Messages(const eval::LintReport& report);

/// Everything each finding says but its labels (which follow clause
/// traces): rule, place, message, evidence; then the rule errors.
std::vector<std::string> Findings(const eval::LintReport& report);

/// The text of a shipped file, relative to the source tree.
std::string ReadSourceFile(const std::string& relative_path);

}  // namespace capops::testing
