// SPDX-License-Identifier: Apache-2.0
// The eval command: load policies (for their params and enums) and facts,
// then check and evaluate each expression and print its value.
#include "engine/cli/eval_command.h"

#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/common/escape.h"
#include "engine/report/report.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli {

namespace {

// Prints one expression's outcome; returns its exit code.
int EvalOne(Engine& engine, const std::string& text, const eval::Facts& facts,
            const EvalCommandOptions& options, std::ostream& out, std::ostream& err) {
  Engine::ExpressionResult r = engine.EvaluateExpression(text, facts, options.explain);
  if (!r.compiled) {
    // In JSON each expression gets its line, so a reader of `-` can pair them.
    if (options.format == report::Format::kJson) {
      out << "{\"expression\": " << report::ValueJson(Value::String(text))
          << ", \"errors\": " << report::DiagnosticsJson(engine.sources(), r.diagnostics) << "}\n";
    } else {
      report::WriteDiagnostics(engine.sources(), r.diagnostics, {false, options.color}, err);
    }
    return kExitUsage;
  }
  bool failed = r.value.is_error();
  if (options.format == report::Format::kJson) {
    out << "{\"expression\": " << report::ValueJson(Value::String(text))
        << ", \"type\": " << report::ValueJson(Value::String(r.type))
        << ", \"value\": " << report::ValueJson(r.value) << "}\n";
  } else if (failed) {
    out << "error: " << Visible(r.value.string_value()) << '\n';
  } else {
    out << Visible(r.value.ToLiteral()) << "  : " << Visible(r.type) << '\n';
  }
  if (options.explain && options.format != report::Format::kJson)
    report::WriteTrace(engine.sources(), r.AsTraceStep(), {false, options.color}, out);
  return failed ? kExitFindings : kExitClean;
}

}  // namespace

int RunEval(const EvalCommandOptions& options, std::istream& in, std::ostream& out,
            std::ostream& err) {
  Engine engine(options.engine);
  eval::Facts facts;
  int failed = PrepareEngine(workspace::DiskFileSystem(), options.policies, options.plans,
                             options.inventories, options.color, &engine, &facts, err);
  if (failed >= 0) return failed;
  if (options.expression != "-")
    return EvalOne(engine, options.expression, facts, options, out, err);
  int worst = kExitClean;
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    worst = std::max(worst, EvalOne(engine, line, facts, options, out, err));
  }
  return worst;
}

}  // namespace capops::cli
