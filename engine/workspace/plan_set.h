// SPDX-License-Identifier: Apache-2.0
// PlanSet: the plan files of one run, from files, directories and globs, and
// the inventories each of them is linted against.
//
// A file named outright is a plan file whatever it holds (so a broken one is
// still reported), except a valid file of `Inventory` documents only, which
// serves every plan of the run as if given with --inventory. A directory
// stands for the plan files among the `*.yaml`, `*.yml` and `*.json` files
// (any case) below it (hidden directories such as `.git` are skipped; links
// followed within the repository, those out of it refused); a glob (`*`, `?`, `[…]`, and `**` for
// any number of directories) for those among the files it matches. Each such file is read as
// YAML, never sniffed as text, but only for what its documents say they are: their top-level
// `apiVersion` and `kind`, from the parser's events (facts/document_head.h), until a document
// shows it is a plan file. It is one when
//   - a document has `kind: CapacityPlan`, however it is spelt in YAML;
//   - or it would be one but for a mistake the lint must report: it is not
//     valid YAML, cannot be read, is too large, a document says an
//     `apiVersion` of capops's group (`capops.dev/v1`, or any other version)
//     or has a kind within a few edits of a capops kind (`CapcityPlan`);
//   - or only a full load can tell (a `<<` merge where a key is missing, an
//     alias it cannot follow, `kind` given twice): the lint decides.
// A plan in any document counts, after foreign ones too, so a file that is
// not a plan is read to its end, past the document limit (nothing is kept
// per document). An `Inventory` file and capops's own files (config,
// waivers, baseline) are not plans; every other YAML file is reported as a
// located `info` ("not linted"), so that nothing under a plan directory is
// passed over silently — an error when its first document is somebody
// else's but the file cannot be read to its end (invalid YAML or text
// further in): a plan there would be missed.
// Everything is sorted and deduplicated, so output does not depend on the
// order of the file system.
//
// Plans sharing their inventories form a group, linted in one Engine::Lint
// call (lint/group_lint.h): with `--inventory` one group, else one per
// directory whose `inventory.yaml` the plans use (InventoriesOf, the one
// answer to "which inventories" for the CLI, the editor and every command).
// Every file goes through a FileSystem, and each is read once: a plan read
// to find out what it is is handed to the lint as read.
//
//   PlanSet set(files);
//   if (!set.Add("plans/", &error)) … exit 2
//   set.Group({});                          // no --inventory
//   input.groups = set.Reader();            // lint::RunInput
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/lint/group_lint.h"
#include "engine/workspace/file_system.h"

namespace capops::workspace {

struct PlanGroup {
  std::vector<std::string> plans;
  std::vector<std::string> inventories;
};

class PlanSet {
 public:
  /// `limits` bound the read and parse of each file. `files` must outlive the set.
  explicit PlanSet(const FileSystem& files, facts::LoadOptions limits = {})
      : files_(files), limits_(limits) {}

  /// Adds a file, a directory or a glob. False with `*error` set when a file
  /// does not exist or is not a regular file, or a directory or glob yields
  /// no plan file. A file named on its own that holds `Inventory`
  /// documents and no plan is an inventory, as if given with --inventory.
  bool Add(const std::string& arg, std::string* error);
  /// Splits the plans into groups by InventoriesOf; `inventories` (from
  /// --inventory or the config) and the inventory files named to Add are
  /// the given ones.
  void Group(const std::vector<std::string>& inventories);

  const std::vector<std::string>& plans() const { return plans_; }
  const std::vector<PlanGroup>& groups() const { return groups_; }
  /// YAML files that directories and globs yielded but that are not plans,
  /// nor inventories, nor capops's own files; sorted by path.
  const std::vector<lint::SkippedFile>& skipped() const { return skipped_; }
  /// The groups' files for a lint (lint::RunInput::groups), each read once:
  /// a file read by Add is handed over as read. Valid while the set lives.
  lint::GroupFiles Reader();

 private:
  void Consider(const std::string& file, std::vector<std::string>* plans);
  bool IsInventoryFile(const std::string& path);
  /// Passes over what cannot be walked, each an error in the report.
  void Refuse(std::vector<lint::SkippedFile> paths);
  bool ReadOnce(const std::string& path, TextFile* file, std::string* error);

  const FileSystem& files_;
  facts::LoadOptions limits_;
  std::vector<std::string> plans_;              // sorted, unique
  std::vector<std::string> named_inventories_;  // inventory files named to Add
  std::vector<PlanGroup> groups_;
  std::vector<lint::SkippedFile> skipped_;
  std::map<std::string, TextFile> read_;  // read by Add, not yet handed to the lint
};

/// What a YAML file found under a plan directory is (see above).
enum class FileRole { kPlan, kInventory, kCapopsFile, kOther };

/// Classifies a file's text from its documents' heads (see above), in
/// memory that does not grow with the text; `limits` bound the nesting
/// read. For kOther, `*note` says why it is not linted (its location's
/// `file` left unset).
FileRole ClassifyFile(const std::string& path, const std::string& text,
                      const facts::LoadOptions& limits, Diagnostic* note);

/// The inventories `plan` is linted against — the one rule, for every host
/// and command: `given` (--inventory, the config's `inventories`, inventory
/// files named among the plans) when any; else `inventory.yaml` beside the
/// plan when there is anything by that name (what is not a readable file is
/// refused when read) and it is not itself one of `plans`; else none.
std::vector<std::string> InventoriesOf(const FileSystem& files, const std::string& plan,
                                       const std::vector<std::string>& given,
                                       const std::vector<std::string>& plans);

/// The inventories of one lint over `plans` together (eval, why-not):
/// InventoriesOf each plan, each file once however it is spelt.
std::vector<std::string> InventoriesOfAll(const FileSystem& files,
                                          const std::vector<std::string>& plans,
                                          const std::vector<std::string>& given);

}  // namespace capops::workspace
