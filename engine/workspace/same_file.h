// SPDX-License-Identifier: Apache-2.0
// SameFile: whether two paths name one file, by its identity on disk (device
// and inode), not by spelling: `inv.yaml`, `./inv.yaml`, `dir/../inv.yaml`
// and a symlink to it are one file, given twice.
//
//   std::vector<std::string> dropped;
//   std::vector<std::string> kept = DedupByIdentity(options.inventories, &dropped);
//   for (const std::string& p : dropped) spdlog::warn("`{}` is given twice", p);
#pragma once

#include <string>
#include <vector>

#include "engine/workspace/file_system.h"

namespace capops::workspace {

/// True when both paths exist and resolve (through symlinks) to the same
/// file (FileSystem::Identity: on disk, equal st_dev and st_ino). A path that cannot be stat'ed is
/// the same as no other, so its own error is reported where it is read.
bool SameFile(const FileSystem& files, const std::string& a, const std::string& b);

/// `paths` without the later mentions of a file given before under any
/// spelling; order kept. Each path left out is appended to `*dropped`
/// (if not null) as it was written. Paths that cannot be stat'ed are all
/// kept.
std::vector<std::string> DedupByIdentity(const FileSystem& files,
                                         const std::vector<std::string>& paths,
                                         std::vector<std::string>* dropped);

/// True when every file of `wanted` is one of `have`, by identity; a path
/// of `wanted` that cannot be stat'ed is not among them. One stat per path.
bool CoversAll(const FileSystem& files, const std::vector<std::string>& have,
               const std::vector<std::string>& wanted);

/// True, with `*error` saying which, when `output` is the same file as one
/// of `inputs`: writing it would destroy an input (`-o plan.yaml`).
bool IsSameFileAsAny(const FileSystem& files, const std::string& output,
                     const std::vector<std::string>& inputs, std::string* error);

}  // namespace capops::workspace
