// SPDX-License-Identifier: Apache-2.0
// Where the shipped stdlib and default policy pack live, and reading a file
// from the disk (DiskFileSystem reads through ReadFile).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/source.h"

namespace capops::workspace {

/// The directory holding `stdlib/` and `policies/`: $CAPOPS_DATA_DIR, then
/// `<exe>/../share/capops` (an install), then the source tree the binary was
/// built from, then the configured install prefix. nullopt, with `*error`
/// saying why, when none exists, or when $CAPOPS_DATA_DIR is set and is not
/// one: a directory asked for by name is never silently replaced.
std::optional<std::filesystem::path> FindDataDir(std::string* error);

/// What kind of file a `st_mode` names, as a user reads it: "a directory",
/// "a FIFO (named pipe)", "a character device" …
const char* FileTypeName(mode_t mode);

/// Opens a regular file for reading; anything else (a directory, a FIFO, a
/// device, a socket) is refused without blocking, with `*error` saying what
/// it is. Returns the descriptor, or -1 with `*error` set.
int OpenRegularFile(const std::filesystem::path& path, std::string* error);

/// Reads a regular file (OpenRegularFile), at most `limit` + 1 bytes of it (so an oversized file is
/// seen as such without reading it all). False with `*error` set (a one-line
/// reason) when it cannot be read. With `stamp`, sets it to the stamp of the
/// file as read when the whole of a regular file was read, else nullopt.
bool ReadFile(const std::filesystem::path& path, std::string* text, std::string* error,
              size_t limit = SIZE_MAX - 1, std::optional<FileStamp>* stamp = nullptr);

}  // namespace capops::workspace
