// SPDX-License-Identifier: Apache-2.0
#include "engine/syntax/parser.h"

#include <catch2/catch.hpp>

namespace capops::syntax {
namespace {

struct Parsed {
  SourceManager sources;
  ParseResult result;
};

std::unique_ptr<Parsed> ParseText(const std::string& text) {
  auto p = std::make_unique<Parsed>();
  FileId f = p->sources.Add("test.cpl", text);
  p->result = Parse(p->sources, f);
  return p;
}

// The dump of the expression in `param x: int = <expr>`.
std::string DumpOf(const std::string& expr) {
  auto p = ParseText("param x: int = " + expr);
  if (!p->result.module) return "error: " + p->result.diagnostics[0].message;
  return DumpExpr(*p->result.module->params[0].default_value);
}

// "line:col: message" of every diagnostic.
std::vector<std::string> ErrorsOf(const std::string& text) {
  auto p = ParseText(text);
  std::vector<std::string> out;
  for (const Diagnostic& d : p->result.diagnostics.items()) {
    out.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " +
                  d.message);
  }
  return out;
}

TEST_CASE("expressions follow CEL precedence", "[syntax]") {
  struct Case {
    const char* text;
    const char* dump;
  };
  const Case cases[] = {
      {"1 + 2 * 3", "(+ 1 (* 2 3))"},
      {"(1 + 2) * 3", "(* (+ 1 2) 3)"},
      {"a || b && c", "(|| a (&& b c))"},
      {"a && b || c && d", "(|| (&& a b) (&& c d))"},
      {"!a == b", "(== (! a) b)"},
      {"x in [1, 2] && y", "(&& (in x (list 1 2)) y)"},
      {"a < b == c", "(== (< a b) c)"},
      {"a ? b : c ? d : e", "(?: a b (?: c d e))"},
      {"1 - 2 - 3", "(- (- 1 2) 3)"},
      {"-5", "-5"},
      {"-x", "(- x)"},
      {"!!a", "(! (! a))"},
      {"a.b[c].d", "(. ([] (. a b) c) d)"},
      {"plan.demands[a.demand].slice", "(. ([] (. plan demands) (. a demand)) slice)"},
      {"x.window.start", "(. (. x window) start)"},
      {"s.startsWith(\"h1\")", "(call .startsWith s \"h1\")"},
      {"size(xs)", "(call size xs)"},
      {"xs.all(x, x > 0)", "(all x xs (> x 0))"},
      {"xs.exists_one(x, x)", "(exists_one x xs x)"},
      {"xs.map(x, x.gpus)", "(map x xs (. x gpus))"},
      {"xs.map(x, x > 1, x * 2)", "(map x xs (> x 1) (* x 2))"},
      {"xs.filter(x, has(x.y))", "(filter x xs (has (. x y)))"},
      {"{\"a\": 1, \"b\": 2}", "(map \"a\" 1 \"b\" 2)"},
      {"{exploration, training}", "(set exploration training)"},
      {"[]", "(list)"},
      {"{}", "(map)"},
      {"sum(xs.map(a, a.gpus))", "(call sum (map a xs (. a gpus)))"},
      {"[a if b, c]", "(list (if a b) c)"},
      {"[\"x\" if !has(a.q), \"y\" if c,]", "(list (if \"x\" (! (has (. a q)))) (if \"y\" c))"},
      {"[x ? y : z if c]", "(list (if (?: x y z) c))"},
      {"[a if b ? c : d]", "(list (if a (?: b c d)))"},
      {"a.?b", "(.? a b)"},
      {"a.?b.?c.orValue(1)", "(call .orValue (.? (.? a b) c) 1)"},
      {"a.?b.hasValue() ? 1 : 2", "(?: (call .hasValue (.? a b)) 1 2)"},
      {"a.b.?c.d", "(. (.? (. a b) c) d)"},
      {"a.?window", "(.? a window)"},  // keywords are field names after `.?` too
      {"x.if", "(. x if)"},
      {"let y = a; y + 1", "(let y a (+ y 1))"},
      {"xs.map(x, let y = x.gpus; y * 2)", "(map x xs (let y (. x gpus) (* y 2)))"},
      {"let y = a; let z = y; y ? z : 1",
       "(let y a (let z y (?: y z 1)))"},  // the body reaches as far right as it can
      {"[let y = 1; y, 2]", "(list (let y 1 y) 2)"},
      {"cel.bind(y, a, y + 1)", "(let y a (+ y 1))"},  // CEL's spelling
      {"x.bind(y, a, y)", "(call .bind x y a y)"},     // only on `cel`
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK(DumpOf(c.text) == c.dump);
  }
}

TEST_CASE("CPL literals: dates, durations, quantities", "[syntax]") {
  CHECK(DumpOf("2027-04-12") == "2027-04-12:date");
  CHECK(DumpOf("5d") == "5d:duration");
  CHECK(DumpOf("1d12h") == "1d12h:duration");
  CHECK(DumpOf("30m") == "30m:duration");
  CHECK(DumpOf("80GiB") == "80GiB:quantity");
  CHECK(DumpOf("5GB/s") == "5GB/s:quantity");
  CHECK(DumpOf("40TB") == "40TB:quantity");
  CHECK(DumpOf("0x1F") == "31");
  CHECK(DumpOf("2.5") == "2.5");
  CHECK(DumpOf("1e3") == "1000");
  CHECK(DumpOf("'it\\'s'") == "\"it's\"");
  CHECK(DumpOf("\"\\u00e9\"") == "\"\xc3\xa9\"");
  CHECK(DumpOf("null") == "null");
  CHECK(DumpOf("2027-02-30") == "error: `2027-02-30` is not a valid date");
  CHECK(DumpOf("99999999999999999999") == "error: integer `99999999999999999999` is out of range");
  CHECK(DumpOf("1e400") == "error: number `1e400` is out of range");
}

TEST_CASE("a rule with annotations, doc comment, clauses and emits", "[syntax]") {
  auto p = ParseText(R"(package capops.ai.allocation

/// Production replacement capacity is not free.
/// Second line.
@id("CAP-ALC-001") @severity(error) @owner("reliability-lead") @experimental
rule replacement_not_free {
  for a in plan.allocations
  let p = inventory.pools[a.pool]
  where p.role == production_replacement
  deny at a.pool "pool '{p.id}' has {a.gpus} GPUs" because "recovery path" fix "use research"
  warn when a.gpus > 8 "big: \{not a hole\}"
}

param research_slices: set<Slice> = {exploration, training, tuning}
enum Slice { exploration, training, tuning, inference, }
)");
  REQUIRE(p->result.diagnostics.empty());
  const Module& m = *p->result.module;
  CHECK(m.package == "capops.ai.allocation");
  CHECK(DumpModule(m) ==
        "package capops.ai.allocation\n"
        "enum Slice {exploration, training, tuning, inference}\n"
        "param research_slices: set<Slice> = (set exploration training tuning)\n"
        "@id(CAP-ALC-001) @severity(error) @owner(reliability-lead) @experimental rule "
        "replacement_not_free\n"
        "  for a = (. plan allocations)\n"
        "  let p = ([] (. inventory pools) (. a pool))\n"
        "  where (== (. p role) production_replacement)\n"
        "  deny at (. a pool) \"pool '{(. p id)}' has {(. a gpus)} GPUs\" because \"recovery "
        "path\" fix "
        "\"use research\"\n"
        "  warn when (> (. a gpus) 8) \"big: {not a hole}\"\n");
  const Rule& r = m.rules[0];
  CHECK(r.doc == "Production replacement capacity is not free.\nSecond line.");
  REQUIRE(r.FindAnnotation("id") != nullptr);
  CHECK(r.FindAnnotation("id")->args[0] == "CAP-ALC-001");
  // Spans: the `at` expression `a.pool` on line 10, column 11.
  SourceLoc at = p->sources.Resolve(r.emits[0].at->span);
  CHECK(at.line == 10);
  CHECK(at.column == 11);
  // A hole's expression points into the string: `p.id` at line 10, column 26.
  SourceLoc hole = p->sources.Resolve(r.emits[0].message.parts[1].expr->span);
  CHECK(hole.line == 10);
  CHECK(hole.column == 26);
}

// The text an expression's span covers, as traces, labels and the plan
// dump show it.
std::string SpanText(const std::string& expr) {
  auto p = ParseText("param x: int = " + expr);
  REQUIRE(p->result.module);
  const Span& span = p->result.module->params[0].default_value->span;
  return p->sources.file(span.file).text().substr(span.begin, span.end - span.begin);
}

TEST_CASE("a chain of && or || spans its first operand's parentheses", "[syntax]") {
  CHECK(SpanText("(a || b) && c") == "(a || b) && c");
  CHECK(SpanText("( a && b) || (c && d)") == "( a && b) || (c && d)");
  CHECK(SpanText("((a)) && b && c") == "((a)) && b && c");
  CHECK(SpanText("a && (b || c)") == "a && (b || c)");
  CHECK(SpanText("(a) == b") == "(a) == b");
  CHECK(SpanText("(a + b) * c - (d)") == "(a + b) * c - (d)");
  CHECK(SpanText("(a).b") == "(a).b");
  CHECK(SpanText("(a) ? b : c") == "(a) ? b : c");
}

TEST_CASE("field names may be keywords", "[syntax]") {
  CHECK(DumpOf("d.window.at") == "(. (. d window) at)");
  CHECK(DumpOf("x.for") == "(. x for)");
}

TEST_CASE("a number field's range: both bounds, or one", "[syntax]") {
  auto p = ParseText(
      "record R { a: int in 1..\n b?: double in -0.5..1.0\n c: int in ..-2 = -3\n in: int }");
  REQUIRE(p->result.module);
  CHECK(DumpModule(*p->result.module) ==
        "record R { a: int in 1.., b?: double in -0.5..1.0, c: int in ..-2 = -3, in: int }\n");
  const FieldDecl& b = p->result.module->records[0].fields[1];
  REQUIRE(b.range);
  CHECK(b.range->bounds.low == Value::Double(-0.5));
  CHECK(p->sources.Resolve(b.range->low_span).column == 16);
  CHECK(p->sources.Resolve(b.range->span).column == 13);
  CHECK_FALSE(p->result.module->records[0].fields[3].range);
  // The range is part of the ruleset: it changes the canonical form.
  auto plain = ParseText("record R { a: int }");
  auto ranged = ParseText("record R { a: int in 0.. }");
  CHECK(CanonicalModule(*plain->result.module) != CanonicalModule(*ranged->result.module));
}

TEST_CASE("a malformed range is a located syntax error", "[syntax]") {
  CHECK(ErrorsOf("record R { a: int in .. }") ==
        std::vector<std::string>{"1:19: a range needs a bound"});
  CHECK(ErrorsOf("record R { a: double in 0.0...1.0 }") ==
        std::vector<std::string>{"1:30: unexpected `.`"});
  CHECK(ErrorsOf("record R { a: int in 0 to 1 }")[0] == "1:24: missing `..` before `to`");
}

TEST_CASE("syntax errors are all reported with positions", "[syntax]") {
  CHECK(ErrorsOf("rule r { for a in }") == std::vector<std::string>{"1:19: unexpected `}`"});
  auto errors = ErrorsOf("param a: int = 1 +\nparam b: int = (2\n");
  REQUIRE(errors.size() >= 2);
  CHECK(errors[0].rfind("2:1:", 0) == 0);
  CHECK(ErrorsOf("param a: int = 1 # 2") ==
        std::vector<std::string>{"1:18: unexpected character `#`"});
  // A rule needs at least one deny or warn.
  auto missing = ErrorsOf("rule r { for a in x }");
  REQUIRE(missing.size() == 1);
  CHECK(missing[0] == "1:21: unexpected `}`, expected `for`, `let`, `where`, `deny`, `warn`");
}

TEST_CASE("message templates: holes and braces", "[syntax]") {
  CHECK(
      ErrorsOf("rule r { deny \"a {b\" }") ==
      std::vector<std::string>{"1:18: unclosed `{` in message (write `\\{` for a literal brace)"});
  CHECK(ErrorsOf("rule r { deny \"a {} b\" }") ==
        std::vector<std::string>{"1:18: empty `{}` in message"});
  CHECK(ErrorsOf("rule r { deny \"a } b\" }") ==
        std::vector<std::string>{"1:18: unmatched `}` in message"});
  // An error inside a hole points into the hole.
  CHECK(ErrorsOf("rule r { deny \"x {a +} y\" }") ==
        std::vector<std::string>{"1:22: unexpected end of file"});
}

TEST_CASE("macros need a variable", "[syntax]") {
  CHECK(ErrorsOf("param x: int = xs.all(1, true)") ==
        std::vector<std::string>{"1:23: the first argument of `all` must be a variable name"});
  CHECK(ErrorsOf("param x: int = xs.all(x)") ==
        std::vector<std::string>{"1:16: `all` takes a variable and one expression"});
  CHECK(
      ErrorsOf("param x: int = has(x)") ==
      std::vector<std::string>{"1:16: `has` takes one field selection, like `has(d.checkpoint)`"});
}

TEST_CASE("a let inside an expression names one variable, then a a semicolon", "[syntax]") {
  CHECK(ErrorsOf("param x: int = let y = 1 y") ==
        std::vector<std::string>{"1:26: missing `;` before `y`"});
  CHECK(ErrorsOf("param x: int = let 1 = 1; 2")[0] == "1:20: unexpected `1`, expected a name");
  CHECK(ErrorsOf("param x: int = let y = 1;") ==
        std::vector<std::string>{"1:26: unexpected end of file"});
  CHECK(ErrorsOf("param x: int = cel.bind(1, 2, 3)") ==
        std::vector<std::string>{"1:25: the first argument of `cel.bind` must be a variable name"});
  CHECK(ErrorsOf("param x: int = cel.bind(y, 2)") ==
        std::vector<std::string>{"1:16: `cel.bind` takes a variable, its value and an expression"});
}

TEST_CASE("hostile nesting is rejected, not recursed into", "[syntax]") {
  std::string deep(100000, '(');
  auto errors = ErrorsOf("param x: int = " + deep + "1");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == "1:143: expression nested more than 128 levels deep");
  std::string chain = "param x: int = 1";
  for (int i = 0; i < 5000; ++i) chain += " + 1";
  errors = ErrorsOf(chain);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == "1:20: an expression is nested too deeply");  // inside the chain
  std::string ternary = "param x: int = a";
  for (int i = 0; i < 1000; ++i) ternary += " ? a : a";
  CHECK(ErrorsOf(ternary).size() == 1);
}

TEST_CASE("many optional selections in one clause are no nesting", "[syntax]") {
  // The `?` of `.?` is a selection, not a conditional.
  std::string chain = "param x: int = a";
  for (int i = 0; i < 200; ++i) chain += ".?b";
  CHECK(ErrorsOf(chain).empty());
}

TEST_CASE("malformed list conditions and optional selections are located errors", "[syntax]") {
  CHECK(ErrorsOf("param x: int = [if x]") == std::vector<std::string>{"1:17: unexpected `if`"});
  CHECK(ErrorsOf("param x: int = [1 if]") == std::vector<std::string>{"1:21: unexpected `]`"});
  CHECK(ErrorsOf("param x: int = a.?") == std::vector<std::string>{"1:19: unexpected end of file"});
  CHECK(ErrorsOf("param x: int = a.?1") == std::vector<std::string>{"1:19: unexpected `1`"});
  CHECK(ErrorsOf("param x: int = a?.b") ==
        std::vector<std::string>{"1:18: unexpected `.`",
                                 "1:20: unexpected end of file, expected `:`"});
  std::string deep = "param x: int = a";
  for (int i = 0; i < 10000; ++i) deep += ".?b";
  auto errors = ErrorsOf(deep);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == "1:16: an expression is nested too deeply");
}

TEST_CASE("non-ASCII text keeps byte spans and character columns", "[syntax]") {
  auto p = ParseText("/// café\nparam é_bad: int = 1");
  REQUIRE(!p->result.diagnostics.empty());
  CHECK(p->result.diagnostics[0].loc.line == 2);
  CHECK(p->result.diagnostics[0].loc.column == 7);
}

}  // namespace
}  // namespace capops::syntax

namespace capops::syntax {
namespace {

TEST_CASE("test declarations: facts first, then expectations", "[syntax]") {
  auto p = ParseText(
      "/// the replacement pool is not free\n"
      "test \"alc-001 fires\" {\n"
      "  facts \"fixtures/f.yaml\"\n"
      "  inventory \"inv.yaml\"\n"
      "  yaml \"kind: CapacityPlan\\n\"\n"
      "  expect CAP-ALC-001 at \"allocations[a-x].pool\" count 2 message \"replacement\"\n"
      "  expect_none CAP-SUP-001 at \"3:4\"\n"
      "  expect X\n"
      "}\n");
  REQUIRE(p->result.module);
  REQUIRE(p->result.module->tests.size() == 1);
  const TestDecl& t = p->result.module->tests[0];
  CHECK(t.name == "alc-001 fires");
  CHECK(t.doc == "the replacement pool is not free");
  REQUIRE(t.facts.size() == 3);
  CHECK(t.facts[0].kind == TestDecl::Facts::Kind::kFile);
  CHECK(t.facts[1].kind == TestDecl::Facts::Kind::kInventoryFile);
  CHECK(t.facts[2].kind == TestDecl::Facts::Kind::kInlineYaml);
  CHECK(t.facts[2].value == "kind: CapacityPlan\n");
  REQUIRE(t.expectations.size() == 3);
  CHECK(t.expectations[0].rule_id == "CAP-ALC-001");
  CHECK(t.expectations[0].at == "allocations[a-x].pool");
  CHECK(t.expectations[0].count == 2);
  CHECK(t.expectations[0].message == "replacement");
  CHECK(t.expectations[1].none);
  CHECK(t.expectations[1].at == "3:4");
  CHECK(t.expectations[2].count == -1);
  // Test words are names elsewhere: `count(...)` and a field named `test` still parse.
  CHECK(DumpOf("count(plan.test)") == "(call count (. plan test))");
}

TEST_CASE("mistakes in test declarations are located", "[syntax]") {
  CHECK(ErrorsOf("test \"t\" { fact \"f.yaml\" }") ==
        std::vector<std::string>{"1:12: unknown fact source `fact`"});
  CHECK(ErrorsOf("test \"t\" { facts \"f\" expekt R }") ==
        std::vector<std::string>{"1:22: unknown test statement `expekt`"});
  CHECK(ErrorsOf("test \"t\" { facts \"f\" expect_none R count 1 }") ==
        std::vector<std::string>{"1:36: `expect_none` takes no `count`"});
  CHECK(ErrorsOf("test \"t\" { facts \"f\" expect R colour \"x\" }") ==
        std::vector<std::string>{"1:31: unknown option `colour` of `expect`"});
  CHECK(ErrorsOf("test \"t\" { expect R }") ==
        std::vector<std::string>{"1:6: test `t` names no facts"});
}

}  // namespace
}  // namespace capops::syntax

namespace capops::syntax {
namespace {

// Found by fuzzing: the ANTLR runtime throws on malformed UTF-8.
TEST_CASE("invalid UTF-8 is a located error, not a crash", "[syntax]") {
  auto errors = ErrorsOf("rule r { deny \"too \xff\xfe many\" }");
  CHECK(errors == std::vector<std::string>{"1:20: invalid UTF-8"});
  SourceManager sources;
  FileId f = sources.Add("<expression>", "'\xc3\x28'");
  ExpressionParseResult r = ParseExpression(sources, f);
  CHECK(r.expr == nullptr);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message == "invalid UTF-8");
}

}  // namespace
}  // namespace capops::syntax
