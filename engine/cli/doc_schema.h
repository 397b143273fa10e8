// SPDX-License-Identifier: Apache-2.0
// The fact schema as a reference page of `capops-lint doc`: every document,
// record and enum the rule set declares (stdlib/schema.cpl and any pack's
// own), each field with its type, whether it is required, its default, its
// doc comment, what its values look like (units, dates, ids) and the rules
// that read it, linked to their catalogue entries.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/cli/doc_page.h"

namespace capops::cli::doc {

/// Writes the reference as one HTML page (anchors `#Pool`, `#Pool.hosts`;
/// rules linked as `index.html#CAP-ALC-001`) and as Markdown (rules linked
/// as `rules.md#CAP-ALC-001`).
void WriteSchema(const Engine& engine, const CatalogPaths& paths,
                 const std::map<std::string, std::vector<std::string>, std::less<>>& readers,
                 std::ostream& html, std::ostream& md);

}  // namespace capops::cli::doc
