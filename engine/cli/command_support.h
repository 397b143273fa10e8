// SPDX-License-Identifier: Apache-2.0
// What the commands share: how a failure is said, and compiling policies
// or preparing facts with their problems printed.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/workspace/session.h"

namespace capops::cli {

/// Prints `capops-lint: error: <reason>` (reason made Visible, escape.h) and
/// returns the usage exit code (2).
int Fail(std::ostream& err, const std::string& reason);

/// Prints why a lint session could not lint (its problems, then its
/// reason as a Fail line) and returns the usage exit code (2).
int FailWith(const lint::Report& report, bool color, std::ostream& err);

/// Reads the shipped stdlib and `policies` (the shipped pack when empty)
/// from the disk and compiles them: the one load-and-compile of the
/// commands. False after printing why (the command exits kExitUsage).
bool LoadPack(const std::vector<std::string>& policies, bool color, Engine* engine,
              std::ostream& err);

/// Loads and compiles the policies, then reads, validates and merges the
/// facts of `plans` (the first plan) and their inventories, read from
/// `files`, into `*facts` (left empty when no file is given). Returns -1
/// when all went well, else prints why to `err` and returns the exit code
/// to end with.
int PrepareEngine(const workspace::FileSystem& files, const std::vector<std::string>& policies,
                  const std::vector<std::string>& plans,
                  const std::vector<std::string>& inventories, bool color, Engine* engine,
                  eval::Facts* facts, std::ostream& err);

}  // namespace capops::cli
