// SPDX-License-Identifier: Apache-2.0
// Tests for ScanHeads: what each document says it is, read from the events
// alone; all input is in memory.
#include "engine/facts/document_head.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace capops::facts {
namespace {

constexpr FileId kFile = 7;

// The heads of a text as one line each, `line:col` of the root, then the
// fields with their places; `watched` keys and `unsure` when so.
std::string Dump(const DocumentHead& h) {
  auto at = [](const SourceLoc& l) {
    return std::to_string(l.line) + ":" + std::to_string(l.column);
  };
  auto field = [&](const char* name, const std::optional<HeadField>& f) -> std::string {
    if (!f) return "";
    return std::string(" ") + name + "=" + (f->scalar ? "`" + f->text + "`" : "{…}") + "@" +
           at(f->loc);
  };
  std::string out = (h.is_map ? "map@" : "node@") + at(h.loc) + field("apiVersion", h.api_version) +
                    field("kind", h.kind);
  for (const std::string& w : h.watched) out += " +" + w;
  if (h.unsure) out += " unsure";
  return out;
}

struct Scan {
  std::vector<std::string> heads;
  std::optional<Diagnostic> problem;
};

// Every head, read to the end; with `stop_after`, on_head says stop after that many.
Scan Heads(std::string_view text, size_t stop_after = SIZE_MAX, LoadOptions options = {}) {
  Scan s;
  s.problem = ScanHeads(text, kFile, options, {"waivers"}, [&](const DocumentHead& h) {
    s.heads.push_back(Dump(h));
    return s.heads.size() < stop_after;
  });
  return s;
}

std::string Problem(const Scan& s) {
  if (!s.problem) return "";
  return std::to_string(s.problem->loc.line) + ":" + std::to_string(s.problem->loc.column) + ": " +
         s.problem->message;
}

using Lines = std::vector<std::string>;

TEST_CASE("heads: the top-level apiVersion and kind, however YAML spells them", "[facts]") {
  struct Case {
    const char* what;
    std::string text;
    std::string head;
  };
  const std::vector<Case> cases = {
      {"block", "apiVersion: capops.dev/v1\nkind: CapacityPlan\n",
       "map@1:1 apiVersion=`capops.dev/v1`@1:13 kind=`CapacityPlan`@2:7"},
      {"flow, one line", "{a: 1, kind: Deployment, apiVersion: apps/v1}\n",
       "map@1:1 apiVersion=`apps/v1`@1:38 kind=`Deployment`@1:14"},
      {"flow after a comment", "# c\n  {kind: K, apiVersion: v}\n",
       "map@2:3 apiVersion=`v`@2:25 kind=`K`@2:10"},
      {"flow after a directive and `---`", "%YAML 1.2\n--- # c\n{kind: K, apiVersion: v}\n",
       "map@3:1 apiVersion=`v`@3:23 kind=`K`@3:8"},
      {"flow on the `---` line", "---  {kind: K}\n", "map@1:6 kind=`K`@1:13"},
      {"JSON", "{\"apiVersion\": \"capops.dev/v1\", \"kind\": \"CapacityPlan\"}",
       "map@1:1 apiVersion=`capops.dev/v1`@1:16 kind=`CapacityPlan`@1:41"},
      {"quoted keys, escapes", "'apiVersion': x\n\"\\x6bind\": \"Capacity\\u0050lan\"\n",
       "map@1:1 apiVersion=`x`@1:15 kind=`CapacityPlan`@2:12"},
      {"explicit keys, a tag", "? apiVersion\n: v\n? kind\n: !!str CapacityPlan\n",
       "map@1:1 apiVersion=`v`@2:3 kind=`CapacityPlan`@4:9"},
      {"after a BOM",
       "\xEF\xBB\xBF"
       "kind: Deployment\napiVersion: v\n",
       "map@1:1 apiVersion=`v`@2:13 kind=`Deployment`@1:7"},
      {"nested kinds are not the document's", "spec:\n  kind: CapacityPlan\nx: [{kind: Y}]\n",
       "map@1:1"},
      {"late, after large values",
       "metadata:\n  notes: '" + std::string(200000, 'n') + "'\n  list: [" +
           std::string(100000, '1').replace(1, 1, ",") + "]\napiVersion: v\nkind: CapacityPlan\n",
       "map@1:1 apiVersion=`v`@4:13 kind=`CapacityPlan`@5:7"},
      {"a collection as kind", "kind: {a: 1}\napiVersion: v\n",
       "map@1:1 apiVersion=`v`@2:13 kind={…}@1:7"},
      {"watched keys, until the head is complete", "waivers: []\nx: 1\n", "map@1:1 +waivers"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    Scan s = Heads(c.text);
    CHECK(Problem(s).empty());
    CHECK(s.heads == Lines{c.head});
  }
}

TEST_CASE("heads: aliases are followed to their anchors in the document", "[facts]") {
  CHECK(Heads("k: &k CapacityPlan\napiVersion: v\nkind: *k\n").heads ==
        Lines{"map@1:1 apiVersion=`v`@2:13 kind=`CapacityPlan`@3:7"});
  // An anchor deep in the document, a key's anchor, a collection's.
  CHECK(Heads("a: {b: [&k Deployment]}\nkind: *k\n").heads ==
        Lines{"map@1:1 kind=`Deployment`@2:7"});
  CHECK(Heads("&v apiVersion: x\nkind: *v\n").heads ==
        Lines{"map@1:1 apiVersion=`x`@1:16 kind=`apiVersion`@2:7"});
  CHECK(Heads("a: &m {x: 1}\nkind: *m\n").heads == Lines{"map@1:1 kind={…}@2:7"});
  // Anchors are the document's own; a later one wins.
  CHECK(Heads("a: &k Plan\n---\nkind: *k\n").heads ==
        Lines{"map@1:1", "map@3:1 kind=``@3:7 unsure"});
  CHECK(Heads("a: &k A\nb: &k B\nkind: *k\n").heads == Lines{"map@1:1 kind=`B`@3:7"});
  CHECK(Heads("a: &k A\nb: &k [1]\nkind: *k\n").heads == Lines{"map@1:1 kind={…}@3:7"});
  // What the table does not hold is unsure, never guessed.
  std::string many = "a: [";
  for (int i = 0; i < 5000; ++i)
    many += "&a" + std::to_string(i) + " " + std::string(20, 'x') + ", ";
  CHECK(Heads(many + "]\nkind: *a4999\n").heads == Lines{"map@1:1 kind=``@2:7 unsure"});
  CHECK(Heads(many + "]\nkind: *a9\n").heads ==
        Lines{"map@1:1 kind=`" + std::string(20, 'x') + "`@2:7"});
  CHECK(Heads("a: &k '" + std::string(2000, 'k') + "'\nkind: *k\n").heads ==
        Lines{"map@1:1 kind=``@2:7 unsure"});
  // An alias as a key may spell `kind`; one that cannot be followed may.
  CHECK(Heads("a: &k kind\n*k : CapacityPlan\n").heads == Lines{"map@1:1 kind=`CapacityPlan`@2:6"});
  CHECK(Heads("a: &k other\n*k : CapacityPlan\n").heads == Lines{"map@1:1"});
  CHECK(Heads("*k : CapacityPlan\n").heads == Lines{"map@1:1 unsure"});
}

TEST_CASE("heads: documents that are not mappings, empty ones, several", "[facts]") {
  CHECK(Heads("- kind: CapacityPlan\n").heads == Lines{"node@1:1"});
  CHECK(Heads("just text\n").heads == Lines{"node@1:1"});
  CHECK(Heads("").heads.empty());
  CHECK(Heads("# only a comment\n---\n...\n--- ~\n--- !!null\n--- !!null ''\n").heads.empty());
  CHECK(Heads("--- !\n--- ''\n--- !!null x\n").heads == Lines{"node@1:4", "node@2:5", "node@3:12"});
  CHECK(Heads("---\n---\nkind: A\n---\n[1]\n---\nkind: B\napiVersion: v\n").heads ==
        Lines{"map@3:1 kind=`A`@3:7", "node@5:1", "map@7:1 apiVersion=`v`@8:13 kind=`B`@7:7"});
}

TEST_CASE("heads: what only a full load can tell is unsure", "[facts]") {
  // A merge may bring a key that is missing; explicit keys win over it.
  CHECK(Heads("b: &b {kind: CapacityPlan}\n<<: *b\napiVersion: v\n").heads ==
        Lines{"map@1:1 apiVersion=`v`@3:13 unsure"});
  CHECK(Heads("<<: {kind: X}\nkind: A\napiVersion: v\n").heads ==
        Lines{"map@1:1 apiVersion=`v`@3:13 kind=`A`@2:7"});
  // A key given twice: before the head is complete, and after (a second call).
  CHECK(Heads("kind: A\nkind: CapacityPlan\napiVersion: v\n").heads ==
        Lines{"map@1:1 apiVersion=`v`@3:13 kind=`A`@1:7 unsure"});
  CHECK(Heads("kind: A\napiVersion: v\nx: 1\nkind: CapacityPlan\n").heads ==
        Lines{"map@1:1 apiVersion=`v`@2:13 kind=`A`@1:7",
              "map@1:1 apiVersion=`v`@2:13 kind=`A`@1:7 unsure"});
  CHECK(Heads("kind: *nowhere\n").heads == Lines{"map@1:1 kind=``@1:7 unsure"});
  CHECK(Heads("*a\n").heads == Lines{"node@1:1 unsure"});
}

TEST_CASE("heads: the read stops when told, and goes no further", "[facts]") {
  // The rest is not YAML, nor text: never read when the first head stops it.
  std::string text = "apiVersion: v\nkind: CapacityPlan\n---\n\xff\x00[unclosed";
  text.push_back('\0');
  Scan stopped = Heads(text, 1);
  CHECK(stopped.heads == Lines{"map@1:1 apiVersion=`v`@1:13 kind=`CapacityPlan`@2:7"});
  CHECK_FALSE(stopped.problem);
  CHECK(Problem(Heads(text)) == "4:1: invalid UTF-8");
  // A head is delivered as soon as it is complete, before its mapping ends.
  Scan early = Heads("kind: A\napiVersion: v\nrest: [unclosed\n", 1);
  CHECK(early.heads.size() == 1);
  CHECK_FALSE(early.problem);
}

TEST_CASE("heads: what stops the read is located", "[facts]") {
  struct Case {
    const char* what;
    std::string text;
    Lines heads;
    std::string problem;
  };
  std::string nul = "kind: A\nx: a";
  nul += '\0';
  nul += "\n---\nkind: CapacityPlan\n";
  const std::vector<Case> cases = {
      {"invalid UTF-8 before the keys",
       "a: \xff\xfe\nkind: CapacityPlan\n",
       {},
       "1:4: invalid UTF-8"},
      {"invalid UTF-8 in the kind", "kind: Dep\xffloy\n", {}, "1:10: invalid UTF-8"},
      {"a NUL byte hides the rest", nul, {}, "2:5: file is not text: NUL byte"},
      {"a lone CR",
       "kind: A\rapiVersion: v\n",
       {},
       "1:8: not supported in capops facts: a line break that is a lone carriage return (CR)"},
      {"a syntax error before the keys", "a: [1\nkind: CapacityPlan\n", {}, "invalid YAML"},
      {"a syntax error after them",
       "kind: A\napiVersion: v\nb: [1\n",
       {"map@1:1 apiVersion=`v`@2:13 kind=`A`@1:7"},
       "invalid YAML"},
      {"a root collection used as a key", "{a: 1}: b\n", {"map@1:1"}, "invalid YAML"},
      {"nesting too deep",
       "a: " + std::string(70, '[') + std::string(70, ']') + "\n",
       {},
       "1:" + std::to_string(4 + 63) + ": nesting deeper than 64 levels"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    Scan s = Heads(c.text);
    CHECK(s.heads == c.heads);
    REQUIRE(s.problem);
    CHECK(s.problem->loc.file == kFile);
    CHECK(Problem(s).find(c.problem) != std::string::npos);
  }
  // Invalid YAML is located where libfyaml stops, on a line read as if
  // `--- ` began it too.
  Scan flow = Heads("{a: [1, }\n");
  REQUIRE(flow.problem);
  CHECK(flow.problem->loc.line == 1);
  CHECK(flow.problem->loc.column <= 9);
}

TEST_CASE("heads: thousands of documents are read with no document limit", "[facts]") {
  std::string dump;
  for (int i = 0; i < 3000; ++i) dump += "---\napiVersion: apps/v1\nkind: Deployment\n";
  Scan s = Heads(dump, SIZE_MAX, LoadOptions{.max_documents = 10});
  CHECK_FALSE(s.problem);
  REQUIRE(s.heads.size() == 3000);
  CHECK(s.heads.back() == "map@8999:1 apiVersion=`apps/v1`@8999:13 kind=`Deployment`@9000:7");
}

}  // namespace
}  // namespace capops::facts
