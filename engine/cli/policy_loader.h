// Loading and compiling policy packs for the commands that need them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/api/engine.h"

namespace capops::cli {

/// Prints `capops-lint: error: <reason>` and returns the usage exit code (2).
int Fail(std::ostream& err, const std::string& reason);

/// Adds the shipped stdlib, then the `*.cpl` files under `paths` (files or
/// directories) or, when `paths` is empty, the shipped default pack.
bool LoadPolicies(const std::vector<std::string>& paths, Engine* engine, std::string* error);

/// Compiles the engine's policies; on errors prints them and a summary line
/// to `err` and returns false.
bool CompileOrReport(Engine* engine, bool color, std::ostream& err);

}  // namespace capops::cli
