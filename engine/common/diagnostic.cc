// SPDX-License-Identifier: Apache-2.0
// Diagnostics collection, severity names and did-you-mean suggestions.
#include "engine/common/diagnostic.h"

#include <algorithm>
#include <tuple>

namespace capops {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
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

Diagnostic& Diagnostics::Error(const SourceManager& sources, const Span& span,
                               std::string message) {
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

// ASCII lowercase with `-` and space read as `_`: the spellings a YAML key,
// a CPL field and an id are written in.
std::string Normalized(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c == '-' || c == ' ') c = '_';
  }
  return out;
}

// The word without an English plural ending: `pools` → `pool`, `policies`
// → `policy`, `boxes` → `box`; `class` stays. Too short a stem stays whole.
std::string Singular(std::string_view word) {
  auto ends = [&](std::string_view tail) {
    return word.size() >= tail.size() + 3 && word.substr(word.size() - tail.size()) == tail;
  };
  if (ends("ies")) return std::string(word.substr(0, word.size() - 3)) + "y";
  if (ends("sses") || ends("xes") || ends("ches") || ends("shes")) {
    return std::string(word.substr(0, word.size() - 2));
  }
  if (ends("s") && !ends("ss")) return std::string(word.substr(0, word.size() - 1));
  return std::string(word);
}

// True when `whole` is `word`, or starts with `word` and a `_` after it.
bool StartsWithWord(std::string_view whole, std::string_view word) {
  return word.size() >= 3 && whole.size() > word.size() && whole.substr(0, word.size()) == word &&
         whole[word.size()] == '_';
}

}  // namespace

std::string ClosestName(std::string_view name, const std::vector<std::string>& candidates) {
  if (name.empty() || name.size() > kMaxSuggestedName) return "";
  std::string wanted = Normalized(name);
  std::string wanted_one = Singular(wanted);
  // Short names tolerate one edit, longer ones a third of their length.
  size_t limit = wanted.size() <= 3 ? 1 : std::max<size_t>(2, wanted.size() / 3);
  enum Tier { kSame, kNumber, kEdit, kPrefix, kNone };
  Tier best_tier = kNone;
  size_t best_distance = limit + 1;
  const std::string* best = nullptr;
  const std::string* prefixed = nullptr;  // the only kPrefix match so far
  size_t prefix_matches = 0;
  for (const std::string& c : candidates) {
    // Far too long to be what a short name meant: skipped before it is copied.
    if (c.size() > 2 * kMaxSuggestedName) continue;
    std::string candidate = Normalized(c);
    if (candidate == wanted) {
      best = &c;
      break;
    }
    if (best_tier <= kNumber) continue;
    std::string candidate_one = Singular(candidate);
    if (candidate_one == wanted_one && wanted_one.size() >= 2) {
      best_tier = kNumber, best = &c;
      continue;
    }
    size_t gap = candidate.size() > wanted.size() ? candidate.size() - wanted.size()
                                                  : wanted.size() - candidate.size();
    if (gap <= limit) {
      size_t d = EditDistance(wanted, candidate);
      if (d < best_distance) best_tier = kEdit, best_distance = d, best = &c;
    }
    if (best_tier <= kEdit) continue;
    if (StartsWithWord(candidate, wanted_one) || StartsWithWord(candidate, wanted) ||
        StartsWithWord(wanted, candidate_one) || StartsWithWord(wanted, candidate)) {
      if (prefix_matches++ == 0) prefixed = &c;
    }
  }
  if (best != nullptr) return *best;
  // A word shared with several candidates says nothing about which was meant.
  return prefix_matches == 1 ? *prefixed : "";
}

}  // namespace capops
