// Finding and reading policy packs and fact files: the shipped stdlib and
// pack, `*.cpl` files under directories, fact files with their stamps.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/engine.h"

namespace capops::lint {

/// A path as the commands show it: relative to the working directory when
/// it is below it, else as given, normalised.
std::string DisplayPath(const std::filesystem::path& path);

/// What LoadPolicies reads: the shipped stdlib, then `paths` (files or
/// directories) or, when `paths` is empty, the shipped default pack.
std::optional<std::vector<std::filesystem::path>> PolicyRoots(const std::vector<std::string>& paths,
                                                              std::string* error);

/// Adds the shipped stdlib, then the `*.cpl` files under `paths` (files or
/// directories) or, when `paths` is empty, the shipped default pack.
bool LoadPolicies(const std::vector<std::string>& paths, Engine* engine, std::string* error);

/// Reads fact files (each at most `limit` bytes is read; the loader reports
/// a larger one), each with its stamp, so the engine may release the text
/// of a large one. False with `*error` when a file cannot be read.
bool ReadAll(const std::vector<std::string>& paths, size_t limit, std::vector<TextFile>* out,
             std::string* error);

/// `paths` with each file kept once, however it is spelt (same_file.h);
/// a warning names each repeat (`what`: "inventory", "plan").
std::vector<std::string> FilesOnce(const std::vector<std::string>& paths, const char* what);

/// The inventories to use: `given` (each file once), or else each plan's
/// sibling `inventory.yaml`.
std::vector<std::string> DefaultInventories(const std::vector<std::string>& plan_paths,
                                            const std::vector<std::string>& given);

}  // namespace capops::lint
