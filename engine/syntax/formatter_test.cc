// SPDX-License-Identifier: Apache-2.0
#include "engine/syntax/formatter.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/paths.h"

namespace capops::syntax {
namespace {

namespace fs = std::filesystem;

std::string FormatText(const std::string& text) {
  SourceManager sources;
  FormatResult r = Format(sources, sources.Add("f.cpl", text));
  if (!r.internal_error.empty()) return "internal: " + r.internal_error;
  return r.ok ? r.text : "error: " + r.diagnostics[0].message;
}

std::string TrimLines(const std::string& doc) {
  std::istringstream in(doc);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    line.erase(line.find_last_not_of(" \t\r") + 1);
    out += line + '\n';
  }
  return out;
}

// The doc comments of every declaration (trailing whitespace aside).
std::string DocsOf(const Module& m) {
  std::string out;
  auto add = [&](const std::string& what, const std::string& doc) {
    out += what + ":" + TrimLines(doc);
  };
  for (const Rule& r : m.rules) add("rule " + r.name, r.doc);
  for (const Param& p : m.params) add("param " + p.name, p.doc);
  for (const FunctionDecl& f : m.functions) add("fn " + f.name, f.doc);
  for (const EnumDecl& e : m.enums) add("enum " + e.name, e.doc);
  for (const RecordDecl& r : m.records) {
    add("record " + r.name, r.doc);
    for (const FieldDecl& f : r.fields) add("field " + f.name, f.doc);
  }
  for (const TestDecl& t : m.tests) {
    add("test " + t.name, t.doc);
    out += std::to_string(t.facts.size()) + ":" + std::to_string(t.expectations.size()) + "\n";
    for (const TestDecl::Facts& f : t.facts) out += "facts " + f.value + "\n";
    for (const TestExpectation& e : t.expectations) {
      out += (e.none ? "expect_none " : "expect ") + e.rule_id + " at " + e.at + " count " +
             std::to_string(e.count) + " message " + e.message + "\n";
    }
  }
  return out;
}

// The AST dump, canonical form, doc comments and tests of a text (no spans).
std::string AstOf(const std::string& text) {
  SourceManager sources;
  ParseResult r = Parse(sources, sources.Add("f.cpl", text));
  if (!r.module) return "error";
  return DumpModule(*r.module) + CanonicalModule(*r.module) + DocsOf(*r.module);
}

// Every `//` comment of a text in order (outside strings), trailing
// whitespace removed.
std::vector<std::string> CommentsOf(const std::string& text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i) i += text[i] == '\\';
    } else if (text.compare(i, 2, "//") == 0) {
      size_t end = text.find('\n', i);
      std::string comment = text.substr(i, end == std::string::npos ? std::string::npos : end - i);
      comment.erase(comment.find_last_not_of(" \t\r") + 1);
      out.push_back(comment);
      i = end == std::string::npos ? text.size() : end;
    }
  }
  return out;
}

struct Case {
  const char* name;
  std::string input;
  std::string want;
};

const Case kCases[] = {
    {"spacing around operators, commas and brackets",
     "package   p\n"
     "param x : int=1+2*  3\n"
     "param y: list < int > = [ 1 ,2, - 3 ]\n"
     "param z: bool = ! ( x > 1 ) && y . size ( ) in [ 1 ]  ||  f( 'a' ,\"b\" )[ 0 ]\n",
     // becomes
     "package p\n"
     "\n"
     "param x: int = 1 + 2 * 3\n"
     "\n"
     "param y: list<int> = [1, 2, -3]\n"
     "\n"
     "param z: bool = !(x > 1) && y.size() in [1] || f('a', \"b\")[0]\n"},
    {"conditional list elements and optional selection",
     "param m: list<string> = [ 'q'  if  !has( a.q ) , 'h'if a . ? h . hasValue( ) ]\n"
     "param n: int = a .?b.? c . orValue ( 1 )\n"
     "param o: list<string> = [\n"
     "'a long element'\n"
     "if x,\n"
     "'b']\n",
     // becomes
     "param m: list<string> = ['q' if !has(a.q), 'h' if a.?h.hasValue()]\n"
     "\n"
     "param n: int = a.?b.?c.orValue(1)\n"
     "\n"
     "param o: list<string> = [\n"
     "  'a long element'\n"
     "    if x,\n"
     "  'b']\n"},
    {"records, types and maps",
     "record R{a ?:int b:map < string , list<ref R> > = { } , c: int=- 1\n"
     "d: map<string, int> = {\"k\" :1}}",
     // becomes
     "record R {\n"
     "  a?: int\n"
     "  b: map<string, list<ref R>> = {},\n"
     "  c: int = -1\n"
     "  d: map<string, int> = {\"k\": 1}\n"
     "}\n"},
    {"ranges hold on to their bounds",
     "record R{a:int in 1 .. ,\nb?: double in - 1.0 .. 1.0 c: double in .. 2=1 in: int in 0..10}",
     // becomes
     "record R {\n"
     "  a: int in 1..,\n"
     "  b?: double in -1.0..1.0\n"
     "  c: double in ..2 = 1\n"
     "  in: int in 0..10\n"
     "}\n"},
    {"enums on one line and on several, with aligned comments",
     "enum E{a,b ,c}\n"
     "enum F {\n"
     "x, // one\n"
     "yy,   // two\n"
     "zzz\n"
     "}",
     // becomes
     "enum E { a, b, c }\n"
     "\n"
     "enum F {\n"
     "  x,   // one\n"
     "  yy,  // two\n"
     "  zzz\n"
     "}\n"},
    {"a crammed rule gets one line per clause",
     "@id( \"X-1\" )@severity( error ) rule r{for a in plan.allocations\n"
     "let d=plan.demands[ a.demand ] where d.slice==training deny at a.pool\n"
     "\"x {a.id}\" because \"y\" fix \"z\"}",
     // becomes
     "@id(\"X-1\") @severity(error)\n"
     "rule r {\n"
     "  for a in plan.allocations\n"
     "  let d = plan.demands[a.demand]\n"
     "  where d.slice == training\n"
     "  deny at a.pool \"x {a.id}\"\n"
     "    because \"y\"\n"
     "    fix \"z\"\n"
     "}\n"},
    {"a rule spread over too many lines is gathered",
     "rule r\n"
     "{\n"
     "  for a\n"
     "    in plan.allocations\n"
     "  where a\n"
     "  .gpus\n"
     "  > 8\n"
     "  deny\n"
     "  at a.gpus\n"
     "  \"m\"\n"
     "warn when a.gpus > 4 at a.gpus \"n\" because\n"
     " \"b\"\n"
     "}",
     // becomes
     "rule r {\n"
     "  for a in plan.allocations\n"
     "  where a.gpus >\n"
     "    8\n"
     "  deny\n"
     "    at a.gpus \"m\"\n"
     "  warn when a.gpus > 4 at a.gpus \"n\"\n"
     "    because \"b\"\n"
     "}\n"},
    {"blank lines: one between declarations, none inside but around comments",
     "\n"
     "\n"
     "// header\n"
     "\n"
     "\n"
     "package p\n"
     "import a.b\n"
     "\n"
     "\n"
     "\n"
     "import c\n"
     "param x: int = 1\n"
     "param y: int = 2\n"
     "\n"
     "\n"
     "\n"
     "/// doc\n"
     "rule r {\n"
     "\n"
     "  for a in plan.allocations\n"
     "\n"
     "  // why\n"
     "\n"
     "  where a.gpus > 1\n"
     "\n"
     "  deny \"m\"\n"
     "\n"
     "}\n"
     "\n"
     "\n",
     // becomes
     "// header\n"
     "\n"
     "package p\n"
     "\n"
     "import a.b\n"
     "import c\n"
     "\n"
     "param x: int = 1\n"
     "\n"
     "param y: int = 2\n"
     "\n"
     "/// doc\n"
     "rule r {\n"
     "  for a in plan.allocations\n"
     "\n"
     "  // why\n"
     "\n"
     "  where a.gpus > 1\n"
     "  deny \"m\"\n"
     "}\n"},
    {"comments stay next to their tokens",
     "rule r { // on the brace\n"
     "  for a in plan.allocations // the allocations\n"
     "  where a.gpus > 1 && // why\n"
     "      a.gpus < 9\n"
     "     // before the emit\n"
     "  deny \"m\" // after the message\n"
     "    because \"b\"\n"
     "// before the closing brace\n"
     "}\n"
     "// at the end   \n",
     // becomes
     "rule r {  // on the brace\n"
     "  for a in plan.allocations  // the allocations\n"
     "  where a.gpus > 1 &&        // why\n"
     "    a.gpus < 9\n"
     "  // before the emit\n"
     "  deny \"m\"  // after the message\n"
     "    because \"b\"\n"
     "  // before the closing brace\n"
     "}\n"
     "// at the end\n"},
    {"long expressions keep their breaks at break points, and only there",
     "rule r {\n"
     "  for a in plan.allocations\n"
     "  let held = sum(plan.allocations.map(b,\n"
     "           b.pool == a.pool\n"
     "           && b.id != a.id,\n"
     "      b.gpus))\n"
     "  let kind = a.gpus > 8 ?\n"
     "      \"big\" :\n"
     "      \"small\"\n"
     "  where held\n"
     "    + a.gpus > 16\n"
     "  deny \"m\"\n"
     "}\n",
     // becomes
     "rule r {\n"
     "  for a in plan.allocations\n"
     "  let held = sum(plan.allocations.map(b,\n"
     "    b.pool == a.pool &&\n"
     "      b.id != a.id,\n"
     "    b.gpus))\n"
     "  let kind = a.gpus > 8\n"
     "    ? \"big\"\n"
     "    : \"small\"\n"
     "  where held +\n"
     "    a.gpus > 16\n"
     "  deny \"m\"\n"
     "}\n"},
    {"brackets broken after opening and before closing",
     "param m: map<string, int> = {\n"
     "    \"a\": 1,\n"
     "  \"b\": 2,\n"
     "      }\n"
     "fn f(a: int,\n"
     "b: int): int =\n"
     "a + b",
     // becomes
     "param m: map<string, int> = {\n"
     "  \"a\": 1,\n"
     "  \"b\": 2,\n"
     "}\n"
     "\n"
     "fn f(a: int,\n"
     "  b: int): int =\n"
     "  a + b\n"},
    {"tests: one line per statement, tight rule ids",
     "test \"t\" { facts \"f.yaml\" expect CAP-ALC-001 at \"x\" count 1\n"
     "expect_none CAP - ALC - 002 }",
     // becomes
     "test \"t\" {\n"
     "  facts \"f.yaml\"\n"
     "  expect CAP-ALC-001 at \"x\" count 1\n"
     "  expect_none CAP-ALC-002\n"
     "}\n"},
    {"a let inside an expression: `;` is tight before, spaced after",
     "fn f(xs: list<int>): list<int> = xs.map(x,let y=x*2 ;y+1)",
     // becomes
     "fn f(xs: list<int>): list<int> = xs.map(x, let y = x * 2; y + 1)\n"},
    {"an empty file", "",
     // becomes
     ""},
    {"a file of comments",
     "  // a   \n"
     "\n"
     "\n"
     "// b",
     // becomes
     "// a\n"
     "\n"
     "// b\n"},
};

TEST_CASE("fmt prints one canonical layout", "[syntax][fmt]") {
  for (const Case& c : kCases) {
    INFO(c.name);
    std::string got = FormatText(c.input);
    CHECK(got == c.want);
    CHECK(FormatText(got) == got);
    CHECK(AstOf(got) == AstOf(c.input));
    CHECK(CommentsOf(got) == CommentsOf(c.input));
  }
}

TEST_CASE("fmt gives two layouts of one rule the same text", "[syntax][fmt]") {
  std::string tidy =
      "@id(\"X-1\") @severity(error)\n"
      "rule r {\n"
      "  for a in plan.allocations\n"
      "  where a.gpus > 1 &&\n"
      "    !a.interruptible\n"
      "  deny at a.gpus \"m {a.id}\"\n"
      "    because \"b\"\n"
      "}\n";
  std::string messy =
      "@id ( \"X-1\" )   @severity (error) rule\n"
      "r{for\n"
      "a in plan . allocations where a . gpus>1\n"
      "        && ! a.interruptible deny at a.gpus\n"
      "\"m {a.id}\" because\n"
      "\"b\" }";
  CHECK(FormatText(tidy) == tidy);
  CHECK(FormatText(messy) == tidy);
}

TEST_CASE("fmt refuses a file that does not parse", "[syntax][fmt]") {
  CHECK(FormatText("rule r {").rfind("error: ", 0) == 0);
  CHECK(FormatText("param x: int = 1 +").rfind("error: ", 0) == 0);
}

TEST_CASE("fmt is idempotent and keeps the AST and comments of every shipped CPL file",
          "[syntax][fmt]") {
  size_t files = 0;
  for (const char* dir : {"policies", "stdlib"}) {
    for (const auto& entry :
         fs::recursive_directory_iterator(fs::path(capops::testing::SourceDir()) / dir)) {
      if (entry.path().extension() != ".cpl") continue;
      ++files;
      INFO(entry.path().string());
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      std::string once = FormatText(text.str());
      REQUIRE(once.rfind("error: ", 0) != 0);
      REQUIRE(once.rfind("internal: ", 0) != 0);
      CHECK(FormatText(once) == once);
      CHECK(AstOf(once) == AstOf(text.str()));
      CHECK(CommentsOf(once) == CommentsOf(text.str()));
      // The shipped files are kept formatted (`capops-lint fmt policies stdlib`).
      CHECK(once == text.str());
    }
  }
  CHECK(files >= 10);
}

}  // namespace
}  // namespace capops::syntax
