// SPDX-License-Identifier: Apache-2.0
// Quick fixes for a document's diagnostics: each Fix the engine gave a
// diagnostic or finding (engine/common/fix.h: a did-you-mean's name, a
// duration's unit, a computed repair) becomes a `quickfix` CodeAction
// whose WorkspaceEdit makes its replacements, linked to its diagnostic.
//
// The fixes are carried in the published diagnostic's `data` (FixesData),
// their ranges in the text the diagnostics were published for.
//
//   Json d = ...;  // a published diagnostic
//   d["data"] = {{"fixes", FixesData(sources, diagnostic.fixes)}};
//   Json actions = QuickFixes(uri, path, {d}, range, Json());
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/fix.h"

namespace capops::lsp {

/// `fixes` as a diagnostic's `data.fixes`: per fix, its `title` and its
/// `changes` (a WorkspaceEdit's: per document URI, its TextEdits), the
/// positions in UTF-16 units of the lines `sources` holds.
nlohmann::json FixesData(const SourceManager& sources, const std::vector<Fix>& fixes);

/// Whether `range` is a protocol Range: a start and an end, each a line
/// and a character that are numbers not below 0.
bool IsRange(const nlohmann::json& range);

/// The CodeAction[] for the `data.fixes` of `diagnostics` whose range
/// meets `range` (IsRange), one per fix, the first preferred when it is the
/// only one. None when `only` (the request's `context.only`, null for any)
/// asks for no quick fix; a fix that is not a title and a map of changes is
/// left out. The edits of the file at `path` (the document asked about) are
/// keyed by `uri`, the name the client knows it by.
nlohmann::json QuickFixes(const std::string& uri, const std::string& path,
                          const nlohmann::json& diagnostics, const nlohmann::json& range,
                          const nlohmann::json& only);

}  // namespace capops::lsp
