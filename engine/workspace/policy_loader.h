// SPDX-License-Identifier: Apache-2.0
// Finding and reading policy packs and fact files through a FileSystem: the
// shipped stdlib and pack, `*.cpl` files under directories, fact files with
// their stamps.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/workspace/file_system.h"

namespace capops::workspace {

/// A path as the commands show it: relative to the working directory when
/// it is below it, else as given, normalised.
std::string DisplayPath(const FileSystem& files, const std::filesystem::path& path);
/// The same on the disk.
std::string DisplayPath(const std::filesystem::path& path);

/// What LoadPolicies reads: the shipped stdlib, then `paths` (files or
/// directories) or, when `paths` is empty, the shipped default pack.
std::optional<std::vector<std::filesystem::path>> PolicyRoots(const std::vector<std::string>& paths,
                                                              std::string* error);

/// The `*.cpl` files under a directory (sorted, hidden directories
/// skipped), or the file itself. False with `*error` set when the path is
/// neither.
bool CollectPolicyFiles(const FileSystem& files, const std::filesystem::path& path,
                        std::vector<std::filesystem::path>* out, std::string* error);

/// Adds the shipped stdlib, then the `*.cpl` files under `paths` (files or
/// directories) or, when `paths` is empty, the shipped default pack; each
/// file once, however it is reached.
bool LoadPolicies(const FileSystem& files, const std::vector<std::string>& paths, Engine* engine,
                  std::string* error);
/// The same from the disk.
bool LoadPolicies(const std::vector<std::string>& paths, Engine* engine, std::string* error);

/// Reads fact files (each at most `limit` bytes is read; the loader reports
/// a larger one), each with its stamp, so the engine may release the text
/// of a large one. False with `*error` when a file cannot be read.
bool ReadAll(const FileSystem& files, const std::vector<std::string>& paths, size_t limit,
             std::vector<TextFile>* out, std::string* error);

/// `paths` with each file kept once, however it is spelt (same_file.h);
/// a warning names each repeat (`what`: "inventory", "plan").
std::vector<std::string> FilesOnce(const FileSystem& files, const std::vector<std::string>& paths,
                                   const char* what);

}  // namespace capops::workspace
