// SPDX-License-Identifier: Apache-2.0
// Diagnostics: a user's mistake in a policy or a fact file, with its place.
//
// Every stage reports problems of its input as Diagnostics collected in a
// result object; only "the tool could not finish" travels another way. Text
// follows compiler style: lowercase, no trailing period, user text in
// backticks, an optional `help:` hint.
//
//   Diagnostics diags;
//   diags.Error(loc, "unknown variable `pol`").help = "did you mean `pool`?";
//   diags.Sort();
#pragma once

#include <string>
#include <vector>

#include "engine/common/fix.h"
#include "engine/common/source.h"

namespace capops {

enum class Severity { kInfo, kWarning, kError };

/// "error", "warning" or "info".
const char* SeverityName(Severity s);
/// Parses a severity name; false if `name` is none of them.
bool ParseSeverity(std::string_view name, Severity* out);

/// A second place that explains a diagnostic (e.g. the rule clause that failed).
struct RelatedLoc {
  SourceLoc loc;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  SourceLoc loc;
  std::string message;
  std::string help;  // optional hint, rendered on its own `help:` line
  std::string code;  // what produced it: "syntax", "yaml", "facts", a rule id …
  std::vector<RelatedLoc> related;
  uint32_t length = 0;  // characters to underline from `loc`; 0: the report guesses
  /// The edits that repair it, the likeliest first (a did-you-mean's
  /// name, a duration's unit); empty when it names no one change.
  std::vector<Fix> fixes;
};

/// An ordered collection of diagnostics.
class Diagnostics {
 public:
  Diagnostic& Add(Severity severity, SourceLoc loc, std::string message);
  Diagnostic& Error(SourceLoc loc, std::string message) {
    return Add(Severity::kError, loc, std::move(message));
  }
  /// An error underlining a span of CPL source (on its first line).
  Diagnostic& Error(const SourceManager& sources, const Span& span, std::string message);
  void Append(const Diagnostics& other);

  bool HasErrors() const;
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  const Diagnostic& operator[](size_t i) const { return items_[i]; }
  /// Lets `annotate` add to each diagnostic (a related place, say).
  template <typename F>
  void Annotate(F annotate) {
    for (Diagnostic& d : items_) annotate(d);
  }

  /// Sorts by file, line, column (then code and message, so output is
  /// deterministic) and drops exact repeats, which arise when one inventory
  /// serves many plans.
  void Sort();

 private:
  std::vector<Diagnostic> items_;
};

/// The candidate a misspelt `name` most likely meant, or "": every
/// did-you-mean over names (fields, keys, variables, rule ids, ids) goes
/// through here. Names are compared ignoring ASCII case and with `-`, `_`
/// and space alike; then, best first:
///   1. the same name (`Pools`, `accelerator-types` for `accelerator_types`);
///   2. the same word in singular or plural (`pool` and `pools`,
///      `allocation` and `allocations`, `policy` and `policies`);
///   3. a small edit distance: one edit for names of up to 3 characters, a
///      third of the length for longer ones (`poolz`, `pol`);
///   4. the only candidate that starts with the name's word, or whose word
///      starts the name (`accelerators` → `accelerator_types`).
/// Ties go to the earlier candidate. Bytes outside ASCII are compared as
/// they are. Names longer than kMaxSuggestedName bytes get no suggestion,
/// so a hostile key costs no quadratic work.
std::string ClosestName(std::string_view name, const std::vector<std::string>& candidates);

/// Longest name (in bytes) ClosestName looks for a match of.
inline constexpr size_t kMaxSuggestedName = 256;

}  // namespace capops
