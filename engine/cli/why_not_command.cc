// SPDX-License-Identifier: Apache-2.0
// The why-not mode: resolve the selector to a fact, replay the rule along it,
// and print each path's first failing clause, power-assert style.
#include "engine/cli/why_not_command.h"

#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/cli/stdin_plan.h"
#include "engine/common/escape.h"
#include "engine/lint/fact_selector.h"
#include "engine/report/report.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli {

namespace {

void WriteOutcome(const Engine& engine, const eval::WhyNotOutcome& o, const WhyNotOptions& options,
                  std::ostream& out) {
  report::TextOptions text{false, options.color};
  out << "binding:";
  for (const eval::Evidence& e : o.bindings) {
    out << ' ' << Visible(e.name) << " = " << Visible(e.value);
    if (e.loc.valid())
      out << " (" << Visible(engine.sources().ShownPath(e.loc.file)) << ':' << e.loc.line << ')';
    out << ';';
  }
  if (o.bindings.empty()) out << " none (the rule binds no variable)";
  out << '\n';
  if (o.failed_clause.empty()) {
    out << (o.fired ? "  passes every clause and fires:\n"
                    : "  passes every clause, but no statement fires:\n");
    for (const eval::WhyNotStatement& s : o.statements) {
      if (o.fired && !s.fired) continue;  // what fires answers it
      if (!s.error.empty()) out << "  this statement erred: " << Visible(s.error) << '\n';
      report::WriteTrace(engine.sources(), s.trace, text, out);
      if (s.fired) out << "  finding: " << Visible(s.message) << '\n';
    }
    return;
  }
  if (!o.error.empty()) {
    out << "  stops at a clause that erred: " << Visible(o.error) << '\n';
  } else {
    out << (o.no_items ? "  stops at a `for` with nothing to range over:\n"
                       : "  stops at a false clause:\n");
  }
  report::WriteTrace(engine.sources(), o.trace, text, out);
}

}  // namespace

int RunWhyNot(const WhyNotOptions& options, std::istream& in, bool process_stdin, std::ostream& out,
              std::ostream& err) {
  const std::string& rule_id = options.rule_id;
  const std::string& selector = options.selector;
  std::vector<std::string> plans = options.plans;
  StdinPlan stdin_plan;
  std::string error;
  if (!TakeStdinPlan(&plans, options.stdin_filename, options.stdin_filename_given, in,
                     process_stdin, options.engine.facts.max_file_bytes, &stdin_plan, &error))
    return Fail(err, error);
  workspace::DiskFileSystem disk;
  workspace::OverlayFileSystem overlay(&disk);
  if (stdin_plan.used) overlay.Set(stdin_plan.name, std::move(stdin_plan.text));
  Engine engine(options.engine);
  eval::Facts facts;
  int failed = PrepareEngine(overlay, options.policies, plans, options.inventories, options.color,
                             &engine, &facts, err);
  if (failed >= 0) return failed;
  std::function<bool(const Value&)> focus;
  if (!lint::SelectFact(facts, engine.sources(), selector, &focus, &error)) return Fail(err, error);
  std::optional<eval::WhyNotResult> result = engine.WhyNot(rule_id, facts, focus);
  if (!result) return Fail(err, "no rule `" + rule_id + "`");
  out << "why-not " << Visible(rule_id) << " at `" << Visible(selector) << "`\n";
  if (!result->in_domain) {
    out << "`" << Visible(selector) << "` is not in the domain of " << Visible(rule_id)
        << ": none of its `for` clauses ranges over it\n";
    return kExitClean;
  }
  for (const eval::WhyNotOutcome& o : result->outcomes) WriteOutcome(engine, o, options, out);
  if (result->capped) {
    out << "stopped after " << result->outcomes.size()
        << " bindings through it; the others are not shown\n";
  }
  return kExitClean;
}

}  // namespace capops::cli
