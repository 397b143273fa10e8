// SPDX-License-Identifier: Apache-2.0
// --fail-on: the one place findings become a failing exit code.
#include "engine/lint/fail_on.h"

namespace capops::lint {

bool ParseFailOn(std::string_view name, FailOn* out) {
  if (name == "never") {
    *out = FailOn::kNever;
    return true;
  }
  Severity s;
  if (!ParseSeverity(name, &s)) return false;
  *out = s == Severity::kError     ? FailOn::kError
         : s == Severity::kWarning ? FailOn::kWarning
                                   : FailOn::kInfo;
  return true;
}

const char* FailOnName(FailOn fail_on) {
  switch (fail_on) {
    case FailOn::kInfo:
      return "info";
    case FailOn::kWarning:
      return "warning";
    case FailOn::kError:
      return "error";
    case FailOn::kNever:
      return "never";
  }
  return "error";
}

bool Reaches(Severity s, FailOn fail_on) {
  if (fail_on == FailOn::kNever) return false;
  int threshold = fail_on == FailOn::kError ? 2 : fail_on == FailOn::kWarning ? 1 : 0;
  return static_cast<int>(s) >= threshold;  // Severity: kInfo 0, kWarning 1, kError 2
}

bool Fails(const eval::LintReport& report, FailOn fail_on) {
  for (const eval::Violation& v : report.violations) {
    if (!v.suppression && Reaches(v.severity, fail_on)) return true;
  }
  for (const Diagnostic& d : report.errors.items()) {
    if (Reaches(d.severity, fail_on)) return true;
  }
  return false;
}

}  // namespace capops::lint
