// SPDX-License-Identifier: Apache-2.0
// A static cost bound per rule: the product of the collections its `for`
// clauses loop over, times the sum over its clauses of the deepest nest of
// macros in each. Keyed lookups (`inventory.pools[a.pool]`) are O(1) and do
// not count.
#include <algorithm>

#include "engine/check/internal.h"

namespace capops::check::internal {

namespace {

std::string Text(const syntax::Expr& e, const SourceManager& sources) {
  const std::string& text = sources.file(e.span.file).text();
  std::string out = text.substr(e.span.begin, e.span.end - e.span.begin);
  out.erase(std::remove(out.begin(), out.end(), '\n'), out.end());
  return out;
}

// The factors of the deepest macro nest in `e`.
std::vector<std::string> MacroFactors(const syntax::Expr& e, const SourceManager& sources) {
  std::vector<std::string> deepest;
  for (const auto& arg : e.args) {
    std::vector<std::string> inner = MacroFactors(*arg, sources);
    if (inner.size() > deepest.size()) deepest = std::move(inner);
  }
  if (e.kind == syntax::ExprKind::kMacro) {
    // The range is evaluated once; the body once per item.
    std::vector<std::string> body;
    for (size_t i = 1; i < e.args.size(); ++i) {
      std::vector<std::string> inner = MacroFactors(*e.args[i], sources);
      if (inner.size() > body.size()) body = std::move(inner);
    }
    // A timeline sorts its items' windows: n log n, then reads each once.
    std::string n = "|" + Text(*e.args[0], sources) + "|";
    body.insert(body.begin(), e.macro == syntax::MacroKind::kTimeline ? n + " log " + n : n);
    if (body.size() >= deepest.size()) deepest = std::move(body);
  }
  return deepest;
}

}  // namespace

std::string CostBound(const syntax::Rule& rule, const SourceManager& sources) {
  std::vector<std::string> loops;
  std::vector<std::string> terms;  // one product per clause with macros
  auto consider = [&](const syntax::Expr& e) {
    std::vector<std::string> f = MacroFactors(e, sources);
    if (f.empty()) return;
    std::string term;
    for (size_t i = 0; i < f.size(); ++i) term += (i == 0 ? "" : " · ") + f[i];
    if (std::find(terms.begin(), terms.end(), term) == terms.end()) terms.push_back(term);
  };
  for (const syntax::Clause& c : rule.clauses) {
    if (c.kind == syntax::ClauseKind::kFor) loops.push_back("|" + Text(*c.expr, sources) + "|");
    consider(*c.expr);
  }
  for (const syntax::Emit& e : rule.emits) {
    if (e.when) consider(*e.when);
    for (const auto& part : e.message.parts) {
      if (part.expr) consider(*part.expr);
    }
  }
  if (terms.size() == 1) loops.push_back(terms[0]);
  if (terms.size() > 1) {
    std::string sum;
    for (size_t i = 0; i < terms.size(); ++i) sum += (i == 0 ? "" : " + ") + terms[i];
    loops.push_back("(" + sum + ")");
  }
  if (loops.empty()) return "O(1)";
  std::string out = "O(";
  for (size_t i = 0; i < loops.size(); ++i) out += (i == 0 ? "" : " · ") + loops[i];
  return out + ")";
}

}  // namespace capops::check::internal
