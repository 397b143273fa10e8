// SPDX-License-Identifier: Apache-2.0
// Quick fixes for a document's diagnostics: what a diagnostic's `help:`
// names as the text meant (a misspelt field, enum member, kind or id; a
// duration's missing unit; a size written with spaces) becomes a
// `quickfix` CodeAction whose WorkspaceEdit puts that text where the
// diagnostic underlines, linked to its diagnostic.
//
// The replacements are worked out when a diagnostic is made, from its help
// (Replacements), and carried in the published diagnostic's `data`; the
// edit replaces the scalar the diagnostic is about, found again in the text
// the diagnostics were published for, so a quoted key or value keeps its
// quotes.
//
//   Json d = ...;  // a published diagnostic
//   d["data"] = {{"replacements", Replacements("did you mean `name`?")}};
//   Json actions = QuickFixes(uri, text, {d}, range, Json());
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace capops::lsp {

/// The texts a diagnostic's help offers in place of what it underlines, the
/// likeliest first: "did you mean `x`?" gives `x`; "add a unit (…), e.g.
/// `8h` or `8d`" gives both; "write it without spaces: `80GB`" and "write
/// `T` between the date and the time: `…`" give theirs. Empty for any
/// other help (a list of what is expected names no one text).
std::vector<std::string> Replacements(std::string_view help);

/// Whether `range` is a protocol Range: a start and an end, each a line
/// and a character that are numbers not below 0.
bool IsRange(const nlohmann::json& range);

/// The CodeAction[] for `diagnostics` (published for `text`, the document
/// at `uri`, each with its `data.replacements`) whose range meets `range`;
/// `range` IsRange. None when `only` (the request's `context.only`, null for any) asks for
/// no quick fix. The text replaced is the scalar the diagnostic's range
/// starts on, when its message names it (a quoted one keeps its quotes);
/// a diagnostic on no such scalar gets no fix.
nlohmann::json QuickFixes(const std::string& uri, std::string_view text,
                          const nlohmann::json& diagnostics, const nlohmann::json& range,
                          const nlohmann::json& only);

}  // namespace capops::lsp
