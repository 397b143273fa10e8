// SPDX-License-Identifier: Apache-2.0
// What the repair tests share: each repair a lint offers on a plan, applied
// through the real binary and linted again, must remove its finding and add
// no error (CheckRepairs); the fixtures of the rules with a search.
//
//   auto offered = OfRule(CheckRepairs(RepairFixtures("CAP-ALC-009")), "CAP-ALC-009");
//   CHECK(offered["repairable.yaml a-end"] == std::vector<std::string>{"cut …"});
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/fix.h"
#include "engine/common/source.h"
#include "engine/common/value.h"

namespace capops::repair::testing {

/// "rule file allocation" (the file's name, the value of the binding the
/// rule's repairs change) → the repairs offered, in order.
using Offered = std::map<std::string, std::vector<std::string>>;

/// Lints each plan of `plans` (a file holding its inventory too, or with
/// `inventory`), with `args` added (a `--config`; else `--no-config`),
/// applies each repair offered, lints again: checks that the finding it
/// repairs is gone and no error is new. An acquisition advised is checked
/// by its own proof, never applied as an edit: the plan citing a record of
/// exactly it, in an inventory of its own. Returns what was offered (an
/// acquisition as "help: …").
Offered CheckRepairs(const std::vector<std::filesystem::path>& plans,
                     const std::string& inventory = "", const std::vector<std::string>& args = {});

/// The bytes of the file at `path`.
std::string ReadText(const std::filesystem::path& path);

/// The fixtures (policies/capops-ai/fixtures/<RULE>/*.yaml) of every rule
/// with a search, or of `rule` alone; sorted.
std::vector<std::filesystem::path> RepairFixtures(const std::string& rule = "");

/// The repairs of `offered` for `rule`, by "file allocation".
Offered OfRule(const Offered& offered, const std::string& rule);

/// `text`'s one document, loaded as plain YAML (scalars typed by their
/// text: dates, durations), and its allocations.
struct Loaded {
  SourceManager sources;
  FileId file;
  Value doc;
  explicit Loaded(const std::string& text);
  /// The allocation `id` (fails the test when there is none).
  const Value& At(const std::string& id) const;
};

/// Line `n` (from 1) of `text`, without its newline.
std::string Line(const std::string& text, int n);

/// `text` with `edits` applied; "(none)" for no edits.
std::string Edited(const std::string& text, std::optional<std::vector<Replacement>> edits);

}  // namespace capops::repair::testing
