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

/// The closest candidate within a small edit distance, or "" (for did-you-mean).
std::string ClosestName(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace capops
