// SPDX-License-Identifier: Apache-2.0
// The fixes of fact-file diagnostics that name the text meant: a misspelt
// field, enum member, kind or id ("did you mean `slice`?"), a duration's
// missing unit ("add a unit (…), e.g. `8h` or `8d`"), a size written with
// spaces, a date-time without its `T`. Each becomes a Fix (fix.h) that
// replaces the scalar the diagnostic is about — the one at its location,
// when its message names it — by that text; a quoted scalar keeps its
// quotes. The lint attaches them as it finishes (AttachScalarFixes), so
// every host reads the same edits: reports, `--fix` and the editor.
//
//   Diagnostics diags = …;  // a lint's fact-file errors, their files in `sources`
//   facts::AttachScalarFixes(sources, &diags);
//   for (const Fix& f : diags[0].fixes) …  // "change `slcie` to `slice`"
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/diagnostic.h"
#include "engine/common/fix.h"

namespace capops::facts {

/// The texts a diagnostic's help offers in place of what it is about, the
/// likeliest first: "did you mean `x`?" gives `x`; "add a unit (…), e.g.
/// `8h` or `8d`" gives both; "write it without spaces: `80GB`" and "write
/// `T` between the date and the time: `…`" give theirs. Empty for any
/// other help (a list of what is expected names no one text).
std::vector<std::string> HelpReplacements(std::string_view help);

/// The span of the scalar of `text` (file `file`) at 1-based `line` and
/// character `column` — the one facts::PointAt finds there, between its
/// quotes when it has them, on one line — when `message` names it in
/// backticks; `*old` is its text. nullopt for no such scalar: a diagnostic
/// placed on a value for a key it could not locate is not fixed in the
/// value.
std::optional<Replacement> ScalarAt(FileId file, std::string_view text, uint32_t line,
                                    uint32_t column, const std::string& message, std::string* old);

/// Gives each diagnostic of `diags` whose help names replacements
/// (HelpReplacements) a Fix per replacement of the scalar it is about
/// (ScalarAt) by that text, unless the text is the same. Files whose text
/// cannot be had again (released and since changed) get none.
void AttachScalarFixes(const SourceManager& sources, Diagnostics* diags);

}  // namespace capops::facts
