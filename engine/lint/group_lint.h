// SPDX-License-Identifier: Apache-2.0
// Linting a run's fact files, group by group, into one report.
//
// Plans sharing their inventories form a group, linted in one Engine::Lint
// call (inventories merge within a call). With a FindingStore (`--cache`),
// a plan file whose key (result_cache.h) is unchanged is not parsed or
// evaluated again: its stored findings are read back, and the report is
// byte for byte the one a fresh lint gives. A group is linted in one call
// over the plans that missed; but since findings located in the inventory
// cannot be told apart by plan within one call, when such findings exist
// any miss relints the whole group (an unchanged group is still read from
// its group entry). A group without inventory files, or with a plan file
// holding an `Inventory` document, is never cached.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/lint/result_cache.h"

namespace capops::lint {

/// A YAML file found among the plans and not linted, with the reason as an
/// `info` located in it (its `loc.file` is set when the report is made).
struct SkippedFile {
  std::string path;
  std::string text;
  Diagnostic note;
};

/// A run's groups, each read only when it is linted (so that one group's
/// texts are held at a time): `read(g, …)` gives group g's plan and
/// inventory files, or false with `*error` set when one cannot be read.
struct GroupFiles {
  size_t count = 0;
  std::function<bool(size_t g, std::vector<TextFile>* plans, std::vector<TextFile>* inventories,
                     std::string* error)>
      read;
};

/// Lints each group and merges the reports into one, sorted like a single
/// run's, with an `info` for each skipped file. The fact files are added to
/// `*sources`, an extension of the engine's (Engine::Lint). False with
/// `*error` set when a group cannot be read. With `cache` (may be null),
/// findings are reused and stored there.
bool LintGroups(const Engine& engine, const LintOptions& lint, SourceManager* sources,
                const GroupFiles& groups, const std::vector<SkippedFile>& skipped,
                eval::LintReport* report, std::string* error, FindingStore* cache = nullptr);

}  // namespace capops::lint
