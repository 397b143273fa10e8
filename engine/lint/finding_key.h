// SPDX-License-Identifier: Apache-2.0
// FindingKey: what a finding is about, independent of where its lines are.
//
// Waivers select findings by it and the baseline records it. A key is the
// rule id, the file the finding points into (relative to a base directory,
// `/`-separated), the fact path of the value it points at
// (`allocations[a-explore].pool`: list items by their `id`, else by index;
// documents after the first of a file as `docs[1].`), and the rule's located
// bindings (`a=a-explore d=explore`: `for`/`let` variables whose value came
// from the facts), then which deny/warn statement fired and what its message
// names (digests, below). None of it contains a line or column, so a key
// survives edits that move lines or change unrelated facts.
//
// The statement is named by a digest of its kind, `when` and `at` in
// canonical form rather than by its position: adding, removing or
// reordering other statements of the rule leaves it alone; editing its own
// condition makes its findings new. The content is a digest of the
// message's string and list holes (`decision record misses {missing.join}`):
// a finding that names more at the same fact is new, while a number in the
// message (a measured value, a param) may change without making it so, and
// the rendered text (with whatever locations it quotes) is not used at all.
//
//   FindingKeys keys(engine.sources(), facts_options, "/repo");
//   FindingKey k = keys.Of(violation);
//   k.Fingerprint();   // "CAP-ALC-001 plan.yaml allocations[a-explore].pool a=a-explore #1a2b…
//   ~3c4d…"
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/common/source.h"
#include "engine/eval/result.h"
#include "engine/facts/loader.h"

namespace capops::lint {

struct FindingKey {
  std::string rule;
  std::string file;       // relative to the base directory
  std::string at;         // fact path; "" for a document itself
  std::string facts;      // "name=value" of the located bindings, space-separated
  std::string statement;  // StatementDigest of the statement that fired; "" for rule errors
  std::string content;    // ContentDigest of the message's subject; "" when it names nothing

  /// The finding's identity on one line: rule, file, fact path, bindings,
  /// `#statement`, `~content`, separated by spaces. Baselines and the rule
  /// set diff compare findings by it (and SARIF fingerprints should).
  std::string Fingerprint() const;
  /// The identity of baselines written before statements and content were
  /// part of it: rule, file, fact path and bindings only.
  std::string LegacyFingerprint() const;
  friend bool operator==(const FindingKey&, const FindingKey&) = default;
};

/// 16 hex digits of SHA-256 over a Violation's `statement`; "" for an empty one.
std::string StatementDigest(std::string_view statement);
/// 16 hex digits of SHA-256 over a Violation's `subject`; "" for an empty one.
std::string ContentDigest(std::string_view subject);

/// `path` relative to `base_dir`, `/`-separated (relative paths are made
/// absolute against `working_dir`, itself absolute, first).
std::string RelativePath(std::string_view path, const std::filesystem::path& base_dir,
                         const std::filesystem::path& working_dir);

/// Computes keys; caches each fact file's paths. The SourceManager must
/// outlive it and hold the files of the violations. A fact file whose text
/// was released is read back from disk; if it changed since it was linted,
/// its findings get no fact path (and warnings() says why). A finding at a
/// value merged in by `<<` (Violation::via) has the path of its copy.
class FindingKeys {
 public:
  /// Files are keyed relative to `base_dir`; relative paths are against
  /// `working_dir` (absolute).
  FindingKeys(const SourceManager& sources, facts::LoadOptions options,
              std::filesystem::path base_dir, std::filesystem::path working_dir);

  FindingKey Of(const eval::Violation& v);
  /// The fact path of the value at `loc`, or "" if no value starts there.
  std::string FactPath(const SourceLoc& loc);
  /// The fact path of the copy of the value at `loc` that the `<<` at `via`
  /// merged in, or "" if it merged none there.
  std::string CopyPath(const SourceLoc& loc, const SourceLoc& via);
  const std::filesystem::path& working_dir() const { return working_dir_; }
  /// What the host should say: fact files that changed while they were linted.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  using LocKey = std::pair<uint32_t, uint32_t>;  // line, column
  struct FileIndex {
    std::vector<facts::Document> documents;                        // as loaded again
    std::map<LocKey, std::pair<std::string, const Value*>> paths;  // the first value at each place
    std::vector<facts::MergeSite> merges;                          // each `<<` of a mapping
    std::vector<facts::MergedValue> merged;  // the values they merged, where they are written
  };
  const FileIndex& IndexOf(FileId file);

  const SourceManager& sources_;
  facts::LoadOptions options_;
  std::filesystem::path base_dir_;
  std::filesystem::path working_dir_;
  std::vector<std::string> warnings_;
  std::unordered_map<FileId, FileIndex> index_;
};

}  // namespace capops::lint
