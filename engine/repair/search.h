// SPDX-License-Identifier: Apache-2.0
// Inside the repair search (repair.h): what one rule's search is given,
// the reads of the facts the searches share, and the searches by rule.
//
// A search takes one target (an allocation whose findings of its rule are
// repaired together), the facts of the plan document it is in and that
// document's text, and returns its alternatives, the least change first.
// It only proposes: the driver (repair.cc) relints each and keeps those
// that remove the target's findings and add no error.
//
//   std::vector<Fix> alternatives = SupplySearch(target, facts, file, text, 3);
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/common/fix.h"
#include "engine/common/value.h"
#include "engine/eval/evaluator.h"
#include "engine/eval/result.h"

namespace capops::repair {

/// One allocation whose findings of a rule are to be repaired.
struct Target {
  std::string rule;
  std::string allocation;
  FileId file = kNoFile;  // in the search's lint
  uint32_t line = 0;      // of one of its findings
  int64_t short_by = 0;   // the largest measure over its findings (GPUs short, for supply)
  /// The bindings of its first finding.
  std::vector<eval::Evidence> evidence;
};

/// A rule's search: the alternatives for `target` in the plan document
/// whose facts are `facts` and whose file (`file`) reads `text`, at most
/// `max_tries` of them.
using Search = std::vector<Fix> (*)(const Target& target, const eval::Facts& facts, FileId file,
                                    std::string_view text, size_t max_tries);

/// Supply that would repair a target no plan edit repairs, and its proof:
/// an Inventory document holding one confirmed record of exactly that
/// (`inventory`, linted in memory beside the plan's inventories, never
/// written) and the plan edit that cites it (`cite`).
struct Advice {
  eval::Acquisition acquisition;
  std::string inventory;
  std::vector<Replacement> cite;
};

/// A rule's advice for `target` (arguments as Search), or nullopt.
using Advise = std::optional<Advice> (*)(const Target& target, const eval::Facts& facts,
                                         FileId file, std::string_view text);

/// A rule with a search: its id, the binding that names the allocation a
/// finding is about, the search, and the advice asked for when the search
/// proves no alternative (none: no advice).
struct RuleSearch {
  const char* rule;
  const char* allocation_binding;
  Search search;
  Advise advise = nullptr;
};

/// CAP-SUP-005's search (supply_search.cc).
std::vector<Fix> SupplySearch(const Target& target, const eval::Facts& facts, FileId file,
                              std::string_view text, size_t max_tries);
/// CAP-SUP-005's advice (supply_search.cc): reserve the GPUs short, of the
/// pool's accelerator, in its region, with its service, over the
/// allocation's window.
std::optional<Advice> SupplyAdvice(const Target& target, const eval::Facts& facts, FileId file,
                                   std::string_view text);

// Reads of the facts (search_reads.cc).

/// A scalar as text ("" for none or null).
std::string Text(const Value* v);
/// An integer, else `otherwise`.
int64_t Int(const Value* v, int64_t otherwise);
/// An enum member with `-` for `_` (they are the same member).
std::string Member(std::string s);
/// The seconds [start, end) a `Window` value spans, as timelines read it
/// (eval::ToInterval); an open side is the far past or future, and no
/// window at all is all time.
std::pair<int64_t, int64_t> Span(const Value* window);
/// The seconds allocation `a` holds its GPUs: its own window, else its
/// demand's (in `demands`), else all time.
std::pair<int64_t, int64_t> HeldOver(const Value& a, const Value* demands);
/// The GPUs supply record `s` can back an allocation on `pool` with: a
/// reservation or physical confirmation of the pool's accelerator, in its
/// region (or in none), held with its service (or none); else 0.
int64_t Backs(const Value& s, const Value& pool);
/// The ids an allocation cites as `evidence`, each once.
std::set<std::string> Cited(const Value& a);

}  // namespace capops::repair
