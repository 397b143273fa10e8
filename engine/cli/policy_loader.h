// Loading policy packs and fact files for the commands that need them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/api/engine.h"

namespace capops::cli {

/// Prints `capops-lint: error: <reason>` (reason made Visible, escape.h) and
/// returns the usage exit code (2).
int Fail(std::ostream& err, const std::string& reason);

/// Adds the shipped stdlib, then the `*.cpl` files under `paths` (files or
/// directories) or, when `paths` is empty, the shipped default pack.
bool LoadPolicies(const std::vector<std::string>& paths, Engine* engine, std::string* error);

/// Compiles the engine's policies; on errors prints them and a summary line
/// to `err` and returns false.
bool CompileOrReport(Engine* engine, bool color, std::ostream& err);

/// Reads fact files (each at most `limit` bytes is read; the loader reports
/// a larger one), each with its stamp, so the engine may release the text
/// of a large one. False with `*error` when a file cannot be read.
bool ReadAll(const std::vector<std::string>& paths, size_t limit, std::vector<TextFile>* out, std::string* error);

/// `paths` with each file kept once, however it is spelt (same_file.h);
/// a warning names each repeat (`what`: "inventory", "plan").
std::vector<std::string> FilesOnce(const std::vector<std::string>& paths, const char* what);

/// The inventories to use: `given` (each file once), or else each plan's
/// sibling `inventory.yaml`.
std::vector<std::string> DefaultInventories(const std::vector<std::string>& plan_paths,
                                            const std::vector<std::string>& given);

/// Loads and compiles the policies, then reads, validates and merges the
/// facts of `plans` (the first plan) and their inventories into `*facts`
/// (left empty when no file is given). Returns -1 when all went well, else
/// prints why to `err` and returns the exit code to end with.
int PrepareEngine(const std::vector<std::string>& policies, const std::vector<std::string>& plans,
                  const std::vector<std::string>& inventories, bool color, Engine* engine, eval::Facts* facts,
                  std::ostream& err);

}  // namespace capops::cli
