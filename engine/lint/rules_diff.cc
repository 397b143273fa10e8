// SPDX-License-Identifier: Apache-2.0
// Rule set diff (rules_diff.h): rules compared by id and clause by clause,
// findings compared by their line-free identity over shared fact sets.
// Entry points: DiffRules, DiffFindingsOn, DiffPlanReports.
#include "engine/lint/rules_diff.h"

#include <algorithm>
#include <map>

#include "engine/lint/finding_key.h"
#include "engine/lint/rule_catalog.h"

namespace capops::lint {

namespace {

// A rule's source text on one line: runs of white space become one space.
std::string OneLine(const SourceManager& sources, const Span& span) {
  if (!span.valid()) return "";
  std::string text(sources.file(span.file).text().substr(span.begin, span.end - span.begin));
  std::string out;
  for (char c : text) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!space) {
      out += c;
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// One side of a compared rule: the rule and the text it was written in.
struct RuleSide {
  const SourceManager& sources;
  const syntax::Rule& rule;
  std::string Text(const Span& span) const { return OneLine(sources, span); }
};

RuleSummary Summarize(const RuleEntry& e) {
  return {e.info->id, e.info->rule->name, SeverityName(e.info->severity), e.defined_at};
}

const char* Keyword(syntax::ClauseKind kind) {
  return kind == syntax::ClauseKind::kFor   ? "for"
         : kind == syntax::ClauseKind::kLet ? "let"
                                            : "where";
}

// What decides whether two clauses are the same: kind, variable, canonical expression.
std::string ClauseKey(const syntax::Clause& c) {
  return std::string(Keyword(c.kind)) + ' ' + c.var + ' ' + syntax::CanonicalExpr(*c.expr);
}

// Pairs of equal clauses (old index, new index), in order: a longest common subsequence.
std::vector<std::pair<size_t, size_t>> AlignClauses(const std::vector<std::string>& a,
                                                    const std::vector<std::string>& b) {
  std::vector<std::vector<size_t>> longest(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;) {
    for (size_t j = b.size(); j-- > 0;) {
      longest[i][j] =
          a[i] == b[j] ? longest[i + 1][j + 1] + 1 : std::max(longest[i + 1][j], longest[i][j + 1]);
    }
  }
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) {
      pairs.emplace_back(i++, j++);
    } else if (longest[i + 1][j] >= longest[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return pairs;
}

// The clauses between two aligned pairs: paired up in order as changed,
// the rest removed or added.
void GapChanges(const RuleSide& o, size_t i0, size_t i1, const RuleSide& n, size_t j0, size_t j1,
                std::vector<ClauseChange>* out) {
  const auto& oc = o.rule.clauses;
  const auto& nc = n.rule.clauses;
  for (size_t i = i0, j = j0; i < i1 || j < j1; ++i, ++j) {
    ClauseChange c;
    if (i < i1) {
      c.old_index = i + 1;
      c.old_text = o.Text(oc[i].span);
      c.keyword = Keyword(oc[i].kind);
    }
    if (j < j1) {
      c.new_index = j + 1;
      c.new_text = n.Text(nc[j].span);
      c.keyword = Keyword(nc[j].kind);
    }
    c.kind = i >= i1   ? ClauseChange::Kind::kAdded
             : j >= j1 ? ClauseChange::Kind::kRemoved
                       : ClauseChange::Kind::kChanged;
    out->push_back(std::move(c));
  }
}

std::vector<ClauseChange> CompareClauses(const RuleSide& o, const RuleSide& n) {
  std::vector<std::string> a, b;
  for (const syntax::Clause& c : o.rule.clauses) a.push_back(ClauseKey(c));
  for (const syntax::Clause& c : n.rule.clauses) b.push_back(ClauseKey(c));
  std::vector<std::pair<size_t, size_t>> pairs = AlignClauses(a, b);
  pairs.emplace_back(a.size(), b.size());  // the gap after the last pair
  std::vector<ClauseChange> changes;
  size_t i = 0, j = 0;
  for (const auto& [pi, pj] : pairs) {
    GapChanges(o, i, pi, n, j, pj, &changes);
    i = pi + 1;
    j = pj + 1;
  }
  return changes;
}

std::string TemplateKey(const syntax::Template& t) {
  std::string out;
  for (const syntax::Template::Part& part : t.parts)
    out += part.expr ? "{" + syntax::CanonicalExpr(*part.expr) + "}"
                     : Value::String(part.text).ToLiteral();
  return out;
}

std::string ExprKey(const syntax::ExprPtr& e) {
  return e ? syntax::CanonicalExpr(*e) : "";
}

// The deny/warn statements, compared by position: each part by its
// canonical form, shown as written.
void CompareEmits(const RuleSide& o, const RuleSide& n, std::vector<FieldChange>* out) {
  const auto& oe = o.rule.emits;
  const auto& ne = n.rule.emits;
  for (size_t i = 0; i < std::max(oe.size(), ne.size()); ++i) {
    const syntax::Emit& any = i < ne.size() ? ne[i] : oe[i];
    std::string label = std::string(any.is_warn ? "warn " : "deny ") + std::to_string(i + 1);
    if (i >= ne.size() || i >= oe.size()) {
      out->push_back({label, i < oe.size() ? o.Text(oe[i].span) : "",
                      i < ne.size() ? n.Text(ne[i].span) : ""});
      continue;
    }
    const syntax::Emit& a = oe[i];
    const syntax::Emit& b = ne[i];
    if (a.is_warn != b.is_warn)
      out->push_back({label + " kind", a.is_warn ? "warn" : "deny", b.is_warn ? "warn" : "deny"});
    auto text = [](const RuleSide& s, const syntax::ExprPtr& e) {
      return e ? s.Text(e->span) : "";
    };
    if (ExprKey(a.when) != ExprKey(b.when))
      out->push_back({label + " when", text(o, a.when), text(n, b.when)});
    if (ExprKey(a.at) != ExprKey(b.at))
      out->push_back({label + " at", text(o, a.at), text(n, b.at)});
    if (TemplateKey(a.message) != TemplateKey(b.message))
      out->push_back({label + " message", o.Text(a.message.span), n.Text(b.message.span)});
    if (a.because != b.because) out->push_back({label + " because", a.because, b.because});
    if (a.fix != b.fix) out->push_back({label + " fix", a.fix, b.fix});
  }
}

// The params a rule reads, by name: type and value (the default, since the
// diff reads no config).
std::vector<FieldChange> CompareParams(const std::vector<ParamEntry>& o,
                                       const std::vector<ParamEntry>& n) {
  std::map<std::string, std::pair<std::string, std::string>> sides;
  for (const ParamEntry& p : o) sides[p.name].first = p.type + " = " + p.value;
  for (const ParamEntry& p : n) sides[p.name].second = p.type + " = " + p.value;
  std::vector<FieldChange> changes;
  for (const auto& [name, values] : sides) {
    if (values.first != values.second)
      changes.push_back({"param " + name, values.first, values.second});
  }
  return changes;
}

RuleChange CompareRule(const Engine& old_rules, const RuleEntry& o, const Engine& new_rules,
                       const RuleEntry& n) {
  RuleChange c{Summarize(n), {}, {}, {}};
  const check::RuleInfo& a = *o.info;
  const check::RuleInfo& b = *n.info;
  auto field = [&](const char* name, const std::string& x, const std::string& y) {
    if (x != y) c.fields.push_back({name, x, y});
  };
  field("name", a.rule->name, b.rule->name);
  field("severity", SeverityName(a.severity), SeverityName(b.severity));
  field("owner", a.owner, b.owner);
  field("tags", Joined(a.tags, ", "), Joined(b.tags, ", "));
  field("source", a.source, b.source);
  field("doc", a.rule->doc, b.rule->doc);
  RuleSide old_side{old_rules.sources(), *a.rule}, new_side{new_rules.sources(), *b.rule};
  CompareEmits(old_side, new_side, &c.fields);
  c.params = CompareParams(o.params, n.params);
  c.clauses = CompareClauses(old_side, new_side);
  return c;
}

// ---- findings

bool IsRule(const check::Program& program, const std::string& id) {
  auto it =
      std::lower_bound(program.rules.begin(), program.rules.end(), id,
                       [](const check::RuleInfo& r, const std::string& x) { return r.id < x; });
  return it != program.rules.end() && it->id == id;
}

// The findings of one lint run by key. File names are kept as the run had
// them (both versions lint the same named files), not made relative.
// A lint's findings are located in `sources` (the engine's, or an
// extension of them).
struct Linted {
  const Engine& engine;
  const SourceManager& sources;
  const eval::LintReport& report;
};

std::multimap<std::string, DiffFinding> KeyFindings(const Linted& linted) {
  const Engine& engine = linted.engine;
  const eval::LintReport& report = linted.report;
  std::multimap<std::string, DiffFinding> out;
  FindingKeys keys(linted.sources, engine.options().facts, ".", "/");  // files: as run
  auto add = [&](FindingKey k, const std::string& severity, const SourceLoc& loc,
                 const std::string& message) {
    k.file = std::string(linted.sources.Path(loc.file));
    std::string key = k.Fingerprint();
    return &out.emplace(key, DiffFinding{k.rule,
                                         severity,
                                         k.file,
                                         loc.line,
                                         loc.column,
                                         k.at,
                                         message,
                                         key,
                                         k.statement,
                                         {},
                                         {},
                                         {},
                                         {}})
                ->second;
  };
  for (const eval::Violation& v : report.violations) {
    DiffFinding* f = add(keys.Of(v), SeverityName(v.severity), v.loc, v.message);
    f->measure = v.measure;
    f->measure_of = v.measure_of;
  }
  for (const Diagnostic& d : report.errors.items()) {
    if (!IsRule(*engine.program(), d.code)) continue;  // fact problems: the same for both versions
    add(FindingKey{d.code, "", keys.FactPath(d.loc), "error: " + d.message, "", ""}, "error", d.loc,
        "rule error: " + d.message);
  }
  return out;
}

bool Before(const DiffFinding& a, const DiffFinding& b) {
  return std::tie(a.file, a.line, a.column, a.rule, a.message) <
         std::tie(b.file, b.line, b.column, b.rule, b.message);
}

void Insert(const DiffFinding& f, std::vector<DiffFinding>* list) {
  auto it = std::lower_bound(list->begin(), list->end(), f, Before);
  if (it != list->end() && it->key == f.key && !Before(f, *it)) return;  // seen in another fact set
  list->insert(it, f);
}

// A finding both versions report: unchanged, or in the category of what changed.
void Paired(const DiffFinding& before, const DiffFinding& now, FindingsDiff* diff) {
  bool severity = before.severity != now.severity;
  bool worse = eval::MeasureGrew(now.measure, before.measure);
  bool better = eval::MeasureGrew(before.measure, now.measure);
  if (!severity && !worse && !better) {
    diff->unchanged.insert(now.key);
    return;
  }
  DiffFinding f = now;
  f.old_severity = before.severity;
  f.old_measure = before.measure;
  Insert(f, severity ? &diff->severity_changed : worse ? &diff->worse : &diff->better);
}

// Rule, file and fact path: a finding's place, without its bindings.
std::string Place(const DiffFinding& f) {
  return f.rule + " " + f.file + " " + f.at;
}

// Findings one run reports and the other does not. First by key; then what
// is left pairs up by place, since a `let` added to a rule or a variable
// renamed changes the bindings of every finding but not what it is about —
// with the same statement first, so that when one statement's finding
// changed and another's appeared at the same fact, the new one is shown.
void Compare(const Linted& old_lint, const Linted& new_lint, FindingsDiff* diff) {
  std::multimap<std::string, DiffFinding> a = KeyFindings(old_lint);
  std::multimap<std::string, DiffFinding> b = KeyFindings(new_lint);
  std::set<std::string> keys;
  for (const auto& [key, f] : a) keys.insert(key);
  for (const auto& [key, f] : b) keys.insert(key);
  std::multimap<std::string, const DiffFinding*> gone;
  std::vector<const DiffFinding*> came;
  for (const std::string& key : keys) {
    auto [a0, a1] = a.equal_range(key);
    auto [b0, b1] = b.equal_range(key);
    for (; a0 != a1 && b0 != b1; ++a0, ++b0) Paired(a0->second, b0->second, diff);
    for (; a0 != a1; ++a0) gone.emplace(Place(a0->second), &a0->second);
    for (; b0 != b1; ++b0) came.push_back(&b0->second);
  }
  auto pair_up = [&](const DiffFinding* f, bool same_statement) {
    auto [it, end] = gone.equal_range(Place(*f));
    while (it != end && same_statement && it->second->statement != f->statement) ++it;
    if (it == end) return false;
    Paired(*it->second, *f, diff);
    gone.erase(it);
    return true;
  };
  std::vector<const DiffFinding*> unpaired;
  for (const DiffFinding* f : came) {
    if (!pair_up(f, true)) unpaired.push_back(f);
  }
  for (const DiffFinding* f : unpaired) {
    if (!pair_up(f, false)) Insert(*f, &diff->appeared);
  }
  for (const auto& [place, f] : gone) Insert(*f, &diff->disappeared);
}

}  // namespace

RulesDiff DiffRules(const Engine& old_rules, const Engine& new_rules) {
  RulesDiff d;
  d.old_digest = old_rules.ruleset_digest();
  d.new_digest = new_rules.ruleset_digest();
  std::vector<RuleEntry> a = BuildCatalog(old_rules), b = BuildCatalog(new_rules);
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].info->id < b[j].info->id)) {
      d.removed.push_back(Summarize(a[i++]));
    } else if (i == a.size() || b[j].info->id < a[i].info->id) {
      d.added.push_back(Summarize(b[j++]));
    } else {
      RuleChange c = CompareRule(old_rules, a[i++], new_rules, b[j++]);
      if (c.fields.empty() && c.params.empty() && c.clauses.empty()) {
        ++d.unchanged;
      } else {
        d.changed.push_back(std::move(c));
      }
    }
  }
  return d;
}

int VerdictChange(const DiffFinding& f, FailOn fail_on) {
  Severity before = Severity::kInfo, now = Severity::kInfo;
  if (f.old_severity.empty() || !ParseSeverity(f.old_severity, &before) ||
      !ParseSeverity(f.severity, &now))
    return 0;
  return static_cast<int>(Reaches(now, fail_on)) - static_cast<int>(Reaches(before, fail_on));
}

std::vector<RuleFindingCounts> CountByRule(const FindingsDiff& diff) {
  std::map<std::string, RuleFindingCounts> by_rule;
  auto count = [&](const std::string& rule) -> RuleFindingCounts& {
    RuleFindingCounts& c = by_rule[rule];
    c.rule = rule;
    return c;
  };
  for (const DiffFinding& f : diff.appeared) ++count(f.rule).appeared;
  for (const DiffFinding& f : diff.disappeared) ++count(f.rule).disappeared;
  for (const DiffFinding& f : diff.severity_changed) ++count(f.rule).severity_changed;
  for (const DiffFinding& f : diff.worse) ++count(f.rule).worse;
  for (const DiffFinding& f : diff.better) ++count(f.rule).better;
  // A key starts with its rule id (FindingKey::Fingerprint).
  for (const std::string& key : diff.unchanged) ++count(key.substr(0, key.find(' '))).unchanged;
  std::vector<RuleFindingCounts> out;
  for (auto& [rule, c] : by_rule) out.push_back(c);
  return out;
}

void DiffFindingsOn(Engine* old_rules, Engine* new_rules, const FactSet& facts,
                    FindingsDiff* diff) {
  eval::LintReport a = old_rules->Lint(facts.plans, facts.inventories);
  eval::LintReport b = new_rules->Lint(facts.plans, facts.inventories);
  Compare({*old_rules, old_rules->sources(), a}, {*new_rules, new_rules->sources(), b}, diff);
  ++diff->fixtures;
}

void DiffPlanReports(const Engine& old_rules, const SourceManager& old_facts,
                     const eval::LintReport& old_report, const Engine& new_rules,
                     const SourceManager& new_facts, const eval::LintReport& new_report,
                     size_t plan_files, FindingsDiff* diff) {
  Compare({old_rules, old_facts, old_report}, {new_rules, new_facts, new_report}, diff);
  diff->plans += plan_files;
}

}  // namespace capops::lint
