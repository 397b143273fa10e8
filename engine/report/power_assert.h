// SPDX-License-Identifier: Apache-2.0
// Clause traces drawn power-assert style (internal to engine/report):
//
//   where d.slice in research_slices && p.role == production_replacement
//         | |     |  |               |  | |    |  |
//         | |     |  |               |  | |    |  "production-replacement"
//         | |     |  |               |  | |    true
//         …
//
// Each sub-expression's value hangs under its operator, field or function
// name; a value read from the facts names its file:line:col. A clause that
// spans several lines is listed as `expr = value` lines instead.
#pragma once

#include <ostream>
#include <string>

#include "engine/eval/result.h"
#include "engine/report/snippet.h"

namespace capops::report {

void WritePowerAssert(const SourceManager& sources, const eval::TraceStep& step,
                      const std::string& indent, const Style& style, std::ostream& out);

}  // namespace capops::report
