// Diagnostics collection, severity names and did-you-mean suggestions.
#include "engine/common/diagnostic.h"

#include <algorithm>
#include <tuple>

namespace capops {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "error";
}

bool ParseSeverity(std::string_view name, Severity* out) {
  for (Severity s : {Severity::kInfo, Severity::kWarning, Severity::kError}) {
    if (name == SeverityName(s)) {
      *out = s;
      return true;
    }
  }
  return false;
}

Diagnostic& Diagnostics::Add(Severity severity, SourceLoc loc, std::string message) {
  items_.push_back(Diagnostic{severity, loc, std::move(message), {}, {}, {}, 0});
  return items_.back();
}

Diagnostic& Diagnostics::Error(const SourceManager& sources, const Span& span, std::string message) {
  SourceLoc begin = sources.Resolve(span);
  SourceLoc end = sources.Resolve(Span{span.file, span.end, span.end});
  Diagnostic& d = Error(begin, std::move(message));
  d.length = end.line == begin.line && end.column > begin.column ? end.column - begin.column : 1;
  return d;
}

void Diagnostics::Append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

bool Diagnostics::HasErrors() const {
  return std::any_of(items_.begin(), items_.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

void Diagnostics::Sort() {
  std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.loc.file, a.loc.line, a.loc.column, a.code, a.message) <
           std::tie(b.loc.file, b.loc.line, b.loc.column, b.code, b.message);
  });
  auto same = [](const Diagnostic& a, const Diagnostic& b) {
    return a.loc == b.loc && a.code == b.code && a.message == b.message;
  };
  items_.erase(std::unique(items_.begin(), items_.end(), same), items_.end());
}

namespace {
// Levenshtein distance with a row of the table at a time.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string ClosestName(std::string_view name, const std::vector<std::string>& candidates) {
  // Short names tolerate one edit, longer ones a third of their length.
  size_t limit = name.size() <= 3 ? 1 : std::max<size_t>(2, name.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    size_t d = EditDistance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace capops
