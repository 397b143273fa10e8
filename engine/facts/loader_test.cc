// SPDX-License-Identifier: Apache-2.0
// Tests for the YAML loader and plain-scalar typing; all input is in memory.
#include "engine/facts/loader.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/units.h"
#include "engine/facts/locate.h"
#include "engine/facts/scalar.h"
#include "tests/support/temp_file.h"

namespace capops::facts {
namespace {

constexpr const char* kInventoryHeader = "apiVersion: capops.dev/v1\nkind: Inventory\n";
constexpr const char* kPlanHeader = "apiVersion: capops.dev/v1\nkind: CapacityPlan\n";

// Owns the source text, which the results point into by FileId.
struct Loaded {
  SourceManager sources;
  LoadResult result;

  explicit Loaded(std::string text, LoadOptions options = {}) {
    FileId file = sources.Add("test.yaml", std::move(text));
    result = LoadYaml(sources, file, options);
  }

  const Value& root(size_t i = 0) const { return result.documents.at(i).root; }
  const Diagnostics& diags() const { return result.diagnostics; }
};

// "line:col: message" per diagnostic, one a line: compact to compare.
std::string Dump(const Diagnostics& diags) {
  std::string out;
  for (const Diagnostic& d : diags.items()) {
    out +=
        std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " + d.message + "\n";
  }
  return out;
}

std::pair<uint32_t, uint32_t> LineCol(const Value& v) {
  return {v.loc().line, v.loc().column};
}

Value QuantityOf(const char* text) {
  Quantity q;
  REQUIRE(ParseQuantity(text, &q));
  return Value::Quantity(q);
}

Value DateOf(const char* text) {
  DateTime t;
  std::string error;
  REQUIRE(ParseDateTime(text, &t, &error));
  return Value::Date(t);
}

TEST_CASE("plain scalars are typed by their text", "[facts]") {
  struct Case {
    const char* text;
    Value expected;
  };
  const Case cases[] = {
      {"42", Value::Int(42)},
      {"-7", Value::Int(-7)},
      {"+3", Value::Int(3)},
      {"0x1F", Value::Int(31)},
      {"0o17", Value::Int(15)},
      {"9223372036854775807", Value::Int(INT64_MAX)},
      {"-9223372036854775808", Value::Int(INT64_MIN)},
      {"1.5", Value::Double(1.5)},
      {"1e3", Value::Double(1000)},
      {".5", Value::Double(0.5)},
      {"-2.", Value::Double(-2)},
      {"-.inf", Value::Double(-INFINITY)},
      {".Inf", Value::Double(INFINITY)},
      {"true", Value::Bool(true)},
      {"FALSE", Value::Bool(false)},
      {"True", Value::Bool(true)},
      {"null", Value::Null()},
      {"~", Value::Null()},
      {"", Value::Null()},
      {"2027-04-12", DateOf("2027-04-12")},
      {"5d", Value::Duration(5 * 86400)},
      {"8h", Value::Duration(8 * 3600)},
      {"1d12h", Value::Duration(129600)},
      {"80GiB", QuantityOf("85899345920B")},
      {"5GB/s", QuantityOf("5000000000B/s")},
      {"40TB", QuantityOf("40000000000000B")},
      // YAML 1.1 booleans are strings in YAML 1.2 core.
      {"yes", Value::String("yes")},
      {"on", Value::String("on")},
      {"No", Value::String("No")},
      {"80Gb", Value::String("80Gb")},
      {"h100-80", Value::String("h100-80")},
      {"1.2.3", Value::String("1.2.3")},
      {"12:30", Value::String("12:30")},
      {"0x", Value::String("0x")},
      {"2027-04-12T10:00:00Z", DateOf("2027-04-12T10:00Z")},
      {"2027-04-20T09:00+02:00", DateOf("2027-04-20T07:00Z")},          // the same instant
      {"2027-04-12 10:00:00Z", Value::String("2027-04-12 10:00:00Z")},  // RFC 3339's `T` only
      {"-", Value::String("-")},
      {".", Value::String(".")},
  };
  for (const Case& c : cases) {
    std::string error;
    Value v = TypePlainScalar(c.text, &error);
    INFO("text `" << c.text << "` gave " << KindName(v.kind()) << " " << v.ToLiteral());
    CHECK(v.kind() == c.expected.kind());
    CHECK(v == c.expected);
    CHECK(error.empty());
  }
  std::string error;
  CHECK(std::isnan(TypePlainScalar(".nan", &error).double_value()));
  CHECK(TypePlainScalar("80GiB", &error) == TypePlainScalar("85899345920B", &error));
}

TEST_CASE("scalars out of range or impossible are strings with an error", "[facts]") {
  const std::pair<const char*, const char*> cases[] = {
      {"9223372036854775808", "integer `9223372036854775808` is out of range"},
      {"-9223372036854775809", "integer `-9223372036854775809` is out of range"},
      {"0x8000000000000000", "integer `0x8000000000000000` is out of range"},
      {"1e400", "number `1e400` is out of range"},
      {"-1e400", "number `-1e400` is out of range"},
      {"2027-02-30", "`2027-02-30` is not a valid date"},
      {"2027-13-01", "`2027-13-01` is not a valid date"},
      {"2027-02-30T09:00Z", "`2027-02-30T09:00Z` is not a valid date"},
      {"2027-04-20T25:00Z", "`2027-04-20T25:00Z` is not a valid time: the hour runs from 00 to 23"},
      {"2027-04-20T09:00",
       "`2027-04-20T09:00`: a time needs a UTC offset, such as `Z` or `+02:00`"},
      {"2027-04-20T09:00+24:00",
       "`2027-04-20T09:00+24:00` has a UTC offset out of range: offsets run from `-23:59` to "
       "`+23:59`"},
      {"99999-04-20", "`99999-04-20` is not a valid date: a year has four digits"},
  };
  for (const auto& [text, message] : cases) {
    std::string error;
    Value v = TypePlainScalar(text, &error);
    INFO(text);
    CHECK(error == message);
    CHECK(v == Value::String(text));
  }
}

TEST_CASE("quoted and !!str scalars stay strings", "[facts]") {
  Loaded l(std::string(kPlanHeader) +
           "a: \"5d\"\nb: '80GiB'\nc: !!str 42\nd: \"null\"\ne: yes\nf: 5d\n");
  REQUIRE(l.diags().empty());
  const Value& r = l.root();
  CHECK(*r.Field("a") == Value::String("5d"));
  CHECK(*r.Field("b") == Value::String("80GiB"));
  CHECK(*r.Field("c") == Value::String("42"));
  CHECK(*r.Field("d") == Value::String("null"));
  CHECK(*r.Field("e") == Value::String("yes"));
  CHECK(*r.Field("f") == Value::String("5d"));
  for (const char* quoted : {"a", "b", "c", "d"}) CHECK_FALSE(r.Field(quoted)->plain());
  CHECK(r.Field("e")->plain());
  CHECK(r.Field("f")->plain());
}

// Fact documents are typed by the schema (ValidateDocument): until then a
// plain scalar is null or its text, as written, marked plain.
TEST_CASE("fact documents keep the text of plain scalars, the tool's own files type it",
          "[facts]") {
  std::string text = std::string(kPlanHeader) +
                     "a: 007\nb: 1.10\nc: 1e3\nd: 24h\ne: 2027-02-30\nf: 99999999999999999999\n"
                     "g: ~\nh:\ni: Null\nj: \"007\"\nk: |\n  007\nl: '1.10'\nm: .nan\nn: true\n";
  Loaded l(text);
  REQUIRE(l.diags().empty());  // nothing is typed, so nothing is out of range
  const Value& r = l.root();
  for (const char* plain : {"a", "b", "c", "d", "e", "f", "m", "n"}) {
    INFO(plain);
    REQUIRE(r.Field(plain)->is(ValueKind::kString));
    CHECK(r.Field(plain)->plain());
  }
  CHECK(r.Field("a")->string_value() == "007");
  CHECK(r.Field("b")->string_value() == "1.10");
  CHECK(r.Field("c")->string_value() == "1e3");
  CHECK(r.Field("d")->string_value() == "24h");
  CHECK(r.Field("f")->string_value() == "99999999999999999999");
  for (const char* null : {"g", "h", "i"}) CHECK(r.Field(null)->is(ValueKind::kNull));
  CHECK_FALSE(r.Field("j")->plain());
  CHECK(r.Field("j")->string_value() == "007");
  CHECK_FALSE(r.Field("k")->plain());
  CHECK(r.Field("k")->string_value() == "007\n");
  CHECK_FALSE(r.Field("l")->plain());
  CHECK(LineCol(*r.Field("a")) == std::pair<uint32_t, uint32_t>{3, 4});
  CHECK(r.Field("apiVersion")->plain());

  SourceManager sources;
  RawLoadResult raw = LoadRawYaml(sources, sources.Add("config.yaml", text), {});
  REQUIRE(raw.documents.size() == 1);
  CHECK(Dump(raw.diagnostics) ==
        "7:4: `2027-02-30` is not a valid date\n"
        "8:4: integer `99999999999999999999` is out of range\n");
  const Value& t = raw.documents[0];
  CHECK(*t.Field("a") == Value::Int(7));
  CHECK(*t.Field("b") == Value::Double(1.1));
  CHECK(*t.Field("d") == Value::Duration(86400));
  CHECK(*t.Field("j") == Value::String("007"));
  for (const auto& [key, value] : t.entries()) {
    INFO(key.str());
    CHECK_FALSE(value.plain());
  }
}

// The loader shares one string per short text; a text read both quoted and
// plain keeps each value's own mark.
TEST_CASE("a text read quoted and plain keeps each one's mark", "[facts]") {
  Loaded l(std::string(kPlanHeader) + "a: \"x-1\"\nb: x-1\nc: \"x-1\"\nd: y-2\ne: 'y-2'\nf: y-2\n");
  REQUIRE(l.diags().empty());
  const Value& r = l.root();
  CHECK_FALSE(r.Field("a")->plain());
  CHECK(r.Field("b")->plain());
  CHECK_FALSE(r.Field("c")->plain());
  CHECK(r.Field("d")->plain());
  CHECK_FALSE(r.Field("e")->plain());
  CHECK(r.Field("f")->plain());
  CHECK(r.Field("a")->Identity() == r.Field("b")->Identity());  // one string for both
}

TEST_CASE("ids are kept as written, so `1d` and `24h` are two ids", "[facts]") {
  Loaded l(std::string(kPlanHeader) +
           "allocations:\n  - {id: 1d, gpus: 1}\n  - {id: 24h, gpus: 2}\n  - {id: 007, gpus: 3}\n"
           "  - {id: 7, gpus: 4}\n");
  REQUIRE(l.diags().empty());
  const Value* allocations = l.root().Field("allocations");
  REQUIRE(allocations->keyed());
  REQUIRE(allocations->FindById("1d") != nullptr);
  CHECK(allocations->FindById("24h")->Field("gpus")->string_value() == "2");
  CHECK(allocations->FindById("007")->Field("gpus")->string_value() == "3");
  CHECK(allocations->FindById("7")->Field("gpus")->string_value() == "4");
}

TEST_CASE("the core schema's tags type their scalar, other tags are not supported", "[facts]") {
  Loaded l(std::string(kPlanHeader) +
           "a: !!int \"5\"\nb: !!float 2\nc: !!bool true\nd: !!null ''\ne: !!int five\nf: !foo 5\n"
           "g: !<tag:yaml.org,2002:str> 7\n");
  CHECK(Dump(l.diags()) ==
        "7:4: `five` is not a valid `!!int`\n"
        "8:4: not supported in capops facts: tag `!foo`\n");
  CHECK(*l.root().Field("a") == Value::Int(5));
  CHECK(l.root().Field("b")->is(ValueKind::kDouble));
  CHECK(*l.root().Field("c") == Value::Bool(true));
  CHECK(l.root().Field("d")->is(ValueKind::kNull));
  CHECK(*l.root().Field("e") == Value::String("five"));
  CHECK(*l.root().Field("g") == Value::String("7"));
}

TEST_CASE("values keep the line and column they came from", "[facts]") {
  Loaded l(std::string(kPlanHeader) +
           "metadata: {name: visual-inspection, owner: ai-product-owner}\n"
           "allocations:\n"
           "  - {id: a-train, demand: train-v3, pool: train-eu, gpus: 16, evidence: [r-apr]}\n"
           "  - {id: a-explore, demand: explore, pool: serve-eu-spare, gpus: 2}\n"
           "decision:\n"
           "  owner:\n"
           "  deadline: 2027-04-05\n"
           "note: {text: café, gpus: 4}\n");
  REQUIRE(l.diags().empty());
  const Value& r = l.root();
  const Value* allocations = r.Field("allocations");
  REQUIRE(allocations != nullptr);
  CHECK(LineCol(*allocations) == std::pair<uint32_t, uint32_t>{5, 3});
  const Value& explore = allocations->items()[1];
  CHECK(LineCol(explore) == std::pair<uint32_t, uint32_t>{6, 5});
  CHECK(LineCol(*explore.Field("pool")) == std::pair<uint32_t, uint32_t>{6, 44});
  CHECK(LineCol(*explore.Field("gpus")) == std::pair<uint32_t, uint32_t>{6, 66});
  const Value& evidence = allocations->items()[0].Field("evidence")->items()[0];
  CHECK(LineCol(evidence) == std::pair<uint32_t, uint32_t>{5, 74});
  CHECK(explore.loc().file == 0);
  const Value* decision = r.Field("decision");
  CHECK(LineCol(*decision->Field("deadline")) == std::pair<uint32_t, uint32_t>{9, 13});
  // An empty value is placed at its key, not at the next line's token.
  CHECK(decision->Field("owner")->is(ValueKind::kNull));
  CHECK(LineCol(*decision->Field("owner")) == std::pair<uint32_t, uint32_t>{8, 3});
  // Columns count characters: `é` is two bytes but one column.
  CHECK(LineCol(*r.Field("note")->Field("gpus")) == std::pair<uint32_t, uint32_t>{10, 26});
}

// One flow-style line of 200k characters: columns past 65535 are exact too.
TEST_CASE("values on a very long line keep their columns", "[facts]") {
  std::string line = "  - {id: a-0, demand: d, pool: p, gpus: 1, evidence: [";
  for (int i = 0; i < 20000; ++i) line += "ev-" + std::to_string(100000 + i) + ", ";
  size_t last_column = line.size() + 1;
  line += "ev-last]}\n";
  Loaded l(std::string(kPlanHeader) + "allocations:\n" + line);
  REQUIRE(l.diags().empty());
  const Value& evidence = *l.root().Field("allocations")->items()[0].Field("evidence");
  CHECK(LineCol(evidence.items().back()) ==
        std::pair<uint32_t, uint32_t>{4, static_cast<uint32_t>(last_column)});
  CHECK(LineCol(evidence.items()[10000]).second > 65535);
  CHECK(evidence.items()[10000].string_value() == "ev-110000");
}

TEST_CASE("lists of maps with ids are keyed", "[facts]") {
  Loaded l(std::string(kInventoryHeader) +
           "pools:\n"
           "  - {id: train-eu, accelerator: h100-80, hosts: 4}\n"
           "  - id: serve-eu-spare\n"
           "    accelerator: l4-24\n"
           "    role: production-replacement\n");
  REQUIRE(l.diags().empty());
  const Value* pools = l.root().Field("pools");
  REQUIRE(pools->keyed());
  const Value* spare = pools->FindById("serve-eu-spare");
  REQUIRE(spare != nullptr);
  CHECK(*spare->Field("role") == Value::String("production-replacement"));
  CHECK(LineCol(*spare) == std::pair<uint32_t, uint32_t>{5, 5});
  CHECK(*pools->FindById("train-eu")->Field("hosts") == Value::String("4"));  // typed by the schema
  CHECK(pools->FindById("train-us") == nullptr);
}

TEST_CASE("a file holds several documents", "[facts]") {
  Loaded l(std::string("# the inventory\n") + kInventoryHeader + "pools: []\n---\n" +
           "# the plan\n" + kPlanHeader + "demands: []\n---\n# nothing here\n---\n");
  REQUIRE(l.diags().empty());
  REQUIRE(l.result.documents.size() == 2);
  CHECK(l.result.documents[0].kind == DocumentKind::kInventory);
  CHECK(l.result.documents[1].kind == DocumentKind::kCapacityPlan);
  CHECK(l.result.documents[1].loc.line == 7);
  CHECK(l.result.documents[1].root.loc().line == 7);
}

TEST_CASE("empty files have no documents and no diagnostics", "[facts]") {
  for (const char* text : {"", "# only a comment\n", "\n\n", "---\n", "\xEF\xBB\xBF"}) {
    Loaded l(text);
    INFO(text);
    CHECK(l.result.documents.empty());
    CHECK(l.diags().empty());
  }
}

TEST_CASE("apiVersion and kind are checked", "[facts]") {
  SECTION("unsupported apiVersion at its value") {
    Loaded l("apiVersion: capops.dev/v2\nkind: Inventory\n");
    CHECK(Dump(l.diags()) == "1:13: unsupported apiVersion `capops.dev/v2`\n");
    CHECK(l.diags()[0].help == "use `capops.dev/v1`");
    CHECK(l.diags()[0].code == "facts");
    CHECK(l.result.documents.empty());
  }
  SECTION("unknown kind with a suggestion") {
    Loaded l("apiVersion: capops.dev/v1\nkind: Inventroy\n");
    CHECK(Dump(l.diags()) == "2:7: unknown kind `Inventroy`\n");
    CHECK(l.diags()[0].help == "did you mean `Inventory`? expected `CapacityPlan` or `Inventory`");
  }
  SECTION("unknown kind without a close name") {
    Loaded l("apiVersion: capops.dev/v1\nkind: Foo\n");
    CHECK(Dump(l.diags()) == "2:7: unknown kind `Foo`\n");
    CHECK(l.diags()[0].help == "expected `CapacityPlan` or `Inventory`");
  }
  SECTION("missing fields at the document start; other documents still load") {
    Loaded l(std::string(kPlanHeader) + "---\n# comment\nname: x\n");
    CHECK(Dump(l.diags()) == "5:1: missing `apiVersion`\n5:1: missing `kind`\n");
    REQUIRE(l.result.documents.size() == 1);
    CHECK(l.result.documents[0].kind == DocumentKind::kCapacityPlan);
  }
  SECTION("a document that is not a map") {
    Loaded l("- a\n- b\n");
    CHECK(Dump(l.diags()) == "1:1: a document must be a mapping with `apiVersion` and `kind`\n");
  }
}

TEST_CASE("invalid YAML is a located diagnostic", "[facts]") {
  SECTION("unclosed flow map") {
    Loaded l(std::string(kInventoryHeader) + "pools:\n  - {id: a, hosts: 4\n");
    CHECK(Dump(l.diags()) == "5:1: invalid YAML: missing comma in flow mapping\n");
    CHECK(l.diags()[0].code == "yaml");
    CHECK(l.result.documents.empty());
  }
  SECTION("unclosed flow list at the end of a text without a final newline") {
    Loaded l(std::string(kInventoryHeader) + "pools: [a, b");
    CHECK(Dump(l.diags()) == "3:13: invalid YAML: flow sequence without a closing bracket\n");
  }
  SECTION("tab indentation") {
    Loaded l(std::string(kInventoryHeader) + "pools:\n\t- a\n");
    REQUIRE(l.diags().size() == 1);
    CHECK(l.diags()[0].loc.line == 4);
    CHECK(l.diags()[0].message.rfind("invalid YAML: ", 0) == 0);
  }
  SECTION("a stray comma") {
    Loaded l(std::string(kPlanHeader) + "---\n,\n");
    CHECK(Dump(l.diags()) == "4:1: invalid YAML: did not find expected node content\n");
    CHECK(l.result.documents.size() == 1);
  }
  SECTION("documents before the error are kept, values of the bad one are not reported") {
    Loaded l(std::string(kPlanHeader) + "---\n" + kInventoryHeader + "a: 1e400\nb: [\n");
    CHECK(Dump(l.diags()) == "8:1: invalid YAML: flow sequence without a closing bracket\n");
    REQUIRE(l.result.documents.size() == 1);
    CHECK(l.result.documents[0].kind == DocumentKind::kCapacityPlan);
  }
  SECTION("undefined alias") {
    Loaded l(std::string(kInventoryHeader) + "pools: *nope\n");
    CHECK(Dump(l.diags()) == "3:8: invalid YAML: alias `*nope` names no anchor before it\n");
  }
}

TEST_CASE("bytes that are not UTF-8 text are refused", "[facts]") {
  SECTION("NUL byte") {
    Loaded l(std::string(kInventoryHeader) + "x: a" + std::string(1, '\0') + "b\n");
    CHECK(Dump(l.diags()) == "3:5: file is not text: NUL byte\n");
    CHECK(l.result.documents.empty());
  }
  SECTION("invalid byte after a multi-byte character") {
    Loaded l(std::string(kInventoryHeader) + "x: caf\xC3\xA9 \xFF\n");
    CHECK(Dump(l.diags()) == "3:9: invalid UTF-8\n");
    CHECK(l.result.documents.empty());
  }
  SECTION("overlong, surrogate, truncated") {
    for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xE2\x82", "\xF4\x90\x80\x80"}) {
      Loaded l(std::string(kInventoryHeader) + "x: " + bad + "\n");
      INFO(Dump(l.diags()));
      CHECK(Dump(l.diags()) == "3:4: invalid UTF-8\n");
    }
  }
  SECTION("a BOM is fine and takes no column") {
    Loaded l(std::string("\xEF\xBB\xBF") + kInventoryHeader + "region: eu-west # €\n");
    REQUIRE(l.diags().empty());
    REQUIRE(l.result.documents.size() == 1);
    CHECK(LineCol(*l.root().Field("apiVersion")) == std::pair<uint32_t, uint32_t>{1, 13});
    CHECK(LineCol(*l.root().Field("region")) == std::pair<uint32_t, uint32_t>{3, 9});
  }
}

TEST_CASE("duplicate and non-scalar keys", "[facts]") {
  SECTION("in a large mapping, early and late repeats are both found") {
    std::string text = std::string(kPlanHeader) + "big:\n";
    for (int i = 0; i < 40; ++i)
      text += "  k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
    text += "  k3: again\n  k39: again\n  \"k20\": quoted\n";
    Loaded l(text);
    CHECK(Dump(l.diags()) ==
          "44:3: duplicate key `k3`\n45:3: duplicate key `k39`\n46:3: duplicate key `k20`\n");
    CHECK(l.root().Field("big")->entries().size() == 40);
    CHECK(l.root().Field("big")->Field("k3")->ToString() == "3");
  }
  SECTION("duplicate key points at both") {
    Loaded l(std::string(kPlanHeader) +
             "allocations:\n"
             "  - id: a-explore\n"
             "    pool: serve-eu-spare\n"
             "    gpus: 2\n"
             "    pool: research-eu\n");
    CHECK(Dump(l.diags()) == "7:5: duplicate key `pool`\n");
    const Diagnostic& d = l.diags()[0];
    CHECK(d.help == "the first `pool` is at line 5");
    CHECK(d.length == 4);
    REQUIRE(d.related.size() == 1);
    CHECK(d.related[0].loc == SourceLoc{0, 5, 5});
    // The document still loads; the first value wins.
    const Value& a = l.root().Field("allocations")->items()[0];
    CHECK(*a.Field("pool") == Value::String("serve-eu-spare"));
  }
  SECTION("duplicate key in a flow map") {
    Loaded l(std::string(kPlanHeader) + "x: {a: 1, b: 2, a: 3}\n");
    CHECK(Dump(l.diags()) == "3:17: duplicate key `a`\n");
  }
  SECTION("the value of a duplicate key is skipped whole") {
    Loaded l(std::string(kPlanHeader) + "a: {x: 1}\na: {x: [2, &s {y: 3}]}\nb: 4\nc: *s\n");
    CHECK(Dump(l.diags()) == "4:1: duplicate key `a`\n");
    CHECK(l.root().Field("a")->Field("x")->string_value() == "1");
    CHECK(l.root().Field("b")->string_value() == "4");
    // The anchor went with the dropped value.
    CHECK(l.root().Field("c")->is(ValueKind::kNull));
  }
  SECTION("keys that are not scalars lose their values") {
    Loaded l(std::string(kPlanHeader) + "? [a, b]\n: {c: 1}\n~: 2\nd: 3\n");
    CHECK(Dump(l.diags()) ==
          "3:3: not supported in capops facts: a sequence as a key\n5:1: not supported in capops "
          "facts: a null key\n");
    CHECK(l.root().entries().size() == 3);  // apiVersion, kind, d
    CHECK(l.root().Field("d")->string_value() == "3");
  }
}

TEST_CASE("nesting is limited", "[facts]") {
  SECTION("at max_depth") {
    LoadOptions options;
    options.max_depth = 3;
    Loaded ok(std::string(kPlanHeader) + "a: {b: [1]}\n", options);
    CHECK(ok.diags().empty());
    Loaded deep(std::string(kPlanHeader) + "a: {b: [1]}\nc: {d: {e: [1]}}\n", options);
    CHECK(Dump(deep.diags()) == "4:12: nesting deeper than 3 levels\n");
    CHECK(deep.result.documents.empty());
  }
  SECTION("absurd flow nesting does not reach the parser") {
    Loaded l(std::string(kPlanHeader) + "a: " + std::string(200000, '[') + "\n");
    REQUIRE(l.diags().size() == 1);
    CHECK(l.diags()[0].message == "nesting deeper than 64 levels");
    CHECK(l.diags()[0].loc.line == 3);
  }
  SECTION("deep block nesting stops at the limit") {
    std::string text = std::string(kPlanHeader) + "a:\n";
    for (int i = 0; i < 200000; ++i) text += "- ";
    Loaded l(text + "x\n");
    // The root map is level 1, the `- ` at column 2i+1 opens level i+2.
    CHECK(Dump(l.diags()) == "4:127: nesting deeper than 64 levels\n");
    CHECK(l.result.documents.empty());
  }
  SECTION("an alias inside its own anchor") {
    Loaded l(std::string(kPlanHeader) + "a: &loop [1, *loop]\n");
    CHECK(Dump(l.diags()) ==
          "3:14: not supported in capops facts: alias `*loop` inside the collection it names\n");
    CHECK(l.result.documents.empty());
  }
}

// 9 levels of 9 references: 9^9 strings once expanded.
std::string AliasBomb() {
  std::string text = kPlanHeader;
  text += "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int level = 1; level < 9; ++level) {
    std::string prev = "*l" + std::to_string(level - 1);
    text += "l" + std::to_string(level) + ": &l" + std::to_string(level) + " [";
    for (int i = 0; i < 9; ++i) text += (i ? ", " : "") + prev;
    text += "]\n";
  }
  return text;
}

TEST_CASE("values are counted with aliases expanded", "[facts]") {
  SECTION("alias bomb with the default limit") {
    Loaded l(AliasBomb());
    REQUIRE(l.diags().size() == 1);
    CHECK(l.diags()[0].message == "document expands to more than 1000000 values (aliases?)");
    CHECK(l.result.documents.empty());
  }
  SECTION("the limit is exact and counts every alias") {
    // root, apiVersion, kind, then a, b and c: three lists of four values.
    std::string text = std::string(kPlanHeader) + "a: &a [1, 2, 3]\nb: *a\nc: *a\n";
    LoadOptions options;
    options.max_nodes = 15;
    CHECK(Loaded(text, options).diags().empty());
    options.max_nodes = 14;
    Loaded l(text, options);
    // At the alias that crosses the limit.
    CHECK(Dump(l.diags()) == "5:4: document expands to more than 14 values (aliases?)\n");
    CHECK(l.result.documents.empty());
  }
  SECTION("an alias reads as its anchor") {
    Loaded l(std::string(kPlanHeader) +
             "a: &window {start: 2027-04-12, duration: 5d}\nb: *window\n");
    REQUIRE(l.diags().empty());
    CHECK(*l.root().Field("a") == *l.root().Field("b"));
    CHECK(l.root().Field("b")->Field("duration")->string_value() == "5d");
    CHECK(l.root().Field("b")->Field("duration")->plain());
  }
}

// "line:col <- line:col into line:col from line:col `name`" per merged
// value: compact to compare.
std::string Dump(const LoadResult& result) {
  auto at = [](const SourceLoc& loc) {
    return std::to_string(loc.line) + ":" + std::to_string(loc.column);
  };
  std::string out;
  for (const MergedValue& m : result.merged) {
    const MergeSite& site = result.merges.at(m.site);
    out += at(m.at) + " <- " + at(site.site) + " into " + at(site.into) + " from " + at(site.from) +
           " `" + site.name + "`\n";
  }
  return out;
}

TEST_CASE("a value merged in by `<<` keeps its place, and each merge of it is listed", "[facts]") {
  Loaded l(std::string(kPlanHeader) +
           "base: &b {gpus: 9, window: {start: 2027-04-12}, tags: [x]}\n"  // 3
           "copy: {<<: *b, id: c}\n"                                       // 4
           "own:\n  <<: *b\n  gpus: 7\n"                                   // 5-7
           "list: {<<: [*b, {id: l, gpus: 1}]}\n"                          // 8
           "inline: {<<: {gpus: 5}}\n"                                     // 9
           "chain: &c {<<: *b}\n"                                          // 10
           "chained: {<<: *c}\n"                                           // 11
           "nested: {window: {<<: *b, tags: []}}\n");                      // 12
  REQUIRE(l.diags().empty());
  const Value& root = l.root();
  // Where it is written, in every copy; a key written beside `<<` keeps its own place.
  CHECK(LineCol(*root.Field("copy")->Field("gpus")) == std::make_pair(3u, 17u));
  CHECK(LineCol(*root.Field("copy")->Field("window")->Field("start")) == std::make_pair(3u, 36u));
  CHECK(LineCol(*root.Field("own")->Field("gpus")) == std::make_pair(7u, 9u));
  CHECK(*root.Field("list")->Field("gpus") == Value::String("9"));  // the first map wins
  CHECK(*root.Field("list")->Field("id") == Value::String("l"));
  CHECK(LineCol(*root.Field("chained")->Field("gpus")) == std::make_pair(3u, 17u));
  CHECK(l.result.aliases.empty());  // a merge is not an alias use
  CHECK(Dump(l.result) ==
        // copy: each field and each value under one
        "3:17 <- 4:8 into 4:7 from 3:10 `b`\n"
        "3:28 <- 4:8 into 4:7 from 3:10 `b`\n"
        "3:36 <- 4:8 into 4:7 from 3:10 `b`\n"
        "3:55 <- 4:8 into 4:7 from 3:10 `b`\n"
        "3:56 <- 4:8 into 4:7 from 3:10 `b`\n"
        // own: `gpus` is its own
        "3:28 <- 6:3 into 6:3 from 3:10 `b`\n"
        "3:36 <- 6:3 into 6:3 from 3:10 `b`\n"
        "3:55 <- 6:3 into 6:3 from 3:10 `b`\n"
        "3:56 <- 6:3 into 6:3 from 3:10 `b`\n"
        // list: `*b`'s fields, then the inline map's `id`
        "3:17 <- 8:8 into 8:7 from 3:10 `b`\n"
        "3:28 <- 8:8 into 8:7 from 3:10 `b`\n"
        "3:36 <- 8:8 into 8:7 from 3:10 `b`\n"
        "3:55 <- 8:8 into 8:7 from 3:10 `b`\n"
        "3:56 <- 8:8 into 8:7 from 3:10 `b`\n"
        "8:22 <- 8:8 into 8:7 from 8:17 ``\n"
        // inline: no anchor
        "9:21 <- 9:10 into 9:9 from 9:14 ``\n"
        // chain, then chained (from chain's map, by its `<<`)
        "3:17 <- 10:12 into 10:11 from 3:10 `b`\n"
        "3:28 <- 10:12 into 10:11 from 3:10 `b`\n"
        "3:36 <- 10:12 into 10:11 from 3:10 `b`\n"
        "3:55 <- 10:12 into 10:11 from 3:10 `b`\n"
        "3:56 <- 10:12 into 10:11 from 3:10 `b`\n"
        "3:17 <- 11:11 into 11:10 from 10:11 `c`\n"
        "3:28 <- 11:11 into 11:10 from 10:11 `c`\n"
        "3:36 <- 11:11 into 11:10 from 10:11 `c`\n"
        "3:55 <- 11:11 into 11:10 from 10:11 `c`\n"
        "3:56 <- 11:11 into 11:10 from 10:11 `c`\n"
        // nested: into the inner map
        "3:17 <- 12:19 into 12:18 from 3:10 `b`\n"
        "3:28 <- 12:19 into 12:18 from 3:10 `b`\n"
        "3:36 <- 12:19 into 12:18 from 3:10 `b`\n");
}

// In the tool's own files; in facts, validation types and reports them.
TEST_CASE("scalar errors are located", "[facts]") {
  SourceManager sources;
  FileId file = sources.Add(
      "config.yaml", std::string(kPlanHeader) +
                         "gpus: 99999999999999999999\nratio: 1e400\nwindow: {start: 2027-02-30}\n");
  RawLoadResult l = LoadRawYaml(sources, file, {});
  CHECK(Dump(l.diagnostics) ==
        "3:7: integer `99999999999999999999` is out of range\n"
        "4:8: number `1e400` is out of range\n"
        "5:17: `2027-02-30` is not a valid date\n");
  CHECK(l.diagnostics[0].code == "yaml");
  CHECK(l.diagnostics[1].length == 5);  // underlines `1e400`
  REQUIRE(l.documents.size() == 1);
  CHECK(*l.documents[0].Field("gpus") == Value::String("99999999999999999999"));
}

TEST_CASE("documents of one kind merge", "[facts]") {
  Loaded l(std::string(kInventoryHeader) +
           "region: eu-west\n"
           "pools:\n"
           "  - {id: train-eu, hosts: 4}\n"
           "  - {id: serve-eu, hosts: 1}\n"
           "---\n" +
           kInventoryHeader +
           "region: us-east\n"
           "pools:\n"
           "  - {id: serve-eu-spare, hosts: 1}\n"
           "  - {id: train-eu, hosts: 2}\n"
           "supply: [{id: r-apr, kind: reservation}]\n");
  REQUIRE(l.diags().empty());
  REQUIRE(l.result.documents.size() == 2);
  Diagnostics diags;
  Value merged = MergeDocuments({&l.result.documents[0], &l.result.documents[1]}, &diags);
  CHECK(Dump(diags) == "13:10: duplicate id `train-eu` in `pools`\n");
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "facts");
  REQUIRE(diags[0].related.size() == 1);
  CHECK(diags[0].related[0].loc == SourceLoc{0, 5, 10});
  CHECK(*merged.Field("region") == Value::String("eu-west"));
  const Value* pools = merged.Field("pools");
  REQUIRE(pools->keyed());
  CHECK(pools->items().size() == 3);
  CHECK(pools->FindById("serve-eu-spare") != nullptr);
  CHECK(pools->FindById("train-eu")->Field("hosts")->string_value() == "4");
  CHECK(merged.Field("supply")->FindById("r-apr") != nullptr);
  CHECK(merged.loc() == l.root(0).loc());
  CHECK(LineCol(*pools) == std::pair<uint32_t, uint32_t>{5, 3});
}

TEST_CASE("merging lists with other values is diagnosed", "[facts]") {
  Loaded l(std::string(kInventoryHeader) + "pools: [{id: a}]\n---\n" + kInventoryHeader +
           "pools: {id: b}\n");
  Diagnostics diags;
  Value merged = MergeDocuments({&l.result.documents[0], &l.result.documents[1]}, &diags);
  CHECK(Dump(diags) == "7:8: `pools` must be a list, as in an earlier document\n");
  CHECK(merged.Field("pools")->items().size() == 1);
}

TEST_CASE("merging no documents gives an empty map", "[facts]") {
  Diagnostics diags;
  Value merged = MergeDocuments({}, &diags);
  CHECK(merged.is(ValueKind::kMap));
  CHECK(merged.entries().empty());
  CHECK(diags.empty());
}

TEST_CASE("document kinds have names", "[facts]") {
  CHECK(std::string(DocumentKindName(DocumentKind::kCapacityPlan)) == "CapacityPlan");
  CHECK(std::string(DocumentKindName(DocumentKind::kInventory)) == "Inventory");
}

// Every value with its place, depth first: what a load gives, to compare.
void DumpValues(const Value& v, std::string* out) {
  *out += std::to_string(v.loc().line) + ":" + std::to_string(v.loc().column) + " " +
          KindName(v.kind());
  if (v.is(ValueKind::kList)) {
    *out += "\n";
    for (const Value& item : v.items()) DumpValues(item, out);
  } else if (v.is(ValueKind::kMap)) {
    *out += "\n";
    for (const auto& [key, value] : v.entries()) {
      *out += key.str() + "=";
      DumpValues(value, out);
    }
  } else {
    *out += " " + v.ToLiteral() + "\n";
  }
}

std::string DumpLoad(const LoadResult& r) {
  std::string out = Dump(r.diagnostics);
  for (const Document& d : r.documents) DumpValues(d.root, &out);
  return out;
}

// A run that gives texts back parses ASCII text from the file on disk and
// other text from memory: either way it finds what a load from memory finds.
TEST_CASE("a file given back to disk loads as it does from memory", "[facts]") {
  const std::string flow = "  - {id: a-1, demand: d, pool: p, gpus: 4, evidence: [r-1, r-2]}\n";
  std::string big(kPlanHeader);
  big += "allocations:\n";
  for (int i = 0; i < 5000; ++i) big += flow;  // more than one block of the reader
  const std::string texts[] = {
      big,
      std::string(kPlanHeader) + "metadata: {name: caf\xC3\xA9, owner: x}\nnote: {gpus: 4}\n",
      "\xEF\xBB\xBF" + std::string(kPlanHeader) + "metadata: {name: n}\n",
      std::string(kPlanHeader) + "---\n,\n",
      std::string(kPlanHeader) + "---\n" + kInventoryHeader + "a: 1e400\nb: [\n",
  };
  for (const std::string& text : texts) {
    CAPTURE(text.substr(0, 80));
    Loaded from_memory(text);
    testing::TempFile file(text);
    SourceManager sources;
    FileId id = sources.Add(file.path(), text, file.Stamp());
    LoadResult r = LoadYamlReleasing(&sources, id, {}, 0);
    CHECK(DumpLoad(r) == DumpLoad(from_memory.result));
    CHECK(sources.file(id).released());
  }
}

TEST_CASE("a file changed on disk before it is parsed is parsed from memory and kept", "[facts]") {
  std::string text = std::string(kPlanHeader) + "metadata: {name: n, owner: o}\n";
  testing::TempFile file(text);
  SourceManager sources;
  FileId id = sources.Add(file.path(), text, file.Stamp());
  capops::testing::WriteFile(file.path(),
                             std::string(kPlanHeader) + "metadata: {name: other}\n# longer\n");
  LoadResult r = LoadYamlReleasing(&sources, id, {}, 0);
  CHECK(r.diagnostics.empty());
  REQUIRE(r.documents.size() == 1);
  CHECK(r.documents[0].root.Field("metadata")->Field("owner")->string_value() == "o");
  CHECK_FALSE(sources.file(id).released());
  // Below the size given, a file keeps its text.
  testing::TempFile same(text);
  FileId kept = sources.Add(same.path(), text, same.Stamp());
  LoadYamlReleasing(&sources, kept, {}, text.size() + 1);
  CHECK_FALSE(sources.file(kept).released());
}
}  // namespace
}  // namespace capops::facts

namespace capops::facts {
namespace {

// The limits that guard against hostile files, one by one.
TEST_CASE("file size, document count and value length are limited", "[facts]") {
  auto load = [](const std::string& text, const LoadOptions& options) {
    SourceManager sources;
    FileId f = sources.Add("limits.yaml", text);
    LoadResult r = LoadYaml(sources, f, options);
    std::vector<std::string> out;
    for (const Diagnostic& d : r.diagnostics.items()) {
      out.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " +
                    d.message);
    }
    return std::make_pair(out, r.documents.size());
  };
  const std::string doc = "apiVersion: capops.dev/v1\nkind: Inventory\npools: []\n";
  LoadOptions small;
  small.max_file_bytes = 20;
  CHECK(load(doc, small).first == std::vector<std::string>{"1:1: file is larger than 20 bytes"});

  LoadOptions two;
  two.max_documents = 2;
  auto [errors, kept] = load(doc + "---\n" + doc + "---\n" + doc, two);
  CHECK(errors ==
        std::vector<std::string>{"8:1: more than 2 documents in one file"});  // at its `---`
  CHECK(kept == 2);

  LoadOptions short_values;
  short_values.max_string_length = 16;
  auto [long_errors, long_kept] = load(doc + "note: abcdefghijklmnopqrstu\n", short_values);
  CHECK(long_errors ==
        std::vector<std::string>{
            "4:7: a value longer than 16 bytes (raise it with `--max-string-length`)"});
  CHECK(long_kept == 0);
}

}  // namespace
}  // namespace capops::facts

namespace capops::facts {
namespace {

// "key/0/key" for a path.
std::string PathText(const YamlPoint& p) {
  std::string out;
  for (const PathStep& s : p.path)
    out += (out.empty() ? "" : "/") + (s.is_item ? std::to_string(s.index) : s.key);
  return out;
}

TEST_CASE("PointAt finds the scalar at a position, in block and flow style alike", "[facts]") {
  std::string text =
      "apiVersion: capops.dev/v1\n"
      "kind: CapacityPlan\n"
      "allocations:\n"
      "  - id: a\n"
      "    pool: train-eu\n"
      "  - {id: b, pool: \"serve eu\", evidence: [r1, r2]}\n"
      "decision:\n"
      "  owner:\n"
      "---\n"
      "kind: Inventory\n"
      "pools: []\n";
  // The value `train-eu`, from its first character to just past its last.
  for (uint32_t column : {11u, 14u, 19u}) {
    std::optional<YamlPoint> p = PointAt(text, 5, column);
    REQUIRE(p);
    CHECK_FALSE(p->on_key);
    CHECK(p->text == "train-eu");
    CHECK(PathText(*p) == "allocations/0/pool");
    CHECK(p->kind == "CapacityPlan");
    CHECK(p->document == 0);
    CHECK(p->begin.line == 5);
    CHECK(p->begin.column == 11);
    CHECK(p->end.column == 19);
    CHECK(p->keys == std::vector<std::string>{"id", "pool"});
  }
  // The key `pool` in a flow mapping: its mapping's other keys, before and after it.
  std::optional<YamlPoint> key = PointAt(text, 6, 13);
  REQUIRE(key);
  CHECK(key->on_key);
  CHECK(key->text == "pool");
  CHECK(PathText(*key) == "allocations/1");
  CHECK(key->keys == std::vector<std::string>{"id", "evidence"});
  // A quoted value, counted from its quote; a flow list's item.
  std::optional<YamlPoint> quoted = PointAt(text, 6, 19);
  REQUIRE(quoted);
  CHECK(quoted->text == "serve eu");
  CHECK(quoted->begin.column == 19);
  std::optional<YamlPoint> item = PointAt(text, 6, 46);
  REQUIRE(item);
  CHECK(item->text == "r2");
  CHECK(PathText(*item) == "allocations/1/evidence/1");
  // An empty value is found from its key's line; the next document has its own kind.
  std::optional<YamlPoint> empty = PointAt(text, 8, 10);
  REQUIRE(empty);
  CHECK(empty->text.empty());
  CHECK(PathText(*empty) == "decision/owner");
  std::optional<YamlPoint> second = PointAt(text, 11, 2);
  REQUIRE(second);
  CHECK(second->document == 1);
  CHECK(second->kind == "Inventory");
  // Nothing there, out of range, or past an error.
  CHECK_FALSE(PointAt(text, 3, 14));
  CHECK_FALSE(PointAt(text, 99, 1));
  CHECK_FALSE(PointAt(text, 0, 0));
  CHECK(PointAt("a: b\nc: d: e\nf: g\n", 1, 1));  // before the error: still found
  CHECK_FALSE(PointAt("a: b\nc: d: e\nf: g\n", 3, 4));
}

}  // namespace
}  // namespace capops::facts
