// SPDX-License-Identifier: Apache-2.0
// Fact selectors: how a person names one fact of a plan or inventory —
// a path (`allocations[a-train]`, `plan.demands[train-v3].window`,
// `inventory.pools[train-eu]`, an index `allocations[0]`) or a place in a
// file (`plan.yaml:37`, the fact that starts on that line). `why-not` takes
// one; an editor can make one from a cursor.
//
//   std::function<bool(const Value&)> focus;
//   if (!SelectFact(facts, sources, "allocations[a-train]", &focus, &error)) …
#pragma once

#include <functional>
#include <string>

#include "engine/common/source.h"
#include "engine/common/value.h"
#include "engine/eval/evaluator.h"

namespace capops::lint {

/// Sets `*focus` to a test that holds for the fact `selector` names (and
/// only it), found in `facts` whose files are in `sources` (which must
/// outlive `*focus`). False with a
/// reason naming the selector when it names nothing: a path that leads
/// nowhere, or a line on which no fact starts.
bool SelectFact(const eval::Facts& facts, const SourceManager& sources, const std::string& selector,
                std::function<bool(const Value&)>* focus, std::string* error);

}  // namespace capops::lint
