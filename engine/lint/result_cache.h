// SPDX-License-Identifier: Apache-2.0
// Result cache entries: findings of earlier runs, reused when nothing they
// depend on has changed (`capops-lint --cache[=DIR]`).
//
// An entry is a file `DIR/<key>` named by a SHA-256 key over everything the
// findings depend on (CacheKeys: the cache format, the capops version, the
// ruleset digest with its param values, the policy files as read, the
// options that change findings, the plan file's path and text, its
// inventories' paths and texts). No timestamps: an entry is never stale, the
// directory is safe to delete at any time, and stale entries are merely
// unused. An entry that cannot be read, does not parse, has another format
// or key, or fails its checksum is a miss, never trusted, and is overwritten.
//
// Entries hold findings with locations by path (CacheEntry, EncodeEntry);
// DecodeEntry maps the paths back to FileIds of the engine's SourceManager,
// so reports quote source lines as after a fresh lint. Which findings go
// into which entry is LintGroups's business (group_lint.h); where entries
// are kept, a FindingStore's (the directory: workspace/result_cache_dir.h).
//
//   if (std::optional<std::string> body = store->Lookup(key)) …DecodeEntry(*body, resolve, &entry)
//   store->Store(key, EncodeEntry(entry, engine.sources()));
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/engine.h"
#include "engine/eval/result.h"

namespace capops::lint {

/// The directory `--cache` uses when given no value.
inline constexpr const char* kDefaultCacheDir = ".capops-cache";

/// Findings of one plan file or of a group of them, with the number of plan
/// documents they come from.
struct Findings {
  std::vector<eval::Violation> violations;
  Diagnostics errors;
  size_t plans = 0;
};

/// What an entry holds: `main`, and for a plan file linted on its own the
/// findings that lie outside it (`solo`, with the plan count), so that the
/// plan's whole contribution to a report is known.
struct CacheEntry {
  Findings main;
  std::optional<Findings> solo;
};

/// The FileId of a file by path when an entry is read back; nullopt when
/// the path is not one the run knows (then the entry is a miss).
using FileResolver = std::function<std::optional<FileId>(std::string_view path)>;

/// An entry as JSON text; every location is written as (path, line, column).
std::string EncodeEntry(const CacheEntry& entry, const SourceManager& sources);
/// Reads an entry back. False when the text is not a well-formed entry or a
/// path does not resolve; `*entry` is then unspecified.
bool DecodeEntry(std::string_view text, const FileResolver& resolve, CacheEntry* entry);

/// Keys of a run's entries. The context (format, version, rule set, policy
/// texts, options) is hashed once; a plan's key adds its inventories and
/// its own path and text.
class CacheKeys {
 public:
  /// `engine` is compiled, its params set and options final; every source it
  /// holds now (the policies) counts.
  CacheKeys(const Engine& engine, const LintOptions& lint);
  /// A digest of a group's inventory files, for PlanKey.
  std::string InventoryDigest(const std::vector<TextFile>& inventories) const;
  std::string PlanKey(const std::string& inventory_digest, const TextFile& plan) const;
  /// The key of a group of plans linted together, from their plan keys in order.
  std::string GroupKey(const std::vector<std::string>& plan_keys) const;

 private:
  std::string context_;
};

/// The file text of an entry: a header line with the format, the key and
/// the SHA-256 of `body`, then `body`.
std::string SealEntry(const std::string& key, std::string_view body);
/// The body of a sealed entry; nullopt when `text` is not `key`'s entry of
/// this format with an intact checksum.
std::optional<std::string_view> UnsealEntry(const std::string& key, std::string_view text);

/// Where a run's entries are kept (the cache directory, workspace/): looked
/// up and stored by key. Lint (group_lint.h) decides what goes in an entry.
class FindingStore {
 public:
  virtual ~FindingStore() = default;
  /// The body stored under `key`, or nullopt; counts a hit or a miss.
  virtual std::optional<std::string> Lookup(const std::string& key) = 0;
  /// Counts a hit found by Lookup as a miss after all (its body did not decode).
  virtual void Reject() = 0;
  virtual void Store(const std::string& key, std::string_view body) = 0;
};

}  // namespace capops::lint
