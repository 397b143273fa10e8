// SPDX-License-Identifier: Apache-2.0
// The simple reader (LoadOptions::simple_reader) held to libfyaml: every
// text is loaded both ways — LoadYaml, LoadRawYaml, and LoadYamlReleasing
// from a file on disk — and the loads must be the same (load_compare.h),
// whichever reader read the second. Over every YAML file of the
// repository, a generated corpus, and a table of hand-written cases.
//
// The comparisons hold whatever the simple reader reads. The tests tagged
// [coverage] check that it does read what it is meant to (the shipped
// examples, the generated corpus, the table's rows marked kSimple) and
// leaves to libfyaml what it must (the rows marked kLibfyaml): they fail
// while no simple reader reads anything.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/corpus.h"
#include "engine/facts/load_compare.h"
#include "engine/facts/loader.h"
#include "tests/support/fixture.h"
#include "tests/support/paths.h"
#include "tests/support/temp_file.h"

namespace capops::facts {
namespace {

namespace fs = std::filesystem;

const char* ReaderName(YamlReader reader) {
  return reader == YamlReader::kSimple ? "the simple reader" : "libfyaml";
}

// "same" or the first difference, for CHECK(... == "same") to print.
std::string Shown(const std::optional<std::string>& difference) {
  return difference.value_or("same");
}

// Loads `text` with libfyaml alone and with the simple reader allowed, and
// checks the two loads are the same: LoadYaml, LoadRawYaml, and
// LoadYamlReleasing from the file at `path` (which holds `text`; a
// temporary file when none is given) against LoadYaml from memory; then
// LoadYaml and LoadYamlReleasing again with the text read in halves
// wherever a split is found (LoadOptions::halves_from 0). Returns which
// reader read the text when it was allowed to choose; `*halves`, whether
// it was read in halves when asked to.
YamlReader ExpectSameLoad(const std::string& text, LoadOptions options = {},
                          const std::string& path = "", bool* halves = nullptr) {
  SourceManager sources;
  FileId file = sources.Add("simple.yaml", text);
  options.simple_reader = false;
  LoadResult by_libfyaml = LoadYaml(sources, file, options);
  RawLoadResult raw_by_libfyaml = LoadRawYaml(sources, file, options);
  CHECK(by_libfyaml.reader == YamlReader::kLibfyaml);
  options.simple_reader = true;
  LoadResult chosen = LoadYaml(sources, file, options);
  INFO("read by " << ReaderName(chosen.reader));
  CHECK(Shown(FirstDifference(by_libfyaml, chosen)) == "same");
  CHECK(Shown(FirstDifference(raw_by_libfyaml, LoadRawYaml(sources, file, options))) == "same");

  std::optional<testing::TempFile> temporary;
  if (path.empty()) temporary.emplace(text);
  const std::string& on_disk = path.empty() ? temporary->path() : path;
  int fd = ::open(on_disk.c_str(), O_RDONLY);
  std::optional<FileStamp> stamp = StampOf(fd);
  ::close(fd);
  SourceManager disk_sources;
  FileId disk_file = disk_sources.Add(on_disk, text, stamp);
  LoadResult released = LoadYamlReleasing(&disk_sources, disk_file, options, 0);
  INFO("from disk: read by " << ReaderName(released.reader));
  CHECK(Shown(FirstDifference(by_libfyaml, released)) == "same");

  options.halves_from = 0;
  LoadResult in_halves = LoadYaml(sources, file, options);
  INFO("read in halves: " << in_halves.halves);
  CHECK(Shown(FirstDifference(by_libfyaml, in_halves)) == "same");
  SourceManager halves_sources;
  FileId halves_file = halves_sources.Add(on_disk, text, stamp);
  LoadResult released_halves = LoadYamlReleasing(&halves_sources, halves_file, options, 0);
  INFO("from disk, read in halves: " << released_halves.halves);
  CHECK(Shown(FirstDifference(by_libfyaml, released_halves)) == "same");
  CHECK(released_halves.halves == in_halves.halves);
  if (halves != nullptr) *halves = in_halves.halves;
  return chosen.reader;
}

// Every *.yaml and *.yml file of the source tree, in a stable order:
// examples, packs, goldens, bad inputs, the YAML test suite, the scenario
// corpus, schema cases, fuzz seeds. Build trees, hidden folders (.git,
// caches), installed npm packages and fuzz findings are not sources.
std::vector<fs::path> RepositoryYamlFiles() {
  const fs::path root = testing::SourceDir();
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    std::string name = it->path().filename().string();
    if (it->is_directory()) {
      bool top = it.depth() == 0;
      if (name.starts_with(".") || name == "node_modules" || (top && name.starts_with("build")) ||
          it->path() == root / "fuzz/crashes") {
        it.disable_recursion_pending();
      }
      continue;
    }
    std::string ext = it->path().extension().string();
    if (it->is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// How many files the walk must find at least: the repository holds more
// than a thousand, and a walk that finds far fewer is broken.
constexpr size_t kRepositoryYamlFilesAtLeast = 1000;

TEST_CASE("every YAML file of the repository loads as libfyaml loads it", "[simple-yaml]") {
  auto started = std::chrono::steady_clock::now();
  std::vector<fs::path> files = RepositoryYamlFiles();
  CHECK(files.size() >= kRepositoryYamlFilesAtLeast);
  size_t simple = 0;
  for (const fs::path& path : files) {
    std::string relative = fs::relative(path, testing::SourceDir()).string();
    INFO(relative);
    std::string text = testing::ReadSourceFile(relative);
    if (ExpectSameLoad(text, {}, path.string()) == YamlReader::kSimple) ++simple;
  }
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "simple-yaml: " << simple << " of " << files.size()
            << " repository YAML files read by the simple reader (" << seconds << " s)\n";
}

// COVERAGE: the shipped example scenario is in the simple subset.
TEST_CASE("COVERAGE: the simple reader reads the shipped example plan and inventory",
          "[simple-yaml][coverage]") {
  for (const char* name :
       {"examples/visual-inspection/plan.yaml", "examples/visual-inspection/inventory.yaml"}) {
    INFO(name);
    fs::path path = fs::path(testing::SourceDir()) / name;
    std::string text = testing::ReadSourceFile(name);
    REQUIRE(text.size() > 1000);
    CHECK(ExpectSameLoad(text, {}, path.string()) == YamlReader::kSimple);  // COVERAGE
  }
}

bench::Corpus GeneratedCorpus() {
  bench::CorpusOptions o;
  o.allocations = 300;
  o.pools = 30;
  o.defects = 0.05;
  return bench::GenerateCorpus(o);
}

TEST_CASE("a generated corpus loads as libfyaml loads it", "[simple-yaml]") {
  bench::Corpus corpus = GeneratedCorpus();
  REQUIRE(corpus.plans.size() == 1);
  CHECK(corpus.allocations == 300);
  INFO("inventory");
  ExpectSameLoad(corpus.inventory);
  INFO("plan");
  ExpectSameLoad(corpus.plans[0]);
}

// COVERAGE: what the generator writes is in the simple subset.
TEST_CASE("COVERAGE: the simple reader reads a generated corpus", "[simple-yaml][coverage]") {
  bench::Corpus corpus = GeneratedCorpus();
  CHECK(ExpectSameLoad(corpus.inventory) == YamlReader::kSimple);  // COVERAGE
  bool halves = false;
  CHECK(ExpectSameLoad(corpus.plans[0], {}, "", &halves) == YamlReader::kSimple);  // COVERAGE
  CHECK(halves);  // COVERAGE: its middle is in a top-level sequence
}

std::string Plan(const std::string& body) {
  return "apiVersion: capops.dev/v1\nkind: CapacityPlan\n" + body;
}

std::string Inventory(const std::string& body) {
  return "apiVersion: capops.dev/v1\nkind: Inventory\n" + body;
}

// A hand-written case: its text, and which reader must read it (none: either
// may, the loads must still be the same).
struct Case {
  const char* name;
  std::string text;
  std::optional<YamlReader> reader;
  LoadOptions options = {};
};

constexpr YamlReader kSimple = YamlReader::kSimple;
constexpr YamlReader kLibfyaml = YamlReader::kLibfyaml;

LoadOptions Limited(size_t LoadOptions::*limit, size_t value) {
  LoadOptions options;
  options.*limit = value;
  return options;
}

std::vector<Case> Cases() {
  const std::string long_value(20000, 'x');
  return {
      // The simple subset: the simple reader must read these.
      {"nested block maps",
       Plan("metadata:\n  name: n\n  owner:\n    team: t\n    email: e@x.io\nslice: a\n"), kSimple},
      {"nested block sequences",
       Plan("demands:\n  - id: d1\n    sizes:\n      - 1\n      - 2\n    tags:\n"
            "      - x\n  - id: d2\n"),
       kSimple},
      {"an indentless sequence under its key",
       Plan("evidence:\n- r-1\n- r-2\nnext: x\nmore:\n- a\n"), kSimple},
      {"a sequence deeper than its key", Plan("evidence:\n    - r-1\n    - r-2\nnext: x\n"),
       kSimple},
      {"compact maps in a sequence",
       Plan("allocations:\n  - id: a1\n    pool: p\n    gpus: 4\n  - id: a2\n    pool: q\n"
            "    window:\n      start: 2027-01-01\n  -   id: a3\n      pool: r\n"),
       kSimple},
      {"a sequence in a compact map in a sequence",
       Plan("allocations:\n  - id: a1\n    evidence:\n      - r-1\n    alternatives:\n    - p2\n"
            "  - id: a2\n"),
       kSimple},
      {"flow maps and sequences, nested and empty",
       Plan("window: {start: 2027-01-01, end: 2027-02-01}\nevidence: [r-1, r-2]\n"
            "nested: {a: [1, {b: c}], d: {}, e: [[]]}\nempty: []\nnone: {}\n"
            "spaced: [ a , b ]\ntight: {a: 1,b: 2}\n"),
       kSimple},
      {"flow collections holding quoted scalars",
       Plan("m: {a: 'x: y', b: \"z, w\", c: 'it''s'}\nl: ['[', \"]\", '#']\n"), kSimple},
      {"plain scalars holding `:` without a space after it",
       Plan("start: 2027-04-12T10:00:00Z\nurl: https://example.com:8443/a?b=c\nratio: 1:2\n"),
       kSimple},
      {"plain scalars holding `#` without a space before it",
       Plan("name: a#b\nchannel: c# # comment\nflow: [x#y]\n"), kSimple},
      {"trailing spaces and comments after values",
       Plan("name: spaced   \nowner: o   # who\nempty:   # nothing\nlist: [a]  # c\n"), kSimple},
      {"several spaces after the colon", Plan("name:     n\nlist:  [a,   b]\n"), kSimple},
      {"single-quoted scalars with ''",
       Plan("name: 'it''s'\nempty: ''\nhash: '# not a comment'\nq: '\"'\nafter: 'x' # c\n"),
       kSimple},
      {"double-quoted scalars", Plan("name: \"plain\"\nempty: \"\"\nafter: \"x\" # c\n"), kSimple},
      {"double-quoted scalars with \\\" and \\\\",
       Plan("q: \"say \\\"hi\\\"\"\nb: \"back\\\\slash\"\nboth: \"\\\\\\\"\"\n"), kSimple},
      {"empty values before a sibling and at the end",
       Plan("owner:\nname: n\nmetadata:\n  a:\n  b:\nlast:\n"), kSimple},
      {"an empty value at the end without a line break", Plan("name: n\nlast:"), kSimple},
      {"a value at the end without a line break", Plan("name: n"), kSimple},
      {"comments at any indent and blank lines",
       Plan("# top\nmetadata:\n  # inside\n  name: n\n\n      # deeper\n\n  owner: o\n"
            "# between\n\nlist:\n# before an item\n  - a\n  # among items\n  - b\n# end\n"),
       kSimple},
      {"a file of comments only", "# nothing here\n  # indented\n\n", kSimple},
      {"an empty file", "", kSimple},
      {"several documents", Plan("a: 1\n") + "---\n" + Inventory("b: 2\n") + "---\n" + Plan(""),
       kSimple},
      {"a document starting with ---", "---\n" + Plan("a: 1\n"), kSimple},
      {"--- followed by a comment", "--- # first\n" + Plan("a: 1\n"), kSimple},
      {"UTF-8 text before other values on a line",
       Plan("metadata: {a: é, b: x}\nname: café # c\nclé: 名前 x\nl: [ü, 名, x]\n"), kSimple},
      {"a duplicate key after UTF-8 text in a flow map", Plan("m: {a: é, a: x}\n"), kSimple},
      {"duplicate keys", Plan("name: a\nname: b\nmetadata:\n  x: 1\n  x: 2\n"), kSimple},
      {"a duplicate key in a flow map", Plan("m: {a: 1, b: 2, a: 3}\n"), kSimple},
      {"keys named id",
       Plan("id: 007\npools:\n  - id: p1\n    gpus: 8\n  - id: 1e3\n  - id: p1\n"
            "flow: [{id: x}, {id: y}]\n"),
       kSimple},
      {"numbers, booleans and nulls written plain",
       Plan("a: 1\nb: -2.5\nc: true\nd: false\ne: null\nf: ~\ng: 0x1F\nh: 1e3\ni: .inf\n"
            "j: 80GiB\nk: 5d\nl: yes\nm: 2027-04-12\nn: -0\no: 1e400\np: 99999999999999999999\n"
            "q: [1, true, null, ~, 2.5]\n"),
       kSimple},
      {"a very long value", Plan("note: " + long_value + "\nafter: x\n"), kSimple},
      {"a very long quoted value", Plan("note: '" + long_value + "'\n"), kSimple},
      {"a top-level sequence", "- a\n- b: c\n", kSimple},
      {"a top-level flow map", "{a: 1, b: [2]}\n", std::nullopt},
      {"a document that is not a fact document", "name: n\n", kSimple},
      {"an unknown kind", "apiVersion: capops.dev/v1\nkind: Plan\n", kSimple},
      {"a value past --max-string-length", Plan("note: " + long_value + "\n"), kSimple,
       Limited(&LoadOptions::max_string_length, 100)},
      {"nesting past --max-depth", Plan("a:\n  b:\n    c:\n      d: [e]\n"), kSimple,
       Limited(&LoadOptions::max_depth, 3)},
      // A file over the document limit is said to be at libfyaml's mark of the first document
      // too many, which only libfyaml gives: the simple reader leaves the whole file to it.
      {"documents past --max-documents", Plan("") + "---\n" + Plan("") + "---\n" + Plan(""),
       kLibfyaml, Limited(&LoadOptions::max_documents, 2)},
      {"values past --max-values", Plan("l: [1, 2, 3, 4, 5, 6, 7, 8]\n"), kSimple,
       Limited(&LoadOptions::max_nodes, 6)},

      // Outside the subset: the simple reader must leave these to libfyaml.
      {"an anchor and an alias", Plan("base: &b {gpus: 4}\nuse: *b\n"), kLibfyaml},
      {"an anchor alone", Plan("base: &b 4\n"), kLibfyaml},
      {"a merge key", Plan("base: &b\n  gpus: 4\nuse:\n  <<: *b\n  pool: p\n"), kLibfyaml},
      {"a merge key written in place", Plan("use:\n  <<: {gpus: 4}\n  pool: p\n"), kLibfyaml},
      {"a tag", Plan("name: !!str 42\n"), kLibfyaml},
      {"a custom tag", Plan("name: !thing 42\n"), kLibfyaml},
      {"a literal block scalar", Plan("note: |\n  line one\n  line two\nafter: x\n"), kLibfyaml},
      {"a folded block scalar", Plan("note: >-\n  line one\n  line two\n"), kLibfyaml},
      {"a multi-line plain scalar", Plan("note: first\n  second\nafter: x\n"), kLibfyaml},
      {"a multi-line plain scalar in a sequence", Plan("l:\n  - first\n    second\n"), kLibfyaml},
      {"a multi-line double-quoted scalar", Plan("note: \"first\n  second\"\n"), kLibfyaml},
      {"a multi-line single-quoted scalar", Plan("note: 'first\n\n  second'\n"), kLibfyaml},
      {"a multi-line flow sequence", Plan("evidence: [r-1,\n  r-2]\n"), kLibfyaml},
      {"a multi-line flow map", Plan("window: {\n  start: 2027-01-01 }\n"), kLibfyaml},
      {"a trailing comma in a flow sequence", Plan("evidence: [r-1, r-2,]\n"), kLibfyaml},
      {"a trailing comma in a flow map", Plan("m: {a: 1,}\n"), kLibfyaml},
      {"a complex key", Plan("? name\n: n\n"), kLibfyaml},
      {"a tab after a colon", Plan("name:\tn\n"), kLibfyaml},
      {"a tab inside a value", Plan("name: a\tb\n"), kLibfyaml},
      {"a tab before a comment", Plan("name: n\t# c\n"), kLibfyaml},
      {"a tab in a comment", Plan("name: n # a\tb\n"), kLibfyaml},
      {"a tab in a quoted value", Plan("name: 'a\tb'\n"), kLibfyaml},
      {"a tab as indentation", Plan("metadata:\n\tname: n\n"), kLibfyaml},
      {"a tab on a blank line", Plan("name: n\n\t\nowner: o\n"), kLibfyaml},
      {"CRLF line ends", "apiVersion: capops.dev/v1\r\nkind: CapacityPlan\r\nname: n\r\n",
       kLibfyaml},
      {"a CR before the last line break only", Plan("name: n\r\n"), kLibfyaml},
      {"a byte order mark", "\xEF\xBB\xBF" + Plan("name: n\n"), kLibfyaml},
      {"a %YAML directive", "%YAML 1.2\n---\n" + Plan("name: n\n"), kLibfyaml},
      {"a %TAG directive", "%TAG !e! tag:example.com:\n---\n" + Plan(""), kLibfyaml},
      {"a document end marker", Plan("name: n\n") + "...\n", kLibfyaml},
      {"a value on the --- line", "--- a\n", kLibfyaml},
      {"a flow map on the --- line", "--- {a: 1}\n", kLibfyaml},
      {"a null sequence item", Plan("evidence:\n  -\n  - r-1\n"), kLibfyaml},
      {"a null sequence item at the end", Plan("evidence:\n  - r-1\n  -\n"), kLibfyaml},
      {"a nested compact sequence", Plan("m:\n  - - a\n    - b\n"), kLibfyaml},
      {"a double-quoted key", Plan("\"name\": n\n"), kLibfyaml},
      {"a single-quoted key", Plan("'name': n\n"), kLibfyaml},
      {"a quoted key in a flow map", Plan("m: {'a': 1}\n"), kLibfyaml},
      {"an empty value in a flow map", Plan("m: {a: }\n"), kLibfyaml},
      {"a key without a value in a flow map", Plan("m: {a, b: c}\n"), kLibfyaml},
      {"a value on its own line under its key", Plan("name:\n  n\n"), kLibfyaml},
      {"a flow collection on its own line under its key", Plan("l:\n  [a, b]\n"), kLibfyaml},
      {"invalid YAML: bad indentation", Plan("a:\n  b: 1\n c: 2\n"), kLibfyaml},
      {"invalid YAML: a deeper line after a value", Plan("a: b\n  c: d\n"), kLibfyaml},
      {"invalid YAML: a sibling less indented in a sequence", Plan("l:\n  - a\n - b\n"), kLibfyaml},
      {"invalid YAML: an unclosed flow sequence", Plan("e: [a, b\n"), kLibfyaml},
      {"invalid YAML: an unclosed flow map", Plan("e: {a: b\nf: g\n"), kLibfyaml},
      {"invalid YAML: an unclosed quote", Plan("k: \"abc\n"), kLibfyaml},
      {"invalid YAML: an unclosed single quote at the end", Plan("k: 'abc"), kLibfyaml},
      {"invalid YAML: a map in a value", Plan("key: a: b\n"), kLibfyaml},
      {"invalid YAML: a key ending a value", Plan("key: a:\n"), kLibfyaml},
      {"invalid YAML: a sequence in a value", Plan("key: - b\n"), kLibfyaml},
      {"invalid YAML: text after a quoted value", Plan("key: 'a' b\n"), kLibfyaml},
      {"invalid YAML: text after a flow sequence", Plan("key: [a]b\n"), kLibfyaml},
      {"invalid YAML: a closing bracket alone", Plan("key: ]\n"), kLibfyaml},
      {"invalid YAML: a reserved indicator", Plan("key: @x\n"), kLibfyaml},
      {"invalid YAML: a backquote", Plan("key: `x`\n"), kLibfyaml},
      {"invalid YAML: a bad escape", Plan("key: \"\\q\"\n"), kLibfyaml},
      {"invalid YAML after a good document", Plan("a: 1\n") + "---\n" + Plan("b: [\n"), kLibfyaml},

      // Edges either reader may take: only the loads are compared.
      {"plain scalars starting with ? or :", Plan("a: ?y\nb: :z\nc: -x\n"), std::nullopt},
      {"a plain scalar document", "a:b\n", std::nullopt},
      {"a key with spaces before its colon", Plan("name  : n\n"), std::nullopt},
      {"double-quoted escapes", Plan("a: \"\\t\\n\\u00e9\\x41\"\n"), std::nullopt},
      {"a null key", Plan("~: a\nnull: b\n"), std::nullopt},
      {"an empty key", Plan(": a\n"), std::nullopt},
      {"an empty document between two", Plan("a: 1\n") + "---\n---\n" + Plan("b: 2\n"),
       std::nullopt},
      {"a single-pair map in a flow sequence", Plan("l: [a: b]\n"), std::nullopt},
      {"an empty flow item", Plan("l: [a, , b]\n"), std::nullopt},
      {"a URL in a flow sequence", Plan("l: [http://x.io:80/z]\n"), std::nullopt},
      {"a NUL byte", Plan("a: b\n") + std::string("c: \0\n", 5), std::nullopt},
      {"invalid UTF-8", Plan("a: \xC3\x28\n"), std::nullopt},
      {"deep flow nesting", Plan("a: " + std::string(100, '[') + std::string(100, ']') + "\n"),
       std::nullopt},
      {"a --- inside a value", Plan("a: b --- c\nd: ---\n"), std::nullopt},
      {"a comment right after ---", "---# not a comment\n", std::nullopt},
  };
}

// The comparison itself: while every load is libfyaml's, the tests above
// pass whatever FirstDifference says, so here it must find each kind of
// difference, and say where it is.
TEST_CASE("FirstDifference finds the first difference of two loads and says where",
          "[simple-yaml]") {
  struct Pair {
    std::string a, b;
    const char* difference;  // "" for none
  };
  const Pair pairs[] = {
      {Plan("a: 1\n"), Plan("a: 1\n"), ""},
      {Plan("a: 1\n"), Plan("a:  1\n"), "documents[0].root.a: loc 3:4 vs 3:5"},
      {Plan("a: x\n"), Plan("a: 'x'\n"), "documents[0].root.a: plain vs not plain"},
      {Plan("a: x\n"), Plan("a: y\n"), "documents[0].root.a: `x` vs `y`"},
      {Plan("a: [1, 2]\n"), Plan("a: [1, 2, 3]\n"), "documents[0].root.a: items 2 vs 3"},
      {Plan("d:\n  - w: {s: 1}\n"), Plan("d:\n  - w: {s:  1}\n"),
       "documents[0].root.d[0].w.s: loc 4:12 vs 4:13"},
      {Plan("a: 1\nb: 2\n"), Plan("b: 2\na: 1\n"), "documents[0].root: key of entry 2 `a` vs `b`"},
      {Plan("a: 1\n"), Plan("a: 1\nb: 2\n"), "documents[0].root: entries 3 vs 4"},
      {Plan("a: 1\n"), Plan("a: {}\n"), "documents[0].root.a: kind string vs map"},
      {Plan("a: 1\na: 2\n"), Plan("a: 1\n\na: 2\n"), "diagnostics[0].loc: loc 4:1 vs 5:1"},
      {Plan(""), Inventory(""), "documents[0].kind: CapacityPlan vs Inventory"},
      {Plan(""), Plan("") + "---\n" + Plan(""),
       "documents: 1 vs 2 (the first extra: CapacityPlan at 4:1)"},
      {Plan("b: &x 1\nc: *x\n"), Plan("b: &y 1\nc: *y\n"),
       "aliases[0]: *x at 4:4 of 3:7 vs *y at 4:4 of 3:7"},
  };
  SECTION("two texts") {
    for (const Pair& p : pairs) {
      INFO(p.a << "---- vs ----\n" << p.b);
      // Each text is file 0 of its own manager, as one file loaded twice is.
      SourceManager sources_a, sources_b;
      LoadResult a = LoadYaml(sources_a, sources_a.Add("a.yaml", p.a), {});
      LoadResult b = LoadYaml(sources_b, sources_b.Add("b.yaml", p.b), {});
      CHECK(FirstDifference(a, b).value_or("") == p.difference);
    }
  }

  SECTION("a diagnostic more or less, and each of its fields") {
    SourceManager sources;
    FileId file = sources.Add("a.yaml", Plan("a: 1\na: 2\n"));
    LoadResult a = LoadYaml(sources, file, {});
    REQUIRE(a.diagnostics.size() == 1);
    LoadResult b = a;
    b.diagnostics = Diagnostics();
    CHECK(FirstDifference(a, b).value_or("").starts_with(
        "diagnostics: 1 vs 0 (the first extra: 4:1 `duplicate key"));
    auto changed = [&](auto change) {
      Diagnostics d;
      Diagnostic& copy = d.Add(a.diagnostics[0].severity, a.diagnostics[0].loc, "");
      copy = a.diagnostics[0];
      change(copy);
      return FirstDifference(a.diagnostics, d).value_or("");
    };
    CHECK(changed([](Diagnostic& d) { d.severity = Severity::kWarning; }) ==
          "diagnostics[0].severity: error vs warning");
    CHECK(changed([](Diagnostic& d) { d.code = "facts"; }) ==
          "diagnostics[0].code: `yaml` vs `facts`");
    CHECK(changed([](Diagnostic& d) { d.help += "!"; }).starts_with("diagnostics[0].help: `"));
    CHECK(changed([](Diagnostic& d) { d.length = 99; }).ends_with(" vs 99"));
    CHECK(changed([](Diagnostic& d) {
            d.related.push_back({{0, 1, 1}, "here"});
          }).ends_with("(the first extra: 1:1 `here`)"));
    CHECK(changed([](Diagnostic& d) {
            d.related.at(0).loc.column += 1;
          }).starts_with("diagnostics[0].related[0]: loc "));
    CHECK(changed([](Diagnostic& d) {
            d.fixes.push_back({"fix it", {}});
          }).starts_with("diagnostics[0].fixes: 0 vs 1"));
    CHECK(changed([](Diagnostic&) {}) == "");
  }

  SECTION("a load the simple reader read has no aliases") {
    SourceManager sources;
    LoadResult a = LoadYaml(sources, sources.Add("a.yaml", Plan("b: &x 1\nc: *x\n")), {});
    REQUIRE(a.aliases.size() == 1);
    LoadResult b = a;
    CHECK_FALSE(FirstDifference(a, b));
    b.reader = YamlReader::kSimple;
    CHECK(FirstDifference(a, b).value_or("") ==
          "the second load, read by the simple reader, has aliases or merges");
  }

  SECTION("raw loads, typed") {
    SourceManager sources;
    RawLoadResult a = LoadRawYaml(sources, sources.Add("a.yaml", "a: 1\n---\nb: 5d\n"), {});
    SourceManager other;
    RawLoadResult b = LoadRawYaml(other, other.Add("b.yaml", "a: 1\n---\nb: 5h\n"), {});
    CHECK(FirstDifference(a, b).value_or("") == "documents[1].b: 432000 vs 18000");
  }

  SECTION("values: numbers by their bits, dates by their written offset") {
    auto map = [](Value v) { return Value::Map({{"x", std::move(v)}}); };
    CHECK(FirstDifference(map(Value::Int(1)), map(Value::Int(1))) == std::nullopt);
    CHECK(FirstDifference(map(Value::Double(NAN)), map(Value::Double(NAN))) == std::nullopt);
    CHECK(FirstDifference(map(Value::Double(0.0)), map(Value::Double(-0.0)))
              .value_or("")
              .starts_with("x: 0 (0) vs -0 (0x8000000000000000)"));
    CHECK(FirstDifference(map(Value::Date({0, 0})), map(Value::Date({0, 120}))).value_or("") ==
          "x: offset 0 vs 120");
    CHECK(FirstDifference(Value::PlainText("x"), Value::String("x")).value_or("") ==
          "plain vs not plain");
    CHECK(FirstDifference(Value::Int(1), Value::Double(1)).value_or("") == "kind int vs double");
  }
}

// A plan whose middle is in its `allocations`, with `before` above them
// and `after` below.
std::string Halves(const std::string& before, const std::string& item, const std::string& after) {
  std::string text = "apiVersion: capops.dev/v1\nkind: CapacityPlan\n" + before + "allocations:\n";
  for (int i = 0; i < 40; ++i) {
    std::string one = item;
    for (size_t at = one.find("#N"); at != std::string::npos; at = one.find("#N"))
      one.replace(at, 2, std::to_string(i));
    text += one;
  }
  return text + after;
}

TEST_CASE("a text read in halves loads as libfyaml loads it, or is read whole", "[simple-yaml]") {
  struct HalvesCase {
    const char* what;
    std::string text;
    bool halves;
  };
  const std::string item =
      "  - id: a-#N\n    pool: p\n    window: {start: 2027-01-01, end: 2027-02-01}\n";
  const HalvesCase cases[] = {
      {"keys before and after the sequence",
       Halves("metadata: {name: x}\n", item, "decision: {a: b}\n"), true},
      {"items of nested block collections",
       Halves("", "  - id: a-#N\n    evidence:\n      - r-1\n      - r-2\n    m:\n      k: v\n",
              ""),
       true},
      {"items at the key's own column", Halves("", "- id: a-#N\n  gpus: 4\n", "after: 1\n"), false},
      {"a key in both halves", Halves("after: 0\n", item, "after: 1\n"), false},
      {"the sequence's key again after it", Halves("", item, "allocations: []\n"), false},
      {"a second document after the middle",
       Halves("", item, "---\napiVersion: capops.dev/v1\nkind: Inventory\n"), false},
      {"a block scalar in the second half", Halves("", item, "notes: |\n  one\n  two\n"), false},
      {"a comment line at every item", Halves("", "  # item #N\n" + item, ""), true},
      {"empty values in items", Halves("", "  - id: a-#N\n    note:\n    gpus: 2\n", ""), true},
  };
  for (const HalvesCase& c : cases) {
    INFO(c.what << "\n" << c.text);
    bool halves = false;
    ExpectSameLoad(c.text, {}, "", &halves);
    CHECK(halves == c.halves);
  }
}

TEST_CASE("hand-written cases load as libfyaml loads them", "[simple-yaml]") {
  for (const Case& c : Cases()) {
    INFO(c.name << "\n" << c.text.substr(0, 300));
    ExpectSameLoad(c.text, c.options);
  }
}

// COVERAGE: the rows marked kSimple are read by the simple reader, the rows
// marked kLibfyaml by libfyaml.
TEST_CASE("COVERAGE: the simple reader reads the cases of its subset and no other",
          "[simple-yaml][coverage]") {
  for (const Case& c : Cases()) {
    if (!c.reader) continue;
    INFO(c.name << "\n" << c.text.substr(0, 300));
    LoadOptions options = c.options;
    options.simple_reader = true;
    SourceManager sources;
    FileId file = sources.Add("simple.yaml", c.text);
    CHECK(ReaderName(LoadYaml(sources, file, options).reader) ==
          std::string(ReaderName(*c.reader)));
  }
}

}  // namespace
}  // namespace capops::facts
