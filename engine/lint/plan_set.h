// PlanSet: the plan files of one run, from files, directories and globs, and
// the inventories each of them is linted against.
//
// A file named outright is a plan file whatever it holds (so a broken one is
// still reported), except a valid file of `Inventory` documents only, which
// serves every plan of the run as if given with --inventory. A directory stands for the plan files
// among the
// `*.yaml`/`*.yml` files below it (hidden directories such as `.git` are
// skipped); a glob (`*`, `?`, `[…]`, and `**` for any number of directories)
// for those among the files it matches. Each such file is parsed as YAML,
// never sniffed as text, and is a plan file when
//   - a document has `kind: CapacityPlan`, however it is spelt in YAML;
//   - or it would be one but for a mistake the lint must report: it is not
//     valid YAML, cannot be read, is too large, or a document says
//     `apiVersion: capops.dev/v1` or has a kind within a few edits of a
//     capops kind (`CapcityPlan`).
// An `Inventory` file and capops's own files (config, waivers, baseline) are
// not plans; every other YAML file is reported as a located `info` ("not
// linted"), so that nothing under a plan directory is passed over silently.
// Everything is sorted and deduplicated, so output does not depend on the
// order of the file system.
//
// Plans sharing their inventories form a group, linted in one Engine::Lint
// call (inventories merge within a call): with `--inventory` one group, else
// one per directory whose `inventory.yaml` the plans use.
//
//   PlanSet set;
//   if (!set.Add("plans/", &error)) … exit 2
//   set.Group({});                          // no --inventory
//   SourceManager facts(&engine.sources());   // the run's fact files go here
//   LintPlanSet(engine, {}, &facts, set, limit, &report, &error);
//
// With a ResultCache (`--cache`), a plan file whose key (result_cache.h) is
// unchanged is not parsed or evaluated again: its stored findings are read
// back, and the report is byte for byte the one a fresh lint gives. A group
// is linted in one call over the plans that missed; but since findings
// located in the inventory cannot be told apart by plan within one call,
// when such findings exist any miss relints the whole group (an unchanged
// group is still read from its group entry). A group without inventory
// files, or with a plan file holding an `Inventory` document, is never cached.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/lint/result_cache.h"

namespace capops::lint {

struct PlanGroup {
  std::vector<std::string> plans;
  std::vector<std::string> inventories;
};

/// A YAML file found under a plan directory or glob and not linted, with
/// the reason as an `info` located in it (its `loc.file` is set when the
/// report is made, LintPlanSet).
struct SkippedFile {
  std::string path;
  std::string text;
  Diagnostic note;
};

class PlanSet {
 public:
  /// `limits` bound the parse of each file a directory or glob yields.
  explicit PlanSet(facts::LoadOptions limits = {}) : limits_(limits) {}

  /// Adds a file, a directory or a glob. False with `*error` set when a file
  /// does not exist or is not a regular file, or a directory or glob yields
  /// no plan file. A file named on its own that holds `Inventory`
  /// documents and no plan is an inventory, as if given with --inventory.
  bool Add(const std::string& arg, std::string* error);
  /// Splits the plans into groups; `inventories` (from --inventory or the
  /// config) and the inventory files named to Add apply to all plans, else
  /// each plan's sibling `inventory.yaml`.
  void Group(const std::vector<std::string>& inventories);

  const std::vector<std::string>& plans() const { return plans_; }
  const std::vector<PlanGroup>& groups() const { return groups_; }
  /// YAML files that directories and globs yielded but that are not plans,
  /// nor inventories, nor capops's own files; sorted by path.
  const std::vector<SkippedFile>& skipped() const { return skipped_; }

 private:
  void Consider(const std::filesystem::path& file, std::vector<std::string>* plans);
  bool IsInventoryFile(const std::string& path) const;

  facts::LoadOptions limits_;
  std::vector<std::string> plans_;              // sorted, unique
  std::vector<std::string> named_inventories_;  // inventory files named to Add
  std::vector<PlanGroup> groups_;
  std::vector<SkippedFile> skipped_;
};

/// What a YAML file found under a plan directory is (see above).
enum class FileRole { kPlan, kInventory, kCapopsFile, kOther };

/// Classifies a file's text by parsing it; for kOther, `*note` says why it
/// is not linted (its location's `file` left unset).
FileRole ClassifyFile(const std::string& path, const std::string& text,
                      const facts::LoadOptions& limits, Diagnostic* note);

/// True when `path` (`/`-separated) matches `pattern`: `*` and `?` within a
/// segment, `[…]` classes, `**` for any number of segments.
bool GlobMatch(std::string_view pattern, std::string_view path);

/// Reads each group's files and lints them with `lint`; the reports are
/// merged into one, sorted like a single run's. The fact files are added
/// to `*sources`, an extension of the engine's (Engine::Lint). False with
/// `*error` set when a file cannot be read. With `cache` (may be null),
/// findings are reused and stored there.
bool LintPlanSet(const Engine& engine, const LintOptions& lint, SourceManager* sources,
                 const PlanSet& set, size_t max_file_bytes, eval::LintReport* report,
                 std::string* error, ResultCache* cache = nullptr);

}  // namespace capops::lint
