// The output of `rules --diff` (lint/rules_diff.h) as text, JSON or Markdown.
#pragma once

#include <ostream>
#include <string>

#include "engine/lint/rules_diff.h"

namespace capops::report {

/// Writes the diff as "text", "json" or "markdown" (for a pull-request comment).
void WriteRulesDiff(const lint::RulesDiff& rules, const lint::FindingsDiff& findings, const std::string& format,
                    std::ostream& out);

}  // namespace capops::report
