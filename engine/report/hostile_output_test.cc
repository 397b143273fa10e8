// SPDX-License-Identifier: Apache-2.0
// Reports over hostile input, run in-process through the CLI: a plan whose
// file name holds ESC, BEL, a newline and bytes that are not UTF-8; fact
// values with controls, bidi overrides and XML-forbidden code points; a plan
// on one huge line; rule text with HTML in it. Every human-readable format
// must show such text (no raw control byte, no forged line), every JSON, SARIF
// and JUnit document must parse, and a long line must not be repeated whole.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_file.h"

namespace capops {
namespace {

namespace fs = std::filesystem;
using testing::CliResult;
using testing::RunCli;
using testing::TempFile;

const std::string kExample = capops::testing::SourceDir() + "/examples/visual-inspection/";
const std::string kInventory = kExample + "inventory.yaml";

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// Where a terminal would act on `out` (a control byte other than newline and
// tab, DEL, a C1 control, a bidi override), or npos.
size_t RawControl(const std::string& out) {
  for (size_t i = 0; i < out.size(); ++i) {
    unsigned char c = out[i];
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return i;
    if (c == 0xc2 && i + 1 < out.size() && (static_cast<unsigned char>(out[i + 1]) & 0xe0) == 0x80)
      return i;
    if (out.compare(i, 3, "\xe2\x80\xae") == 0 || out.compare(i, 3, "\xe2\x81\xa6") == 0) return i;
  }
  return std::string::npos;
}

// A line of `out` that starts like a finding of a file called `forged…`.
bool HasForgedLine(const std::string& out) {
  return out.rfind("forged", 0) == 0 || out.find("\nforged") != std::string::npos ||
         out.find("\n::error file=forged") != std::string::npos;
}

// The real XML parser accepts `text` (xmllint, from libxml2-utils). Its HTML
// parser knows HTML 4 only: complaints about HTML5 tags are not errors.
bool XmlParses(const std::string& text, const fs::path& dir, bool html = false) {
  fs::path file = dir / (html ? "check.html" : "check.xml");
  std::ofstream(file, std::ios::binary) << text;
  std::string command =
      std::string("xmllint --noout ") + (html ? "--html " : "") + "'" + file.string() +
      "' 2>&1 | awk '/Tag [a-z]+ invalid/ { skip = 2; next } skip > 0 { skip--; next } "
      "{ print }' | grep -v -E '^ *\\^?$'";
  std::string errors;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) errors.append(buffer, n);
    ::pclose(pipe);
  }
  INFO(errors);
  CHECK(errors.empty());
  return errors.empty();
}

// Markdown outside fenced code blocks (where markup is inert).
std::string Prose(const std::string& md) {
  std::string out;
  bool fenced = false;
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (!fenced) out += line + "\n";
  }
  return out;
}

bool JsonParses(const std::string& text) {
  return nlohmann::json::parse(text, nullptr, false).is_discarded() == false;
}

CliResult Lint(const std::string& format, const std::string& plan,
               std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--no-config", "--format", format, "--inventory", kInventory};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(plan);
  return RunCli(args);
}

// ESC, BEL, a newline that would start a forged finding, a C1 CSI and U+202E.
const std::string kHostileName =
    "plan\x1b[2J\x07\nforged.yaml:1:1: error[CAP-FAKE]: forged\n\xc2\x9b\xe2\x80\xae.yaml";

TEST_CASE("a hostile file name is shown, not obeyed, in every format", "[report][hostile]") {
  TempFile tmp("");
  std::string plan = (tmp.dir() / kHostileName).string();
  capops::testing::WriteFile(plan, ReadAll(kExample + "plan.yaml"));
  for (std::vector<std::string> format :
       {std::vector<std::string>{"text"}, {"text", "--explain"}, {"short"}, {"github"}}) {
    CliResult r = Lint(format[0], plan, {format.begin() + 1, format.end()});
    INFO(format[0] << (format.size() > 1 ? " --explain" : "") << "\n" << r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("plan\\x1b[2J\\x07\\nforged.yaml") != std::string::npos);
    CHECK(RawControl(r.out) == std::string::npos);
    CHECK(RawControl(r.err) == std::string::npos);
    CHECK_FALSE(HasForgedLine(r.out));
  }
  CliResult junit = Lint("junit", plan);
  CHECK(junit.exit_code == 1);
  CHECK(XmlParses(junit.out, tmp.dir()));
  for (const char* format : {"json", "sarif"}) {
    CliResult r = Lint(format, plan);
    CHECK(r.exit_code == 1);
    CHECK(JsonParses(r.out));
  }
}

TEST_CASE("a usage error quoting a hostile name is one visible line", "[report][hostile]") {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"--no-config", "missing-" + kHostileName},
        {"explain", "X\x1b[2J\nforged"}}) {
    CliResult r = RunCli(args);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(RawControl(r.err) == std::string::npos);
    CHECK_FALSE(HasForgedLine(r.err));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("file names that are not UTF-8 give reports that parse", "[report][hostile]") {
  TempFile tmp("");
  // Latin-1 é, an encoded surrogate, U+FFFF: none of them may reach XML or JSON.
  std::string plan = (tmp.dir() / "plan-caf\xe9-\xed\xa0\x80-\xef\xbf\xbf.yaml").string();
  capops::testing::WriteFile(plan, ReadAll(kExample + "plan.yaml"));
  CliResult junit = Lint("junit", plan);
  INFO(junit.out << junit.err);
  CHECK(junit.exit_code == 1);
  CHECK(XmlParses(junit.out, tmp.dir()));
  for (const char* format : {"json", "sarif"}) {
    CliResult r = Lint(format, plan);
    INFO(format << "\n" << r.err);
    CHECK(r.exit_code == 1);
    CHECK(JsonParses(r.out));
  }
  CliResult text = Lint("short", plan);
  CHECK(text.out.find("plan-caf\\xe9-\\xed\\xa0\\x80-\\u{ffff}.yaml:") != std::string::npos);
}

const std::string kRule =
    std::string("package t\n") +
    "/// Flags <script>alert(1)</script> big allocations & more. \x1b[2J \xe2\x80\xae\n" +
    R"(@id("T-001") @severity(error) @owner("<img src=x onerror=alert(1)>")
rule big_allocation {
  for a in plan.allocations
  where a.gpus > 1
  deny at a.gpus "allocation `{a.id}` takes {a.gpus} GPUs"
    because "<b>bold</b> claims"
    fix "<iframe src=x>"
}
)";

// Controls, a bidi override and a noncharacter in a fact file.
const char* kFacts =
    "# \x1b]0;title\x07 \xef\xbf\xbe \xe2\x80\xae\n"
    "apiVersion: capops.dev/v1\nkind: Inventory\naccelerator_types:\n"
    "  - {id: l4-24, model: L4, memory: 24GiB, interconnect: pcie4}\npools:\n"
    "  - {id: p, accelerator: l4-24, hosts: 1, gpus_per_host: 4, region: eu-west, role: research}\n"
    "supply: []\n---\napiVersion: capops.dev/v1\nkind: CapacityPlan\n"
    "metadata: {name: t, owner: o}\ndemands:\n  - {id: explore, slice: exploration, gpus: 2}\n"
    "allocations:\n  - {id: \"a\\e[2J\\a\\u202E\\uFFFE\\x85\", demand: explore, pool: p, gpus: "
    "2}\n";

// A pack in a directory whose name is not UTF-8.
fs::path WritePack(const fs::path& root) {
  fs::path pack = root / "pack-\xe9";
  fs::create_directories(pack);
  std::ofstream(pack / "rules.cpl", std::ios::binary) << kRule;
  std::ofstream(pack / "facts.yaml", std::ios::binary) << kFacts;
  // Not UTF-8: the loader refuses it, the catalogue still quotes it.
  std::ofstream(pack / "raw.yaml", std::ios::binary) << "# caf\xe9 \xed\xa0\x80 \x01\n" << kFacts;
  std::ofstream(pack / "rules_test.cpl", std::ios::binary)
      << "test \"fires\" {\n  facts \"facts.yaml\"\n  expect T-001\n}\n"
         "test \"fails\" {\n  facts \"facts.yaml\"\n  expect_none T-001\n}\n"
         "test \"raw\" {\n  facts \"raw.yaml\"\n  expect T-001\n}\n";
  return pack;
}

TEST_CASE("rules and test write JSON that parses for a pack path that is not UTF-8",
          "[report][hostile]") {
  TempFile tmp("");
  fs::path pack = WritePack(tmp.dir());
  CliResult rules = RunCli({"rules", "--format", "json", pack.string()});
  INFO(rules.err);
  CHECK(rules.exit_code == 0);
  CHECK(JsonParses(rules.out));
  CliResult test = RunCli({"test", "--format", "json", pack.string()});
  INFO(test.err);
  CHECK(test.exit_code == 1);  // one test fails on purpose
  CHECK(JsonParses(test.out));
  CliResult text = RunCli({"test", pack.string()});
  CHECK(text.exit_code == 1);
  CHECK(text.out.find("pack-\\xe9") != std::string::npos);
  CHECK(RawControl(text.out) == std::string::npos);
}

TEST_CASE("hostile fact values are shown, not obeyed, in reports, eval and why-not",
          "[report][hostile]") {
  TempFile tmp("");
  fs::path pack = WritePack(tmp.dir());
  std::string facts = (pack / "facts.yaml").string();
  std::vector<CliResult> runs;
  for (const char* format : {"text", "short", "github"}) {
    runs.push_back(
        RunCli({"--no-config", "--policy", pack.string(), "--format", format, "--explain", facts}));
  }
  runs.push_back(RunCli({"eval", "plan.allocations[0].id", facts, "--policy", pack.string()}));
  runs.push_back(RunCli(
      {"eval", "--explain", "plan.allocations[0].id + \"x\"", facts, "--policy", pack.string()}));
  runs.push_back(RunCli({"--no-config", "--policy", pack.string(), "--why-not", "T-001", "--at",
                         "allocations[0]", facts}));
  runs.push_back(RunCli({"explain", "T-001", "--policy", pack.string()}));
  runs.push_back(RunCli({"rules", pack.string()}));
  for (const CliResult& r : runs) {
    INFO(r.out << r.err);
    CHECK(r.exit_code <= 2);
    CHECK(RawControl(r.out) == std::string::npos);
    CHECK(RawControl(r.err) == std::string::npos);
  }
  CHECK(runs[0].out.find("a\\x1b[2J\\x07\\u{202e}\\u{fffe}\\u{85}") != std::string::npos);
  CHECK(runs[3].out.find("a\\x1b[2J\\x07\\u{202e}\\u{fffe}\\u{85}") != std::string::npos);
  CHECK(runs[6].out.find("& more. \\x1b[2J \\u{202e}") != std::string::npos);
  CliResult junit = RunCli({"--no-config", "--policy", pack.string(), "--format", "junit", facts});
  CHECK(junit.exit_code == 1);
  CHECK(XmlParses(junit.out, tmp.dir()));
  CliResult sarif = RunCli({"--no-config", "--policy", pack.string(), "--format", "sarif", facts});
  CHECK(JsonParses(sarif.out));
}

TEST_CASE("rules --diff shows hostile file names and facts, not obeys them", "[report][hostile]") {
  TempFile tmp("");
  fs::create_directories(tmp.dir() / "old");
  fs::create_directories(tmp.dir() / "new");
  std::ofstream(tmp.dir() / "old" / "rules.cpl") << ReplaceAll(kRule, "a.gpus > 1", "a.gpus > 9");
  std::ofstream(tmp.dir() / "new" / "rules.cpl") << kRule;
  std::string plan = (tmp.dir() / (kHostileName + "\xe9")).string();
  capops::testing::WriteFile(plan, kFacts);
  std::vector<std::string> args = {"rules", "--diff", (tmp.dir() / "old").string(),
                                   (tmp.dir() / "new").string(), plan};
  for (const char* format : {"text", "markdown", "json"}) {
    std::vector<std::string> with_format = args;
    with_format.insert(with_format.end(), {"--format", format});
    CliResult r = RunCli(with_format);
    INFO(format << "\n" << r.out << r.err);
    CHECK(r.exit_code == 0);
    if (std::string(format) == "json") {
      CHECK(JsonParses(r.out));
      continue;
    }
    CHECK(r.out.find("1 appeared") != std::string::npos);
    CHECK(RawControl(r.out) == std::string::npos);
    CHECK_FALSE(HasForgedLine(r.out));
    CHECK(r.out.find("a\\x1b[2J\\x07\\u{202e}\\u{fffe}\\u{85}") != std::string::npos);
  }
}

TEST_CASE("rule text cannot inject HTML into the catalogue", "[report][hostile]") {
  TempFile tmp("");
  fs::path pack = WritePack(tmp.dir());
  CliResult md = RunCli({"rules", "--format", "markdown", pack.string()});
  INFO(md.out << md.err);
  CHECK(md.exit_code == 0);
  CHECK(md.out.find("<img") == std::string::npos);
  CHECK(md.out.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
  // A record and an enum of the pack's own, documented with markup.
  std::ofstream(pack / "types.cpl", std::ios::binary)
      << "package t\n/// A <script>alert(2)</script> record | cell\nrecord Evil {\n"
         "  /// doc <img src=x onerror=alert(3)> | cell \x1b[2J\n  name_x: string\n}\n"
         "/// enum <b>doc</b>\nenum EvilKind { a_b, c }\n";
  CliResult doc = RunCli({"doc", "-o", (tmp.dir() / "site").string(), pack.string()});
  INFO(doc.err);
  REQUIRE(doc.exit_code == 0);
  std::string rules_md = ReadAll(tmp.dir() / "site" / "rules.md");
  for (const char* tag : {"<script", "<img", "<b>", "<iframe"}) {
    INFO(tag << "\n" << rules_md);
    CHECK(Prose(rules_md).find(tag) == std::string::npos);
  }
  CHECK(rules_md.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(RawControl(rules_md) == std::string::npos);
  std::string html = ReadAll(tmp.dir() / "site" / "index.html");
  CHECK(html.find("<script") == html.rfind("<script"));  // the page's own only
  CHECK(html.find("<script>alert") == std::string::npos);
  CHECK(RawControl(html) == std::string::npos);
  CHECK(html.find("caf\\xe9 \\xed\\xa0\\x80 \\x01") != std::string::npos);
  CHECK(XmlParses(html, tmp.dir(), true));
  std::string schema = ReadAll(tmp.dir() / "site" / "schema.html");
  CHECK(schema.find("<script") == schema.rfind("<script"));
  for (const char* tag : {"<script>alert", "<img", "<b>"})
    CHECK(schema.find(tag) == std::string::npos);
  CHECK(schema.find("A &lt;script&gt;alert(2)&lt;/script&gt; record") != std::string::npos);
  CHECK(RawControl(schema) == std::string::npos);
  CHECK(XmlParses(schema, tmp.dir(), true));
  std::string schema_md = ReadAll(tmp.dir() / "site" / "schema.md");
  CHECK(Prose(schema_md).find("<img") == std::string::npos);
  CHECK(RawControl(schema_md) == std::string::npos);
  // A `|` in a doc stays inside its table cell.
  CHECK(schema_md.find(
            "| `name_x` | `string` | required | doc &lt;img src=x onerror=alert(3)&gt; \\| cell") !=
        std::string::npos);
}

// The rows of every Markdown table in `md`, each as its cells as GitHub's
// parser splits them: at each `|` not after a `\`; the header first.
std::vector<std::vector<std::vector<std::string>>> Tables(const std::string& md) {
  std::vector<std::vector<std::vector<std::string>>> tables;
  std::istringstream in(md);
  bool in_table = false;
  std::string previous;
  for (std::string line; std::getline(in, line); previous = line) {
    auto cells = [](const std::string& row) {
      std::vector<std::string> out;
      std::string cell;
      for (size_t i = 1; i < row.size(); ++i) {
        if (row[i] == '|' && row[i - 1] != '\\') {
          out.push_back(cell);
          cell.clear();
        } else {
          cell += row[i];
        }
      }
      if (!cell.empty()) out.push_back(cell);  // a row that does not end in `|`
      return out;
    };
    if (line.rfind("|---", 0) == 0 && previous.rfind("|", 0) == 0) {
      tables.push_back({cells(previous)});
      in_table = true;
    } else if (in_table && line.rfind("|", 0) == 0) {
      tables.back().push_back(cells(line));
    } else {
      in_table = false;
    }
  }
  return tables;
}

std::string Trimmed(const std::string& cell) {
  size_t begin = cell.find_first_not_of(' ');
  return begin == std::string::npos ? ""
                                    : cell.substr(begin, cell.find_last_not_of(' ') + 1 - begin);
}

// Each table of `md` whose header starts with `first` (a header cell):
// every row as wide as the header, and the rows' first cells.
std::vector<std::string> TableColumn(const std::string& md, const std::string& first) {
  std::vector<std::string> column;
  for (const auto& table : Tables(md)) {
    if (table[0].empty() || Trimmed(table[0][0]) != first) continue;
    for (size_t r = 1; r < table.size(); ++r) {
      INFO(first << " row " << r);
      CHECK(table[r].size() == table[0].size());
      column.push_back(table[r].empty() ? "" : Trimmed(table[r][0]));
    }
  }
  return column;
}

// `|`, line breaks, backtick runs and backslashes in a param's value and
// in rule text: each stays in its cell of its row in every Markdown table.
TEST_CASE("a `|`, a line break or backticks in a value or rule text cannot break a table",
          "[report][hostile]") {
  TempFile tmp("");
  const std::string hostile = R"(a|b\n``c```\\|d)";  // as a CPL string's text
  fs::path pack = tmp.dir() / "pack";
  fs::create_directories(pack);
  std::ofstream(pack / "rules.cpl", std::ios::binary)
      << "package t\nparam sep: string = \"" << hostile << "\"\n"
      << "@id(\"T-001\") @severity(error) @owner(\"" << hostile << "\") @source(\"s|`x`\")\n"
      << "rule big_allocation {\n  for a in plan.allocations\n"
         "  where a.gpus > 1 || a.id == sep\n  deny at a.gpus \"allocation `{a.id}`\"\n}\n";
  std::ofstream(pack / "facts.yaml", std::ios::binary) << kFacts;
  std::ofstream(pack / "rules_test.cpl", std::ios::binary)
      << "test \"fires\" {\n  facts \"facts.yaml\"\n  expect T-001\n}\n";
  std::string shown = R"(a\|b\n``c```\\\|d)";  // the literal, each `|` escaped

  CliResult doc = RunCli({"doc", "-o", (tmp.dir() / "site").string(), pack.string()});
  INFO(doc.err);
  REQUIRE(doc.exit_code == 0);
  std::string rules_md = ReadAll(tmp.dir() / "site" / "rules.md");
  INFO(rules_md);
  CHECK(TableColumn(rules_md, "param") == std::vector<std::string>{"`sep`"});
  CHECK(rules_md.find("| ````\"" + shown + "\"```` | ````\"" + shown + "\"```` |") !=
        std::string::npos);
  CHECK(rules_md.find("\n- owner: a\\|b\\\\n\\`\\`c\\`\\`\\`\\\\\\|d\n") != std::string::npos);
  CHECK(TableColumn(rules_md, "condition").size() == 1);  // `||` in the condition
  CHECK(rules_md.find("| `where a.gpus > 1 \\|\\| a.id == sep` |") != std::string::npos);

  CliResult md = RunCli({"rules", "--format", "markdown", pack.string()});
  INFO(md.out);
  CHECK(TableColumn(md.out, "id") == std::vector<std::string>{"T-001"});
  CHECK(md.out.find(R"(| a\|b\\n\`\`c\`\`\`\\\|d |  | s\|\`x\` |)") != std::string::npos);

  // SARIF's help, with a value the config sets.
  std::string config = tmp.dir() / ".capops.yaml";
  std::ofstream(config) << "params:\n  t.sep: \"x|y\\n`\\\\\"\n";
  CliResult sarif = RunCli({"--config", config, "--policy", pack.string(), "--format", "sarif",
                            (pack / "facts.yaml").string()});
  INFO(sarif.out << sarif.err);
  REQUIRE(sarif.exit_code == 1);
  std::string help =
      nlohmann::json::parse(sarif.out)["runs"][0]["tool"]["driver"]["rules"][0]["help"]["markdown"];
  CHECK(TableColumn(help, "param") == std::vector<std::string>{"`sep`"});
  CHECK(help.find("| ``\"x\\|y\\n`\\\\\"`` |") != std::string::npos);

  // rules --diff: versions named by paths that hold a `|` and backticks.
  fs::path old_pack = tmp.dir() / "old|`v`";
  fs::copy(pack, old_pack);
  CliResult diff = RunCli({"rules", "--diff", old_pack.string(), pack.string(), "--format",
                           "markdown", (pack / "facts.yaml").string()});
  INFO(diff.out << diff.err);
  CHECK(TableColumn(diff.out, "") == std::vector<std::string>{"old", "new"});
  CHECK(diff.out.find("old\\|`v` `` |") != std::string::npos);
}

// One flow-style line of `count` allocations from the replacement pool, each
// a CAP-ALC-001 finding on the same line.
std::string LongLinePlan(size_t count) {
  std::string plan = ReadAll(kExample + "plan.yaml");
  size_t begin = plan.find("allocations:\n"), end = plan.find("substitutes:");
  std::string line = "allocations: [";
  for (size_t i = 0; i < count; ++i) {
    line += (i == 0 ? "" : ", ") + std::string("{id: a-") + std::to_string(i) +
            ", demand: explore, pool: serve-eu-spare, gpus: 2}";
  }
  return plan.substr(0, begin) + line + "]\n" + plan.substr(end);
}

TEST_CASE("a plan on one huge line gives a bounded report with marks in place",
          "[report][hostile]") {
  TempFile tmp(LongLinePlan(500));
  std::string plan_line;
  {
    std::istringstream in(ReadAll(tmp.path()));
    for (std::string l; std::getline(in, l);)
      if (l.rfind("allocations: [", 0) == 0) plan_line = l;
  }
  REQUIRE(plan_line.size() > 25000);
  uint32_t long_line = 0;
  {
    std::istringstream in(ReadAll(tmp.path()));
    std::string l;
    for (uint32_t n = 1; std::getline(in, l); ++n)
      if (l.rfind("allocations: [", 0) == 0) long_line = n;
  }
  for (bool explain : {false, true}) {
    CliResult r =
        Lint("text", tmp.path(),
             explain ? std::vector<std::string>{"--explain"} : std::vector<std::string>{});
    CHECK(r.exit_code == 1);
    std::istringstream in(r.out);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    size_t checked = 0, snippet_bytes = 0;
    std::string at_line = ":" + std::to_string(long_line) + ":";
    for (size_t i = 0; i + 3 < lines.size(); ++i) {
      // `  --> plan.yaml:L:C`, the gutter, the snippet and the marks.
      size_t arrow = lines[i].find("--> ");
      if (arrow == std::string::npos || lines[i].find(at_line) == std::string::npos) continue;
      INFO(lines[i] << "\n" << lines[i + 2] << "\n" << lines[i + 3]);
      CHECK(lines[i + 2].size() < 200);
      CHECK(lines[i + 3].size() < 200);
      snippet_bytes += lines[i + 2].size() + lines[i + 3].size();
      size_t column = std::stoul(lines[i].substr(lines[i].rfind(':') + 1));
      std::string shown = ReplaceAll(lines[i + 2], "\xe2\x80\xa6", "~");  // `…` is one column
      size_t mark = lines[i + 3].find('^');
      REQUIRE(mark != std::string::npos);
      REQUIRE(column <= plan_line.size());
      size_t width =
          std::min<size_t>(10, plan_line.size() - (column - 1));  // a mark may be near the end
      CHECK(shown.substr(mark, width) == plan_line.substr(column - 1, width));
      ++checked;
    }
    CHECK(checked >= 500);
    CHECK(snippet_bytes < checked * 400);
  }
}

}  // namespace
}  // namespace capops
