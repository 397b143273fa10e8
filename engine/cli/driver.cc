// SPDX-License-Identifier: Apache-2.0
// Command-line parsing (CLI11) and logging set-up; hands off to a command.
#include "engine/cli/driver.h"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <type_traits>

#include "engine/cli/build_commit.h"
#include "engine/cli/check_command.h"
#include "engine/cli/check_rules_command.h"
#include "engine/cli/command_support.h"
#include "engine/cli/doc_command.h"
#include "engine/cli/eval_command.h"
#include "engine/cli/explain_command.h"
#include "engine/cli/fmt_command.h"
#include "engine/cli/help_formatter.h"
#include "engine/cli/init_command.h"
#include "engine/cli/params_command.h"
#include "engine/cli/rules_command.h"
#include "engine/cli/schema_command.h"
#include "engine/cli/test_command.h"
#include "engine/cli/why_not_command.h"
#include "engine/common/diagnostic.h"
#include "engine/common/escape.h"
#include "engine/lint/fail_on.h"
#include "engine/workspace/config_file.h"
#include "engine/workspace/policy_loader.h"
#include "engine/workspace/result_cache_dir.h"

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

// A number from `lo` to `hi` (a whole one for an integral T), refused with
// what is wrong with the text given: not a number at all, or out of range.
// Described as CLI::Range describes its range, which the help pages print.
template <typename T>
CLI::Validator NumberIn(T lo, T hi) {
  std::ostringstream range;
  range << lo << " to " << hi;
  std::ostringstream desc;
  desc << (std::is_integral_v<T> ? "INT" : "FLOAT") << " in [" << lo << " - " << hi << "]";
  return CLI::Validator(
      [lo, hi, range = range.str()](std::string& text) -> std::string {
        T value{};
        const char* end = text.data() + text.size();
        auto [at, ec] = std::from_chars(text.data(), end, value);
        bool number = !text.empty() && at == end && ec == std::errc();
        if (ec == std::errc::result_out_of_range || (number && (value < lo || value > hi)))
          return "`" + Visible(text) + "` is not from " + range;
        if (!number) {
          return "`" + Visible(text) + "` is not " +
                 (std::is_integral_v<T> ? "a whole number" : "a number") + " (from " + range + ")";
        }
        return "";
      },
      desc.str());
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
        ->check(NumberIn(uint64_t{1}, max));
  };
  limit("--max-file-size", &o->facts.max_file_bytes, "bytes in one fact file", uint64_t{1} << 32);
  limit("--max-depth", &o->facts.max_depth, "nesting of YAML maps and lists", 400);
  limit("--max-values", &o->facts.max_nodes, "values in one YAML document, aliases expanded",
        uint64_t{1} << 32);
  limit("--max-documents", &o->facts.max_documents, "YAML documents in one file", 1'000'000);
  limit("--max-string-length", &o->facts.max_string_length, "bytes in one YAML value",
        uint64_t{1} << 31);
  limit("--max-steps", &o->eval.max_steps,
        "evaluation steps per rule and plan, for each MiB of facts", uint64_t{1} << 40);
  limit("--max-memory", &o->eval.max_memory,
        "bytes of strings, lists and maps built per rule and plan", uint64_t{1} << 40);
}

}  // namespace

int Run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return Run(argc, argv, std::cin, out, err);
}

namespace {

// What every subcommand shares: the streams, and the `--format` and
// `--color` values (each subcommand admits its own set of formats).
struct Shared {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  std::string format = "text";
  std::string color = "auto";
  bool color_on() const { return WantColor(color, out); }
  /// The --format given (each subcommand admits only its own).
  report::Format format_enum() const {
    report::Format f = report::Format::kText;
    report::ParseFormat(format, &f);
    return f;
  }
};

// A subcommand: its parser and what runs once its flags are parsed.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

void FormatOption(CLI::App* app, Shared* shared, std::vector<std::string> formats) {
  app->add_option("--format", shared->format, "output format")
      ->check(CLI::IsMember(std::move(formats)));
}

// The flags of `why-not` and of the top-level lint that it shares.
void FactOptions(CLI::App* app, std::vector<std::string>* policies,
                 std::vector<std::string>* inventories) {
  // One value per flag (`--policy a --policy b`), so plan files are never swallowed.
  app->add_option("--policy", *policies,
                  "policy file or directory (repeatable; default: the shipped pack)")
      ->type_name("PATH")
      ->allow_extra_args(false);
  app->add_option("--inventory", *inventories,
                  "inventory file (repeatable; default: inventory.yaml beside each plan)")
      ->type_name("FILE")
      ->allow_extra_args(false);
}

// The top-level command: lint plans (check_command.h).
void AddCheckFlags(CLI::App* app, CheckOptions* o, std::string* fail_on) {
  workspace::SessionOptions& s = o->session;
  FactOptions(app, &s.policies, &s.inventories);
  app->add_option("-o,--output", s.output, "write the report to FILE instead of stdout")
      ->type_name("FILE");
  app->add_option("--config", s.config,
                  "config file (default: .capops.yaml here or in a parent directory)")
      ->type_name("FILE");
  app->add_flag("--no-config", s.no_config, "do not look for .capops.yaml");
  app->add_option("--waivers", s.waivers, "waivers file (default: the config's `waivers`)")
      ->type_name("FILE");
  app->add_option("--baseline", s.baseline,
                  "report only findings not listed in this baseline file, or grown past it")
      ->type_name("FILE");
  app->add_option("--write-baseline", s.write_baseline,
                  "record the findings in FILE, then report only new ones")
      ->type_name("FILE");
  app->add_flag("--explain", s.trace, "show each violation's evidence and clause trace");
  // A flag whose value, if any, is attached with `=` (as git's --color[=WHEN]):
  // `--cache plans/` lints plans/ with the default cache, never caches into it.
  app->add_flag(std::string("--cache{") + workspace::kDefaultCacheDir + "}", s.cache,
                std::string("reuse the findings of unchanged plan files, kept in DIR (default: ") +
                    workspace::kDefaultCacheDir + ")")
      ->option_text("[=DIR]");
  app->add_option("--fail-on", *fail_on,
                  "lowest severity that fails the run (default: the config's, else error)")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  app->add_option("--source-root", s.source_root,
                  "SARIF: the directory %SRCROOT% stands for (default: the repository of the "
                  "working directory)")
      ->type_name("DIR");
  app->add_option(
         "--rules-url", s.rules_url,
         "where the rule catalogue (`doc`) is published: SARIF links each rule to URL#RULE-ID")
      ->type_name("URL")
      ->check([](const std::string& url) {
        std::string why;
        return workspace::ValidRulesUrl(url, &why) ? std::string() : why;
      });
  app->add_option("-j,--jobs", s.engine.jobs,
                  "threads for files, plans and rules (default: the cores available)")
      ->check(NumberIn(1, 256));
  app->add_flag("--profile{text}", o->profile,
                "after the report, print what each rule cost to stderr, as a table or JSON; "
                "the rules then run one at a time and the cache is not used")
      ->check(CLI::IsMember({"text", "json"}))
      ->option_text("[=text|json]");
  app->add_flag("--allow-empty", s.allow_empty,
                "exit 0 even when no plan was found or every rule is disabled");
  CLI::Option* fix = app->add_flag(
      "--fix", o->fix,
      "apply the first fix of each fixable finding to the plan files, linting again after each, "
      "then report what remains");
  app->add_flag("--fix-dry-run", o->fix_dry_run,
                "print the unified diff --fix would make; write nothing")
      ->excludes(fix);
  app->add_flag("--fix-inventory", o->fix_inventory,
                "let --fix and --fix-dry-run edit inventory files too");
  app->add_option("--max-repair-lints", o->repair_lints,
                  "lints the capacity repair search may run to prove the repairs a report "
                  "shows; 0 searches none")
      ->type_name("N")
      ->capture_default_str()
      ->check(NumberIn(size_t{0}, size_t{1000}));
  app->add_option("plans", s.plans,
                  "plan files, directories or globs (default: the config's `plans`); `-` reads "
                  "one from standard input");
  app->add_option("--stdin-filename", o->stdin_filename,
                  "the path the plan read from standard input (`-`) is linted as: its findings "
                  "are located there and its default inventory found beside it (default: <stdin>)")
      ->type_name("PATH")
      ->each([o](const std::string&) { o->stdin_filename_given = true; });
  AddLimitOptions(app, &s.engine);
}

Command AddWhyNot(CLI::App* app, Shared* shared, const EngineOptions* limits) {
  auto o = std::make_shared<WhyNotOptions>();
  CLI::App* sub =
      app->add_subcommand("why-not", "explain why a rule did or did not fire for one fact");
  sub->add_option("rule", o->rule_id, "rule id")->required();
  sub->add_option("--at", o->selector, "the fact: `allocations[a-train]` or `plan.yaml:37`")
      ->type_name("FACT")
      ->required();
  sub->add_option("plans", o->plans, "plan file; `-` reads it from standard input")->required();
  sub->add_option("--stdin-filename", o->stdin_filename,
                  "the path the plan read from standard input (`-`) is read as (default: <stdin>)")
      ->type_name("PATH")
      ->each([o](const std::string&) { o->stdin_filename_given = true; });
  FactOptions(sub, &o->policies, &o->inventories);
  return {sub, [o, shared, limits] {
            o->color = shared->color_on();
            o->engine = *limits;
            return RunWhyNot(*o, shared->in, &shared->in == &std::cin, shared->out, shared->err);
          }};
}

Command AddExplain(CLI::App* app, Shared* shared) {
  auto o = std::make_shared<ExplainOptions>();
  CLI::App* sub =
      app->add_subcommand("explain", "print a rule's documentation, parameters and source");
  sub->add_option("rule", o->rule_id, "rule id (or name)")->required();
  sub->add_option("--policy", o->policies, "policy file or directory")
      ->type_name("PATH")
      ->allow_extra_args(false);
  return {sub, [o, shared] {
            o->color = shared->color_on();
            return RunExplain(*o, shared->out, shared->err);
          }};
}

Command AddEval(CLI::App* app, Shared* shared, const EngineOptions* limits) {
  auto o = std::make_shared<EvalCommandOptions>();
  CLI::App* sub =
      app->add_subcommand("eval", "type-check and evaluate one CPL expression against the facts");
  sub->add_option("expression", o->expression, "a CPL expression, or - to read one per line")
      ->required();
  sub->add_option("plans", o->plans, "plan file");
  sub->add_option("--inventory", o->inventories, "inventory file")
      ->type_name("FILE")
      ->allow_extra_args(false);
  sub->add_option("--policy", o->policies, "policy file or directory")
      ->type_name("PATH")
      ->allow_extra_args(false);
  FormatOption(sub, shared, {"text", "json"});
  sub->add_flag("--explain", o->explain, "show each sub-expression's value");
  return {sub, [o, shared, limits] {
            o->format = shared->format_enum();
            o->color = shared->color_on();
            o->engine = *limits;
            return RunEval(*o, shared->in, shared->out, shared->err);
          }};
}

Command AddCheckRules(CLI::App* app, Shared* shared) {
  auto o = std::make_shared<CheckRulesOptions>();
  CLI::App* sub = app->add_subcommand(
      "check-rules", "compile and type-check policies without facts (exit 0 or 2)");
  sub->add_option("paths", o->policies, "policy files or directories (default: the shipped pack)");
  sub->add_flag("--cost", o->cost, "show each rule's static cost bound");
  sub->add_flag(
      "--plan", o->plan,
      "show how each rule will run: its IR (scan, let, filter, emit), joins, values computed once");
  return {sub, [o, shared] {
            o->color = shared->color_on();
            return RunCheckRules(*o, shared->out, shared->err);
          }};
}

Command AddTest(CLI::App* app, Shared* shared) {
  auto o = std::make_shared<TestOptions>();
  CLI::App* sub =
      app->add_subcommand("test", "run the policy tests (`*_test.cpl`) of policy packs");
  sub->add_option("paths", o->policies, "policy files or directories (default: the shipped pack)");
  sub->add_flag("--coverage", o->coverage, "report rule and condition (`where`/`when`) coverage");
  sub->add_option("--min-coverage", o->min_coverage,
                  "fail when rule or condition coverage is below N%")
      ->check(NumberIn(0.0, 100.0));
  FormatOption(sub, shared, {"text", "json"});
  return {sub, [o, shared] {
            o->format = shared->format_enum();
            o->color = shared->color_on();
            return RunTest(*o, shared->out, shared->err);
          }};
}

Command AddRules(CLI::App* app, Shared* shared) {
  auto o = std::make_shared<RulesOptions>();
  CLI::App* sub = app->add_subcommand(
      "rules",
      "list the rules of policy packs, print the ruleset digest, or compare two versions (--diff)");
  sub->add_option("paths", o->policies,
                  "policy files or directories (default: the shipped pack); with --diff: plans, "
                  "directories or globs");
  CLI::Option* diff = sub->add_option("--diff", o->diff,
                                      "compare two rule sets, and their findings on both versions' "
                                      "test fixtures and the plans "
                                      "given; OLD may be `git:REV`: NEW as of git revision REV")
                          ->expected(2)
                          ->allow_extra_args(false)
                          ->type_name("OLD NEW");
  sub->add_option(
         "--inventory", o->inventories,
         "inventory for the plans of --diff (repeatable; default: inventory.yaml beside each plan)")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->needs(diff);
  sub->add_flag("--fail-on-new", o->fail_on_new,
                "with --diff: exit 1 when a finding appears, gets worse, or now fails --fail-on")
      ->needs(diff);
  sub->add_option("--fail-on", o->fail_on,
                  "with --diff: the lowest severity that fails a run, to tell which severity "
                  "changes fail it now (default: error)")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}))
      ->needs(diff);
  sub->add_option("--max-findings", o->max_findings,
                  "with --diff: list at most N findings in text and Markdown, saying how many "
                  "are left out; 0 lists all (default: " +
                      std::to_string(report::kDefaultMaxDiffFindings) + ")")
      ->type_name("N")
      ->check(NumberIn(size_t{0}, size_t{1000000000}))
      ->needs(diff);
  sub->add_flag("--digest", o->digest, "print only the ruleset digest")->excludes(diff);
  sub->add_flag("--canonical", o->canonical, "print the canonical form the digest hashes")
      ->excludes(diff);
  FormatOption(sub, shared, {"text", "json", "markdown"});
  return {sub, [o, shared] {
            o->format = shared->format_enum();
            return RunRules(*o, shared->out, shared->err);
          }};
}

Command AddParams(CLI::App* app, Shared* shared) {
  auto o = std::make_shared<ParamsOptions>();
  CLI::App* sub = app->add_subcommand(
      "params",
      "list every param: its type, default, the value in force and where it was set, the values "
      "set for single rules and the rules that read it (exit 0, or 2 for a bad config)");
  sub->add_option("--policy,--policies", o->policies,
                  "policy file or directory (repeatable; default: the config's, else the shipped "
                  "pack)")
      ->type_name("PATH")
      ->allow_extra_args(false);
  sub->add_option("--config", o->config,
                  "config file (default: .capops.yaml here or in a parent directory)")
      ->type_name("FILE");
  sub->add_flag("--no-config", o->no_config, "do not look for .capops.yaml: the defaults");
  FormatOption(sub, shared, {"text", "json"});
  return {sub, [o, shared] {
            o->format = shared->format_enum();
            o->color = shared->color_on();
            return RunParams(*o, shared->out, shared->err);
          }};
}

Command AddDoc(CLI::App* app, Shared* shared) {
  auto o = std::make_shared<DocOptions>();
  CLI::App* sub = app->add_subcommand(
      "doc", "write the rule catalogue and the fact schema reference (HTML and Markdown)");
  sub->add_option("paths", o->policies, "policy files or directories (default: the shipped pack)");
  sub->add_option("-o,--output", o->out_dir, "output directory")->type_name("DIR")->required();
  return {sub, [o, shared] { return RunDoc(*o, shared->out, shared->err); }};
}

Command AddSchema(CLI::App* app, Shared* shared) {
  auto o = std::make_shared<SchemaOptions>();
  CLI::App* sub = app->add_subcommand(
      "schema", "write the fact schema as a JSON Schema, for editors and validators");
  sub->add_option("paths", o->policies, "policy files or directories (default: the shipped pack)");
  sub->add_option("-o,--output", o->output, "write it to FILE instead of stdout")
      ->type_name("FILE");
  sub->add_option("--format", o->format, "output format")->check(CLI::IsMember({"json-schema"}));
  return {sub, [o, shared] { return RunSchema(*o, shared->out, shared->err); }};
}

Command AddInit(CLI::App* app, Shared* shared) {
  auto o = std::make_shared<InitOptions>();
  CLI::App* sub = app->add_subcommand(
      "init", "write an annotated plan and inventory to start from (never over a file)");
  sub->add_option(
      "dir", o->dir,
      "where to write plan.yaml, inventory.yaml and capops.schema.json (default: here)");
  return {sub, [o, shared] { return RunInit(*o, shared->out, shared->err); }};
}

Command AddFmt(CLI::App* app, Shared* shared) {
  auto o = std::make_shared<FmtOptions>();
  CLI::App* sub = app->add_subcommand("fmt", "rewrite CPL files in place in one canonical layout");
  sub->add_option("paths", o->paths, "CPL files or directories")->required();
  sub->add_flag("--check", o->check, "list the files that would change; exit 1 if any");
  return {sub, [o, shared] {
            o->color = shared->color_on();
            return RunFmt(*o, shared->out, shared->err);
          }};
}

// `help [SUBCOMMAND]`: the usage of capops-lint or of one subcommand, as
// `--help` prints it; an unknown name is a usage error with a did-you-mean.
int PrintHelp(const CLI::App& app, const std::string& topic, std::ostream& out, std::ostream& err) {
  if (topic.empty()) {
    // Not app.help(), which shows the subcommand parsed: `help` itself.
    out << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
    return kExitClean;
  }
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == topic) {
      out << sub->help(app.get_name());
      return kExitClean;
    }
    names.push_back(sub->get_name());
  }
  err << "capops-lint: error: no subcommand `" << Visible(topic) << "`\n";
  std::string closest = ClosestName(topic, names);
  if (!closest.empty()) err << "help: did you mean `" << closest << "`?\n";
  err << "run `capops-lint help` for the list of subcommands\n";
  return kExitUsage;
}

Command AddHelp(CLI::App* app, Shared* shared) {
  auto topic = std::make_shared<std::string>();
  CLI::App* sub =
      app->add_subcommand("help", "print the usage of capops-lint, or of one subcommand");
  sub->add_option("subcommand", *topic, "the subcommand (default: capops-lint itself)");
  return {sub, [app, topic, shared] { return PrintHelp(*app, *topic, shared->out, shared->err); }};
}

// `--why-not RULE --at SEL PLAN…`: the why-not subcommand's older spelling.
struct WhyNotAlias {
  std::string rule;
  std::string at;
};

// The top-level lint, or the why-not alias, once flags are parsed.
int RunTopLevel(CheckOptions* options, const WhyNotAlias& why_not, const std::string& fail_on,
                Shared* shared) {
  options->format = shared->format_enum();
  options->color = options->format == report::Format::kText && options->session.output.empty() &&
                   shared->color_on();
  if (options->format == report::Format::kHtml) {
    options->session.keep_facts = true;  // the charts draw them
    options->session.trace = true;       // each card shows its derivation
  }
  options->session.profile = !options->profile.empty();
  lint::FailOn threshold;
  if (lint::ParseFailOn(fail_on, &threshold)) options->session.fail_on = threshold;
  if (why_not.rule.empty())
    return RunCheck(*options, shared->in, &shared->in == &std::cin, shared->out, shared->err);
  const workspace::SessionOptions& s = options->session;
  WhyNotOptions w{why_not.rule,
                  why_not.at,
                  s.policies,
                  s.plans,
                  s.inventories,
                  options->color,
                  s.engine,
                  options->stdin_filename,
                  options->stdin_filename_given};
  return RunWhyNot(w, shared->in, &shared->in == &std::cin, shared->out, shared->err);
}

// `--version`, `-V`: the version, the commit it was built from and the
// digest of the shipped pack, which is compiled to tell it. Exit 2, saying
// why, when the pack cannot be had (a CAPOPS_DATA_DIR without one).
int PrintVersion(std::ostream& out, std::ostream& err) {
  out << "capops-lint " << CAPOPS_VERSION << '\n';
  out << "commit: "
      << (*kBuildCommit != '\0' ? kBuildCommit : "unknown (not built from a git checkout)") << '\n';
  Engine engine;
  if (!LoadPack({}, false, &engine, err)) return kExitUsage;
  out << "ruleset: " << engine.ruleset_digest() << " (the shipped pack, "
      << engine.program()->rules.size() << " rules)\n";
  return kExitClean;
}

int Dispatch(int argc, const char* const* argv, std::istream& in, std::ostream& out,
             std::ostream& err) {
  CLI::App app{"Checks capacity plans against capacity-operations policies.", "capops-lint"};
  app.formatter(std::make_shared<HelpFormatter>());
  app.set_help_flag("-h,--help", "print this help and exit");  // subcommands take it on
  Shared shared{in, out, err};
  CheckOptions options;
  // A one-shot lint gives back the text of fact files from 1 MiB once they
  // are loaded; the report reads the lines it quotes from disk again.
  options.session.engine.release_text_bytes = size_t{1} << 20;
  std::string fail_on;
  bool verbose = false;
  AddCheckFlags(&app, &options, &fail_on);
  FormatOption(&app, &shared, {"text", "short", "json", "sarif", "junit", "github", "html"});
  app.add_option("--color", shared.color, "colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("-v,--verbose", verbose, "log what is loaded (to stderr)");
  app.set_version_flag(
      "-V,--version", std::string("capops-lint ") + CAPOPS_VERSION,
      "print the version, the commit built from and the shipped pack's digest, then exit");
  WhyNotAlias why_not;
  app.add_option("--why-not", why_not.rule,
                 "explain why this rule did not fire (with --at; also `why-not RULE`)")
      ->type_name("RULE");
  app.add_option("--at", why_not.at,
                 "the fact for --why-not: `allocations[a-train]` or `plan.yaml:37`")
      ->type_name("FACT");
  const EngineOptions* limits = &options.session.engine;
  std::vector<Command> commands = {
      AddExplain(&app, &shared), AddEval(&app, &shared, limits),   AddCheckRules(&app, &shared),
      AddTest(&app, &shared),    AddRules(&app, &shared),          AddDoc(&app, &shared),
      AddFmt(&app, &shared),     AddWhyNot(&app, &shared, limits), AddSchema(&app, &shared),
      AddInit(&app, &shared),    AddParams(&app, &shared),         AddHelp(&app, &shared)};
  app.require_subcommand(0, 1);
  try {
    app.parse(argc, argv);
    bool subcommand = std::any_of(commands.begin(), commands.end(),
                                  [](const Command& c) { return c.app->parsed(); });
    // For a check, plan files may also come from .capops.yaml: RunCheck says when there are none.
    if (!subcommand && !why_not.rule.empty() && options.session.plans.empty())
      throw CLI::ValidationError("no plan files given");
    if (why_not.rule.empty() != why_not.at.empty())
      throw CLI::ValidationError("--why-not and --at go together");
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitClean;
  } catch (const CLI::CallForVersion&) {
    return PrintVersion(out, err);
  } catch (const CLI::ParseError& e) {
    std::string reason = e.what();
    if (!reason.empty())
      reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
    err << "capops-lint: error: " << reason << '\n' << "run `capops-lint --help` for usage\n";
    return kExitUsage;
  }
  LoggerScope logger_scope;
  SetUpLogging(err, verbose);
  for (const Command& c : commands) {
    if (c.app->parsed()) return c.run();
  }
  return RunTopLevel(&options, why_not, fail_on, &shared);
}

int InternalError(std::ostream& err, const std::string& what) {
  err << "capops-lint: internal error: " << Visible(what) << '\n'
      << "help: this is a defect in capops-lint, not in your files; please report it with the "
         "command line\n";
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
