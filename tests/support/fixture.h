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

/// Compiles one policy text (with the shipped stdlib's enums).
std::unique_ptr<Compiled> CompilePolicy(const std::string& cpl);

/// Lints a plan text against an inventory text; the policy must compile.
eval::LintReport LintText(Compiled& compiled, const std::string& plan, const std::string& inventory);

/// "line:col: message" for each diagnostic (file names left out).
std::vector<std::string> Lines(const Diagnostics& diagnostics);

/// Violation messages, in report order.
std::vector<std::string> Messages(const eval::LintReport& report);

/// The text of a shipped file, relative to the source tree.
std::string ReadSourceFile(const std::string& relative_path);

}  // namespace capops::testing
