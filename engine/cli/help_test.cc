// SPDX-License-Identifier: Apache-2.0
// The help pages: `help [SUBCOMMAND]` and `--help` print the same page, it
// reads clean in 80 columns, and the README's synopsis lists what the pages
// list, so that neither drifts from the other.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "engine/cli/driver.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"

namespace capops::cli {
namespace {

using RunResult = testing::CliResult;
constexpr auto& Lint = testing::RunCli;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The first column of a section of a help page: `Subcommands:`, `Options:`.
std::vector<std::string> Entries(const std::string& page, const std::string& section) {
  std::vector<std::string> entries;
  bool in = false;
  for (const std::string& line : Lines(page)) {
    if (!line.empty() && line[0] != ' ') in = line == section;
    if (in && line.size() > 2 && line.compare(0, 2, "  ") == 0 && line[2] != ' ')
      entries.push_back(line.substr(2, line.find("  ", 2) - 2));
  }
  return entries;
}

std::vector<std::string> Subcommands() {
  std::vector<std::string> names;
  for (const std::string& entry : Entries(Lint({"--help"}).out, "Subcommands:"))
    names.push_back(entry);
  return names;
}

std::set<std::string> LongOptions(const std::string& text) {
  std::set<std::string> options;
  std::regex option(R"(--[a-z][a-z-]*)");
  for (std::sregex_iterator it(text.begin(), text.end(), option), end; it != end; ++it)
    options.insert(it->str());
  return options;
}

TEST_CASE("help prints the page --help prints, for capops-lint and each subcommand", "[cli]") {
  RunResult top = Lint({"help"});
  CHECK(top.exit_code == kExitClean);
  CHECK(top.out == Lint({"--help"}).out);
  std::vector<std::string> subcommands = Subcommands();
  REQUIRE(subcommands.size() >= 12);
  for (const std::string& sub : subcommands) {
    INFO(sub);
    RunResult page = Lint({"help", sub});
    CHECK(page.exit_code == kExitClean);
    CHECK(page.err.empty());
    CHECK(page.out.find("Usage: capops-lint " + sub + " ") != std::string::npos);
    CHECK(page.out == Lint({sub, "--help"}).out);
  }
}

TEST_CASE("every help page fits 80 columns and shows values as words", "[cli]") {
  std::vector<std::string> pages = {Lint({"--help"}).out};
  for (const std::string& sub : Subcommands()) pages.push_back(Lint({sub, "--help"}).out);
  // CLI11's own notation: types, repeat counts, needs and excludes.
  std::regex notation(R"(\b(TEXT|UINT|INT|FLOAT)\b|Needs:|Excludes:| x [0-9]|:\{|\{\.)");
  for (const std::string& page : pages) {
    for (const std::string& line : Lines(page)) {
      INFO(line);
      CHECK(line.size() <= 80);
      CHECK_FALSE(std::regex_search(line, notation));
      // An entry's description starts in its column, two spaces at least
      // after its name, or on the next line.
      size_t gap = line.find("  ", 2);
      if (line.compare(0, 3, "  -") == 0 && gap != std::string::npos)
        CHECK(line.find_first_not_of(' ', gap) == 30);
    }
  }
  std::string rules = Lint({"rules", "--help"}).out;
  CHECK(rules.find("  --diff OLD NEW ") != std::string::npos);
  CHECK(std::regex_replace(rules, std::regex("\n +"), " ").find("(needs --diff)") !=
        std::string::npos);
  CHECK(rules.find("--format text|json|markdown\n") != std::string::npos);
}

TEST_CASE("help of an unknown subcommand is a usage error with a did-you-mean", "[cli][hostile]") {
  RunResult typo = Lint({"help", "rulez"});
  CHECK(typo.exit_code == kExitUsage);
  CHECK(typo.out.empty());
  CHECK(typo.err.find("error: no subcommand `rulez`") != std::string::npos);
  CHECK(typo.err.find("help: did you mean `rules`?") != std::string::npos);
  RunResult far = Lint({"help", "deploy-everything"});
  CHECK(far.exit_code == kExitUsage);
  CHECK(far.err.find("did you mean") == std::string::npos);
  RunResult control = Lint({"help", "\x1b[31mred"});
  CHECK(control.exit_code == kExitUsage);
  CHECK(control.err.find('\x1b') == std::string::npos);
  CHECK(Lint({"help", "rules", "test"}).exit_code == kExitUsage);
}

// README.md, "Using capops-lint": one entry per line that starts with
// `capops-lint`, continuation lines indented; keyed by subcommand ("" for
// the lint itself and its other spellings).
std::map<std::string, std::string> ReadmeSynopsis(const std::set<std::string>& subcommands) {
  std::ifstream file(testing::SourceDir() + "/README.md");
  std::stringstream text;
  text << file.rdbuf();
  std::string readme = text.str();
  size_t section = readme.find("\n## Using capops-lint\n");
  REQUIRE(section != std::string::npos);
  size_t open = readme.find("```\n", section);
  size_t close = readme.find("```\n", open + 4);
  REQUIRE(close != std::string::npos);
  std::map<std::string, std::string> synopsis;
  std::string key;
  for (const std::string& line : Lines(readme.substr(open + 4, close - open - 4))) {
    if (line.rfind("capops-lint ", 0) == 0) {
      std::string word = line.substr(12, line.find(' ', 12) - 12);
      key = subcommands.count(word) ? word : "";
    }
    synopsis[key] += line + "\n";
  }
  return synopsis;
}

TEST_CASE("the README's synopsis lists every subcommand, option and format of the help pages",
          "[cli]") {
  std::vector<std::string> names = Subcommands();
  std::set<std::string> subcommands(names.begin(), names.end());
  std::map<std::string, std::string> synopsis = ReadmeSynopsis(subcommands);
  names.insert(names.begin(), "");
  for (const std::string& sub : names) {
    INFO("subcommand: " << (sub.empty() ? "(the lint)" : sub));
    REQUIRE(synopsis.count(sub));
    const std::string& usage = synopsis[sub];
    RunResult page = sub.empty() ? Lint({"--help"}) : Lint({sub, "--help"});
    std::set<std::string> listed;  // every spelling of every option
    for (const char* section : {"Options:", "Limits:"}) {
      for (const std::string& entry : Entries(page.out, section)) {
        if (entry.rfind("-h,--help", 0) == 0) continue;
        INFO(entry);
        std::string names = entry.substr(0, entry.find(' '));
        // One of its spellings is in the synopsis: `-o DIR` or `--output DIR`.
        bool named = false;
        std::regex spelling(R"(--?[a-zA-Z][a-z-]*)");
        for (std::sregex_iterator it(names.begin(), names.end(), spelling), end; it != end; ++it) {
          if (it->str().rfind("--", 0) == 0) listed.insert(it->str());
          named = named || std::regex_search(
                               usage, std::regex("(^|[^a-zA-Z-])" + it->str() + "([^a-zA-Z-]|$)"));
        }
        CHECK(named);
        // A value chosen from a list names the list: `--format text|json`.
        std::string value = entry.substr(names.size());
        std::string flag = names.substr(names.rfind("--"));
        if (value.find('|') != std::string::npos)
          CHECK(usage.find(flag + value) != std::string::npos);
      }
    }
    for (const std::string& option : LongOptions(usage)) {
      INFO("the README names " << option);
      CHECK(listed.count(option));
    }
  }
}

TEST_CASE("the README gives the exit codes of every subcommand", "[cli]") {
  std::ifstream file(testing::SourceDir() + "/README.md");
  std::stringstream text;
  text << file.rdbuf();
  std::string readme = text.str();
  size_t section = readme.find("\n### Exit codes\n");
  REQUIRE(section != std::string::npos);
  std::string codes = readme.substr(section, readme.find("\n## ", section + 1) - section);
  for (const std::string& sub : Subcommands()) {
    INFO(sub);
    // A row of the subcommands' table: `| `eval` | 0 … | 1 … | 2 … |`.
    CHECK(std::regex_search(codes, std::regex("\n\\| [^\n]*`" + sub + "`[^\n|]*\\|[^\n]*\\|")));
  }
}

}  // namespace
}  // namespace capops::cli
