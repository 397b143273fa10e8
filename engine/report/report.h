// SPDX-License-Identifier: Apache-2.0
// Reports: a LintReport rendered for people (text, short) or tools (JSON).
//
// Text is in the style of rustc:
//
//   error[CAP-ALC-001]: exploration demand `explore` counts 2 GPUs of …
//     --> plan.yaml:40:44
//      |
//   40 |   - {id: a-explore, demand: explore, pool: serve-eu-spare, gpus: 2}
//      |                                            ^^^^^^^^^^^^^^
//     ::: inventory.yaml:12:99
//   12 |   - {id: serve-eu-spare, …, role: production-replacement}
//      |                                   ---------------------- `p.role` is
//      "production-replacement" = because: replacement capacity is the production recovery path =
//      fix: allocate from a research or shared pool
//
// then a summary line. Short is one `file:line:col: severity[RULE]: message`
// line per finding, for editors and grep. JSON follows the output contract of DESIGN.md:
// {"version", "ruleset_digest", "violations", "errors", "summary"}, keys and
// order stable, violations sorted by file, line, column, rule.
#pragma once

#include <ostream>
#include <string>

#include "engine/common/source.h"
#include "engine/common/value.h"
#include "engine/eval/result.h"

namespace capops::report {

struct TextOptions {
  bool explain = false;  // evidence and clause traces
  bool color = false;    // ANSI colours
};

void WriteText(const SourceManager& sources, const eval::LintReport& report,
               const TextOptions& options, std::ostream& out);

/// One line per finding, no summary.
void WriteShort(const SourceManager& sources, const eval::LintReport& report, std::ostream& out);

/// `version` is the tool's version string.
void WriteJson(const SourceManager& sources, const eval::LintReport& report,
               const std::string& version, std::ostream& out);

/// Diagnostics alone (e.g. a policy that does not compile), in text form.
void WriteDiagnostics(const SourceManager& sources, const Diagnostics& diagnostics,
                      const TextOptions& options, std::ostream& out);

/// One traced clause or expression, power-assert style.
void WriteTrace(const SourceManager& sources, const eval::TraceStep& step,
                const TextOptions& options, std::ostream& out);

/// A Value as JSON text: scalars natively (NaN and infinities as the strings
/// "NaN", "Infinity", "-Infinity"), dates, durations and quantities as their
/// CPL text, records as objects, an error as {"error": message}.
std::string ValueJson(const Value& value);

/// A param a finding rests on, as the text report shows it:
/// "max_memory_pressure = 0.9 (pack default, readiness.cpl:120)".
std::string ParamText(const eval::ParamUse& param);

/// The params of a finding as a JSON array of {name (qualified), value (as
/// ValueJson), set_at}; empty when it names none.
std::string ParamsJson(const eval::Violation& violation);

/// The supply a finding needs when no fix repairs it (eval::Acquisition)
/// as a JSON object {description, gpus, accelerator, region, service,
/// window: {start, end}} (an absent region or service, a window's open
/// side: null); "null" when it has none.
std::string AcquisitionJson(const eval::Violation& violation);

/// Diagnostics as a JSON array of {code, severity, message, location, help, related}.
std::string DiagnosticsJson(const SourceManager& sources, const Diagnostics& diagnostics);

/// Counts by severity, violations and errors together.
struct Counts {
  size_t errors = 0;
  size_t warnings = 0;
  size_t infos = 0;
};
Counts CountFindings(const eval::LintReport& report);
/// The findings a baseline lists that are reported as worse than it.
size_t CountWorse(const eval::LintReport& report);

}  // namespace capops::report
