// SPDX-License-Identifier: Apache-2.0
// The rule catalogue: what `rules` and `doc` say about each rule of a
// compiled rule set — metadata, rationale, fix, params and CPL source.
//
//   std::vector<RuleEntry> rules = BuildCatalog(engine);
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/api/engine.h"

namespace capops::lint {

struct ParamEntry {
  std::string name;
  std::string type;          // as written by a user: `set<Slice>`
  std::string default_text;  // the default's CPL source
  std::string value;         // the current value, as a literal
};

struct RuleEntry {
  const check::RuleInfo* info = nullptr;
  std::string defined_at;            // file:line
  std::vector<std::string> because;  // one per deny/warn that has one
  std::vector<std::string> fix;
  std::vector<ParamEntry> params;  // the params the rule reads (check::RuleInfo::params)
  std::string source;              // the rule's CPL text
  /// The record fields it reads ("Pool.hosts", sorted): every field access
  /// in its clauses, guards, places and messages, and in the functions it
  /// calls, however deep. A field read only by a built-in (an interval's
  /// `start`, a timeline's items) is not listed.
  std::vector<std::string> fields;
};

/// One entry per rule, in rule-id order. Requires a compiled engine.
std::vector<RuleEntry> BuildCatalog(const Engine& engine);

/// A rule's reasons: the `because` and the `fix` of each of its denies and
/// warns that has one, in the order written (a text repeated by two
/// statements is there twice).
struct RuleReasons {
  std::vector<std::string> because;
  std::vector<std::string> fix;
};
RuleReasons ReasonsOf(const syntax::Rule& rule);

/// The params a rule reads, in order of first use, also in the functions
/// it calls.
std::vector<ParamEntry> RuleParams(const Engine& engine, const check::RuleInfo& rule);

/// The rules that read each field ("Pool.hosts" → rule ids, in catalogue order).
std::map<std::string, std::vector<std::string>, std::less<>> FieldReaders(
    const std::vector<RuleEntry>& rules);

/// Items joined with `sep`.
std::string Joined(const std::vector<std::string>& items, const char* sep);

}  // namespace capops::lint
