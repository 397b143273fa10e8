// SPDX-License-Identifier: Apache-2.0
// Finding and reading `.capops.yaml` (lint/config.h says what it holds)
// through the workspace's file system.
//
//   workspace::DiskFileSystem disk;
//   SourceManager sm;
//   ConfigResult r = LoadConfig(disk, &sm, *FindConfig(disk, "."), {});
//   if (r.diagnostics.HasErrors()) … exit 2
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "engine/common/diagnostic.h"
#include "engine/common/source.h"
#include "engine/facts/loader.h"
#include "engine/lint/config.h"
#include "engine/workspace/file_system.h"

namespace capops::workspace {

using lint::Config;
using lint::kConfigFileName;

/// `path` relative to `dir` when it is `dir` or below it, else empty; both
/// absolute and normalised (a lexical question: links are not followed).
std::filesystem::path PathBelow(const std::filesystem::path& dir,
                                const std::filesystem::path& path);

/// The repository `start` is in: the nearest directory at or above it
/// holding a `.git`, absolute and normalised; nullopt outside any.
std::optional<std::filesystem::path> RepositoryRoot(const FileSystem& files,
                                                    const std::filesystem::path& start);

/// Whether `url` can be published as a catalogue address: an absolute
/// `https://` or `http://` URL with a host, no whitespace, no control
/// character and no fragment (the rule id is added as one). False with a
/// reason in `*why`.
bool ValidRulesUrl(const std::string& url, std::string* why);

struct ConfigResult {
  Config config;
  Diagnostics diagnostics;  // located in the config file; errors mean exit 2
};

/// The nearest `.capops.yaml` in `start` or a directory above it, as a path
/// relative to `start` when `start` is the working directory's form (e.g.
/// `../.capops.yaml`); nullopt when there is none up to the file-system root.
/// Whatever is there by that name counts (a FIFO or a directory is then
/// refused by LoadConfig with its reason).
std::optional<std::filesystem::path> FindConfig(const FileSystem& files,
                                                const std::filesystem::path& start);

/// Reads and checks a config file. The file's text goes into `sources`, so
/// diagnostics can be printed with its lines. A file that cannot be read is
/// a diagnostic at its first line.
ConfigResult LoadConfig(const FileSystem& files, SourceManager* sources,
                        const std::filesystem::path& path, const facts::LoadOptions& options);

/// Parses config text already in `sources` (for tests).
ConfigResult ParseConfig(const FileSystem& files, const SourceManager& sources, FileId file,
                         const facts::LoadOptions& options);

}  // namespace capops::workspace
