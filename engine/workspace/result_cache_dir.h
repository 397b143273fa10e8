// SPDX-License-Identifier: Apache-2.0
// ResultCache: the directory `capops-lint --cache[=DIR]` keeps result cache
// entries in (lint/result_cache.h says what an entry holds and how it is
// keyed; lint/group_lint.h which findings go into which entry).
//
//   std::string warning;
//   std::unique_ptr<ResultCache> cache = ResultCache::Open(files, ".capops-cache", &warning);
//   if (!cache) spdlog::warn("{}", warning);            // the run goes on uncached
//   input.cache = cache.get();                          // lint::RunInput
//
// An entry is a file `DIR/<key>`. Not thread-safe. Several processes may
// share a directory: entries are written to a temporary file and renamed
// into place. The directory is trusted like a build directory: the checksum
// catches damage, not forgery.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/lint/result_cache.h"
#include "engine/workspace/file_system.h"

namespace capops::workspace {

using lint::kDefaultCacheDir;

class ResultCache final : public lint::FindingStore {
 public:
  /// Opens `dir`, creating it with a CACHEDIR.TAG file. Null, with
  /// `*warning` set, when it cannot be created, or when it exists, is not
  /// empty and has no CACHEDIR.TAG (so `--cache=plans/` never litters a
  /// directory of plans). Entries are read and written through `files`,
  /// which must outlive the cache.
  static std::unique_ptr<ResultCache> Open(FileSystem* files, const std::string& dir,
                                           std::string* warning);

  std::optional<std::string> Lookup(const std::string& key) override;
  void Reject() override;
  /// Writes the entry atomically. On the first failure logs a warning and
  /// stores nothing more this run.
  void Store(const std::string& key, std::string_view body) override;

  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }
  size_t stored() const { return stored_; }
  const std::string& dir() const { return dir_; }

 private:
  ResultCache(FileSystem* files, std::string dir) : files_(files), dir_(std::move(dir)) {}
  std::string Entry(const std::string& key) const { return dir_ + "/" + key; }

  FileSystem* files_;
  std::string dir_;
  bool writable_ = true;
  size_t hits_ = 0;
  size_t misses_ = 0;
  size_t stored_ = 0;
};

}  // namespace capops::workspace
