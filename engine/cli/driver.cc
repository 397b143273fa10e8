// Command-line parsing (CLI11) and logging set-up; hands off to a command.
#include "engine/cli/driver.h"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "engine/cli/check_command.h"
#include "engine/cli/check_rules_command.h"
#include "engine/cli/doc_command.h"
#include "engine/cli/fmt_command.h"
#include "engine/lint/result_cache.h"
#include "engine/cli/rules_command.h"
#include "engine/cli/test_command.h"
#include "engine/cli/eval_command.h"
#include "engine/cli/explain_command.h"
#include "engine/cli/why_not_command.h"
#include "engine/common/escape.h"

namespace capops::cli {

namespace {

// Logs go to the error stream, never into a report on stdout.
void SetUpLogging(std::ostream& err, bool verbose) {
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_st>(err);
  auto logger = std::make_shared<spdlog::logger>("capops", sink);
  logger->set_pattern("capops-lint: %l: %v");
  logger->set_level(verbose ? spdlog::level::debug : spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

// SetUpLogging's logger writes into the caller's `err`, which need not
// outlive Run (tests and embedders pass a string stream): the logger that was
// in place before comes back when Run returns.
class LoggerScope {
 public:
  ~LoggerScope() { spdlog::set_default_logger(previous_); }

 private:
  std::shared_ptr<spdlog::logger> previous_ = spdlog::default_logger();
};

bool WantColor(const std::string& mode, std::ostream& out) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return &out == &std::cout && isatty(STDOUT_FILENO) != 0;
}

// Limits against hostile input; every breach is a located error naming its
// flag. Each takes a whole number in a stated range: a negative, zero or
// overflowing value is refused rather than read as "no limit".
void AddLimitOptions(CLI::App* app, EngineOptions* o) {
  const char* group = "Limits";
  auto limit = [&](const char* flag, auto* value, const char* what, uint64_t max) {
    app->add_option(flag, *value, what)
        ->group(group)
        ->capture_default_str()
        ->check(CLI::Range(uint64_t{1}, max));
  };
  limit("--max-file-size", &o->facts.max_file_bytes, "bytes in one fact file", uint64_t{1} << 32);
  limit("--max-depth", &o->facts.max_depth, "nesting of YAML maps and lists", 400);
  limit("--max-values", &o->facts.max_nodes, "values in one YAML document, aliases expanded", uint64_t{1} << 32);
  limit("--max-documents", &o->facts.max_documents, "YAML documents in one file", 1'000'000);
  limit("--max-string-length", &o->facts.max_string_length, "bytes in one YAML value", uint64_t{1} << 31);
  limit("--max-steps", &o->eval.max_steps, "evaluation steps per rule and plan, for each MiB of facts",
        uint64_t{1} << 40);
  limit("--max-memory", &o->eval.max_memory, "bytes of strings, lists and maps built per rule and plan",
        uint64_t{1} << 40);
}

// The help shows `--cache[=DIR]` as it is written, not CLI11's notation for
// a flag's default value (`--cache{.capops-cache}`).
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* opt, bool positional) const override {
    if (!positional && opt->check_lname("cache")) return "--cache[=DIR]";
    return CLI::Formatter::make_option_name(opt, positional);
  }
};

}  // namespace

int Run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return Run(argc, argv, std::cin, out, err);
}

namespace {

int Dispatch(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  CLI::App app{"Checks capacity plans against capacity-operations policies.", "capops-lint"};
  app.formatter(std::make_shared<HelpFormatter>());
  CheckOptions options;
  std::string format = "text", color = "auto", fail_on;
  bool verbose = false;
  // One value per flag (`--policy a --policy b`), so plan files are never swallowed.
  app.add_option("--policy", options.policies, "policy file or directory (repeatable; default: the shipped pack)")
      ->allow_extra_args(false);
  app.add_option("--inventory", options.inventories,
                 "inventory file (repeatable; default: inventory.yaml beside each plan)")
      ->allow_extra_args(false);
  app.add_option("--format", format, "output format")
      ->check(CLI::IsMember({"text", "short", "json", "sarif", "junit", "github"}));
  app.add_option("-o,--output", options.output, "write the report to FILE instead of stdout");
  app.add_option("--config", options.config, "config file (default: .capops.yaml here or in a parent directory)");
  app.add_flag("--no-config", options.no_config, "do not look for .capops.yaml");
  app.add_option("--waivers", options.waivers, "waivers file (default: the config's `waivers`)");
  app.add_option("--baseline", options.baseline, "report only findings not listed in this baseline file");
  app.add_option("--write-baseline", options.write_baseline, "record the findings in FILE, then report only new ones");
  app.add_flag("--explain", options.explain, "show each violation's evidence and clause trace");
  // A flag whose value, if any, is attached with `=` (as git's --color[=WHEN]):
  // `--cache plans/` lints plans/ with the default cache, never caches into it.
  app.add_flag(std::string("--cache{") + lint::kDefaultCacheDir + "}", options.cache,
               std::string("reuse the findings of unchanged plan files, kept in DIR (default: ") + lint::kDefaultCacheDir + ")");
  app.add_option("--fail-on", fail_on, "lowest severity that fails the run (default: the config's, else error)")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  app.add_option("--color", color, "colour the text output")->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("-v,--verbose", verbose, "log what is loaded (to stderr)");
  app.add_option("-j,--jobs", options.engine.jobs, "threads for files, plans and rules (default: the cores available)")
      ->check(CLI::Range(1, 256));
  app.add_flag("--allow-empty", options.allow_empty,
               "exit 0 even when no plan was found or every rule is disabled");
  app.set_version_flag("--version", std::string("capops-lint ") + CAPOPS_VERSION);
  app.add_option("plans", options.plans, "plan files, directories or globs (default: the config's `plans`)");
  AddLimitOptions(&app, &options.engine);

  std::string why_not, why_not_at;
  app.add_option("--why-not", why_not, "explain why this rule did not fire (with --at)");
  app.add_option("--at", why_not_at, "the fact for --why-not: `allocations[a-train]` or `plan.yaml:37`");

  ExplainOptions explain_options;
  CLI::App* explain = app.add_subcommand("explain", "print a rule's documentation, parameters and source");
  explain->add_option("rule", explain_options.rule_id, "rule id (or name)")->required();
  explain->add_option("--policy", explain_options.policies, "policy file or directory")->allow_extra_args(false);

  EvalCommandOptions eval_options;
  CLI::App* eval = app.add_subcommand("eval", "type-check and evaluate one CPL expression against the facts");
  eval->add_option("expression", eval_options.expression, "a CPL expression, or - to read one per line")
      ->required();
  eval->add_option("plans", eval_options.plans, "plan file");
  eval->add_option("--inventory", eval_options.inventories, "inventory file")->allow_extra_args(false);
  eval->add_option("--policy", eval_options.policies, "policy file or directory")->allow_extra_args(false);
  eval->add_option("--format", format, "output format")->check(CLI::IsMember({"text", "json"}));
  eval->add_flag("--explain", eval_options.explain, "show each sub-expression's value");

  CheckRulesOptions rules_options;
  CLI::App* check_rules =
      app.add_subcommand("check-rules", "compile and type-check policies without facts (exit 0 or 2)");
  check_rules->add_option("paths", rules_options.policies, "policy files or directories (default: the shipped pack)");
  check_rules->add_flag("--cost", rules_options.cost, "show each rule's static cost bound");
  check_rules->add_flag("--plan", rules_options.plan, "show how each rule will run: clause order, joins, values computed once");
  TestOptions test_options;
  CLI::App* test = app.add_subcommand("test", "run the policy tests (`*_test.cpl`) of policy packs");
  test->add_option("paths", test_options.policies, "policy files or directories (default: the shipped pack)");
  test->add_flag("--coverage", test_options.coverage, "report rule and condition (`where`/`when`) coverage");
  test->add_option("--min-coverage", test_options.min_coverage, "fail when rule or condition coverage is below N%")
      ->check(CLI::Range(0.0, 100.0));
  test->add_option("--format", format, "output format")->check(CLI::IsMember({"text", "json"}));

  RulesOptions rules_list_options;
  CLI::App* rules = app.add_subcommand(
      "rules", "list the rules of policy packs, print the ruleset digest, or compare two versions (--diff)");
  rules->add_option("paths", rules_list_options.policies,
                    "policy files or directories (default: the shipped pack); with --diff: plans, directories or globs");
  CLI::Option* rules_diff =
      rules->add_option("--diff", rules_list_options.diff,
                        "compare two rule sets, and their findings on both versions' test fixtures and the plans "
                        "given; OLD may be `git:REV`: NEW as of git revision REV")
          ->expected(2)->allow_extra_args(false)->type_name("OLD NEW");
  rules->add_option("--inventory", rules_list_options.inventories,
                    "inventory for the plans of --diff (repeatable; default: inventory.yaml beside each plan)")
      ->allow_extra_args(false)->needs(rules_diff);
  rules->add_flag("--fail-on-new", rules_list_options.fail_on_new, "with --diff: exit 1 when a finding appears")
      ->needs(rules_diff);
  rules->add_flag("--digest", rules_list_options.digest, "print only the ruleset digest")->excludes(rules_diff);
  rules->add_flag("--canonical", rules_list_options.canonical, "print the canonical form the digest hashes")
      ->excludes(rules_diff);
  rules->add_option("--format", format, "output format")->check(CLI::IsMember({"text", "json", "markdown"}));

  DocOptions doc_options;
  CLI::App* doc = app.add_subcommand("doc", "write a Markdown and HTML catalogue of policy packs");
  doc->add_option("paths", doc_options.policies, "policy files or directories (default: the shipped pack)");
  doc->add_option("-o,--output", doc_options.out_dir, "output directory")->required();

  FmtOptions fmt_options;
  CLI::App* fmt = app.add_subcommand("fmt", "rewrite CPL files in place in one canonical layout");
  fmt->add_option("paths", fmt_options.paths, "CPL files or directories")->required();
  fmt->add_flag("--check", fmt_options.check, "list the files that would change; exit 1 if any");
  app.require_subcommand(0, 1);

  try {
    app.parse(argc, argv);
    bool subcommand = check_rules->parsed() || explain->parsed() || eval->parsed() || test->parsed() ||
                      rules->parsed() || doc->parsed() || fmt->parsed();
    // For a check, plan files may also come from .capops.yaml: RunCheck says when there are none.
    if (!subcommand && !why_not.empty() && options.plans.empty()) throw CLI::ValidationError("no plan files given");
    if (why_not.empty() != why_not_at.empty()) throw CLI::ValidationError("--why-not and --at go together");
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitClean;
  } catch (const CLI::CallForVersion&) {
    out << "capops-lint " << CAPOPS_VERSION << '\n';
    return kExitClean;
  } catch (const CLI::ParseError& e) {
    std::string reason = e.what();
    if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
    err << "capops-lint: error: " << reason << '\n' << "run `capops-lint --help` for usage\n";
    return kExitUsage;
  }
  LoggerScope logger_scope;
  SetUpLogging(err, verbose);
  if (test->parsed()) {
    test_options.json = format == "json";
    test_options.color = WantColor(color, out);
    return RunTest(test_options, out, err);
  }
  if (rules->parsed()) {
    rules_list_options.format = format;
    return RunRules(rules_list_options, out, err);
  }
  if (doc->parsed()) return RunDoc(doc_options, out, err);
  if (fmt->parsed()) {
    fmt_options.color = WantColor(color, out);
    return RunFmt(fmt_options, out, err);
  }
  if (check_rules->parsed()) {
    rules_options.color = WantColor(color, out);
    return RunCheckRules(rules_options, out, err);
  }
  if (explain->parsed()) {
    explain_options.color = WantColor(color, out);
    return RunExplain(explain_options, out, err);
  }
  if (eval->parsed()) {
    eval_options.json = format == "json";
    eval_options.color = WantColor(color, out);
    eval_options.engine = options.engine;
    return RunEval(eval_options, in, out, err);
  }
  options.format = format == "json"     ? Format::kJson
                   : format == "short"  ? Format::kShort
                   : format == "sarif"  ? Format::kSarif
                   : format == "junit"  ? Format::kJunit
                   : format == "github" ? Format::kGithub
                                        : Format::kText;
  options.color = options.format == Format::kText && options.output.empty() && WantColor(color, out);
  lint::FailOn threshold;
  if (lint::ParseFailOn(fail_on, &threshold)) options.fail_on = threshold;
  if (!why_not.empty()) return RunWhyNot(options, why_not, why_not_at, out, err);
  return RunCheck(options, out, err);
}

int InternalError(std::ostream& err, const std::string& what) {
  err << "capops-lint: internal error: " << Visible(what) << '\n'
      << "help: this is a defect in capops-lint, not in your files; please report it with the command line\n";
  return kExitUsage;
}

}  // namespace

// Nothing escapes as a crash or an exit code above 2: an unexpected failure
// is an internal error (exit 2), and so is a report that could not be
// written out whole (a closed pipe, a full disk): a lost report is not a
// clean run.
int Run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  try {
    int code = Dispatch(argc, argv, in, out, err);
    if (!out.flush()) {
      err << "capops-lint: error: cannot write the output (closed or full)\n";
      return kExitUsage;
    }
    return code;
  } catch (const std::bad_alloc&) {
    return InternalError(err, "out of memory");
  } catch (const std::exception& e) {
    return InternalError(err, e.what());
  } catch (...) {
    return InternalError(err, "an unknown failure");
  }
}

}  // namespace capops::cli
