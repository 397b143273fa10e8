// SPDX-License-Identifier: Apache-2.0
// capops-lsp as an editor uses it while a plan is written: quick fixes for
// the did-you-means of its diagnostics, the outline of a plan or inventory
// (broken ones too), and the skeletons offered in an empty file.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "engine/lsp/code_actions.h"
#include "engine/lsp/document_symbols.h"
#include "engine/lsp/jsonrpc.h"
#include "tests/support/lsp_client.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace capops::lsp {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using namespace capops::testing;  // the client: lsp_client.h

const fs::path kExample = fs::path(capops::testing::SourceDir()) / "examples/visual-inspection";

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// `text` with the first `from` after `at` replaced by `to`.
std::string Replaced(std::string text, const std::string& from, const std::string& to,
                     const std::string& at = "") {
  size_t where = text.find(from, text.find(at));
  REQUIRE(where != std::string::npos);
  return text.replace(where, from.size(), to);
}

// The published diagnostics whose message holds `needle`.
std::vector<Json> WithMessage(const Json& published, const std::string& needle) {
  std::vector<Json> out;
  for (const Json& d : published["params"]["diagnostics"]) {
    if (d["message"].get<std::string>().find(needle) != std::string::npos) out.push_back(d);
  }
  return out;
}

// The example scenario copied to a directory of its own: the plan's text
// and URI, its inventory beside it on disk.
struct Scenario {
  TempDir dir{"capops-lsp-fix"};
  std::string plan;
  std::string uri;
  /// The example, or its variant in `variant` (a folder of it).
  explicit Scenario(const std::string& variant = "") {
    plan = ReadText(kExample / variant / "plan.yaml");
    dir.Write("inventory.yaml", ReadText(kExample / variant / "inventory.yaml"));
    uri = UriOfPath(dir.Write("plan.yaml", plan));
  }
};

Json Edit(int line, int from, int to, const std::string& text) {
  return {{"range",
           {{"start", {{"line", line}, {"character", from}}},
            {"end", {{"line", line}, {"character", to}}}}},
          {"newText", text}};
}

TEST_CASE("QuickFixes: an action per fix the diagnostic carries, and none for a malformed one",
          "[lsp]") {
  const std::string text = "a: {role: 'resarch', pool: x}\nb: [\"tran\", y]\n";
  Json all = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 9}, {"character", 0}}}};
  Json range = Edit(0, 10, 19, "")["range"];
  // (Json::array, not braces: one element in braces is that element to some
  // compilers and a list of it to others.)
  auto with = [&](Json fixes) {
    return Json{{"range", range},
                {"message", "unknown PoolRole `resarch`"},
                {"data", {{"fixes", std::move(fixes)}}}};
  };
  Json own = {{"title", "change `resarch` to `research`"},
              {"changes", {{"file:///w/./f.yaml", Json::array({Edit(0, 11, 18, "research")})}}}};
  Json other = {{"title", "cite `r-may`"},
                {"changes", {{"file:///w/inventory.yaml", Json::array({Edit(3, 0, 0, "x")})}}}};
  // The document's own edits are keyed by the URI it was asked by.
  Json actions = QuickFixes("file:///w/f.yaml", "/w/f.yaml",
                            Json::array({with(Json::array({own}))}), all, Json());
  REQUIRE(actions.size() == 1);
  CHECK(actions[0]["title"] == "change `resarch` to `research`");
  CHECK(actions[0]["isPreferred"] == true);
  CHECK(ApplyEdits(text, actions[0]["edit"]["changes"]["file:///w/f.yaml"]) ==
        "a: {role: 'research', pool: x}\nb: [\"tran\", y]\n");
  actions = QuickFixes("file:///w/f.yaml", "/w/f.yaml",
                       Json::array({with(Json::array({own, other}))}), all, Json());
  REQUIRE(actions.size() == 2);
  CHECK_FALSE(actions[0].contains("isPreferred"));
  CHECK(actions[1]["edit"]["changes"].contains("file:///w/inventory.yaml"));
  // Outside the range asked about, or not asked for quick fixes.
  CHECK(QuickFixes("file:///w/f.yaml", "/w/f.yaml", Json::array({with(Json::array({own}))}),
                   Edit(1, 0, 1, "")["range"], Json())
            .empty());
  CHECK(QuickFixes("file:///w/f.yaml", "/w/f.yaml", Json::array({with(Json::array({own}))}), all,
                   Json::array({"refactor"}))
            .empty());
  // Malformed fixes, ranges and diagnostics are left out.
  for (const Json& bad :
       {Json(1), Json{{"title", "t"}}, Json{{"title", 1}, {"changes", own["changes"]}},
        Json{{"title", "t"}, {"changes", Json::object()}},
        Json{{"title", "t"}, {"changes", {{"file:///f", {{{"range", 2}, {"newText", "x"}}}}}}},
        Json{{"title", "t"}, {"changes", {{"file:///f", Json::array({Edit(-1, 0, 0, "x")})}}}},
        Json{{"title", "t"}, {"changes", {{"file:///f", {{{"range", range}}}}}}}}) {
    CAPTURE(bad);
    CHECK(QuickFixes("file:///w/f.yaml", "/w/f.yaml", Json::array({with(Json::array({bad}))}), all,
                     Json())
              .empty());
  }
  CHECK(
      QuickFixes("u", "p", Json::array({{{"data", {{"fixes", Json::array({own})}}}}}), all, Json())
          .empty());
  CHECK(QuickFixes("u", "p", Json::array({1, nullptr}), all, Json()).empty());
}

TEST_CASE("LSP quick fixes: a computed capacity repair is a fix that clears its finding", "[lsp]") {
  // The production squeeze: exploration on production above its floor
  // (CAP-ALC-003) has a research pool to move to.
  Scenario scenario("production-squeeze");
  const std::string& uri = scenario.uri;
  InProcess s;
  ReplyTo(s.Send({Request(1, "initialize")}), 1);
  std::optional<Json> published =
      Published(s.Send({Note("initialized"), Open(uri, scenario.plan)}), uri);
  REQUIRE(published);
  std::vector<Json> said =
      WithMessage(*published, "research takes 2 GPUs of production pool `serve-eu`");
  REQUIRE(said.size() == 1);
  CHECK(said[0]["code"] == "CAP-ALC-003");
  // An edit's lint searches for no repair: typing never waits for one.
  CHECK_FALSE(said[0].contains("data"));
  Json reply = ReplyTo(s.Send({Request(2, "textDocument/codeAction",
                                       {{"textDocument", {{"uri", uri}}},
                                        {"range", said[0]["range"]},
                                        {"context", {{"diagnostics", said}}}})}),
                       2);
  const Json& actions = reply["result"];
  // One action for the one edit that repairs both the floor and the pool's overcommitment.
  REQUIRE(actions.size() == 1);
  CHECK(actions[0]["diagnostics"].size() == 2);
  CHECK(actions[0]["title"] ==
        "move `a-explore` to pool `research-eu` (research, `l4-24` in `eu-west`, 4 GPUs free over "
        "its window)");
  CHECK(actions[0]["isPreferred"] == true);
  REQUIRE(actions[0]["edit"]["changes"].contains(uri));
  std::string fixed = ApplyEdits(scenario.plan, actions[0]["edit"]["changes"][uri]);
  CHECK(fixed.find("{id: a-explore, demand: explore, pool: research-eu, gpus: 2,") !=
        std::string::npos);
  // Asked again, the search is not run again: the same action comes back.
  Json again = ReplyTo(s.Send({Request(3, "textDocument/codeAction",
                                       {{"textDocument", {{"uri", uri}}},
                                        {"range", said[0]["range"]},
                                        {"context", {{"diagnostics", said}}}})}),
                       3);
  CHECK(again["result"] == actions);
  std::optional<Json> after = Published(s.Send({Change(uri, fixed, 2)}), uri);
  REQUIRE(after);
  CHECK(WithMessage(*after, "research takes 2 GPUs of production pool `serve-eu`").empty());
}

TEST_CASE("LSP: an acquisition advised is said in its diagnostic's message, with no code action",
          "[lsp]") {
  TempDir dir{"capops-lsp-advice"};
  std::string plan = ReadText(fs::path(capops::testing::SourceDir()) /
                              "policies/capops-ai/fixtures/CAP-SUP-005/acquire.yaml");
  std::string uri = UriOfPath(dir.Write("plan.yaml", plan));
  InProcess s;
  ReplyTo(s.Send({Request(1, "initialize")}), 1);
  std::optional<Json> published = Published(s.Send({Note("initialized"), Open(uri, plan)}), uri);
  REQUIRE(published);
  std::vector<Json> said = WithMessage(*published, "allocation `a-hosted` needs");
  REQUIRE(said.size() == 1);
  // An edit's lint searches for nothing, advice included.
  CHECK(said[0]["message"].get<std::string>().find("help:") == std::string::npos);
  std::vector<Json> answer = s.Send({Request(2, "textDocument/codeAction",
                                             {{"textDocument", {{"uri", uri}}},
                                              {"range", said[0]["range"]},
                                              {"context", {{"diagnostics", said}}}})});
  // No edit, no action; the advice is published where the finding is.
  CHECK(ReplyTo(answer, 2)["result"] == Json::array());
  std::optional<Json> again = Published(answer, uri);
  REQUIRE(again);
  std::vector<Json> advised = WithMessage(
      *again,
      "\nhelp: reserve 4 × h100-80 in eu-west with `hosted-train`, 2027-05-10..05-12, and cite it "
      "in `a-hosted`'s evidence");
  REQUIRE(advised.size() == 1);
  CHECK(advised[0]["range"] == said[0]["range"]);
  CHECK_FALSE(advised[0].contains("data"));
  // Asked again, nothing is searched nor published again.
  std::vector<Json> later = s.Send({Request(3, "textDocument/codeAction",
                                            {{"textDocument", {{"uri", uri}}},
                                             {"range", said[0]["range"]},
                                             {"context", {{"diagnostics", advised}}}})});
  CHECK(ReplyTo(later, 3)["result"] == Json::array());
  CHECK_FALSE(Published(later, uri));
}

struct Mistake {
  const char* name;
  const char* from;   // the plan's text
  const char* to;     // the mistake
  const char* at;     // where to look for `from`
  const char* said;   // in the diagnostic's message
  const char* fixed;  // the text the first fix writes back
};

TEST_CASE("LSP quick fixes: each did-you-mean and missing unit is a fix that clears its diagnostic",
          "[lsp]") {
  Scenario scenario;
  const std::string& plan = scenario.plan;
  const std::string& uri = scenario.uri;
  InProcess s;
  Json init = ReplyTo(s.Send({Request(1, "initialize")}), 1);
  CHECK(init["result"]["capabilities"]["codeActionProvider"]["codeActionKinds"] ==
        Json::array({"quickfix"}));
  s.Send({Note("initialized"), Open(uri, plan)});

  const Mistake mistakes[] = {
      {"a misspelt field", "slice: exploration", "slcie: exploration", "", "unknown field `slcie`",
       "slice: exploration"},
      {"a misspelt enum member", "slice: training", "slice: trainnig", "", "unknown Slice",
       "slice: training"},
      {"a quoted misspelt member keeps its quotes", "slice: training", "slice: \"trainnig\"", "",
       "unknown Slice", "slice: \"training\""},
      {"a misspelt id", "pool: train-eu,", "pool: train-eux,", "{id: a-train,", "no `Pool` with id",
       "pool: train-eu,"},
      {"a duration without its unit", "max_hold: 8h", "max_hold: 8", "", "expected a duration",
       "max_hold: 8h"},
      {"a size with a space", "size: 40TB", "size: 40 TB", "", "is not a size", "size: 40TB"},
      {"a quoted misspelt key keeps its quotes", "slice: exploration", "\"slcie\": exploration", "",
       "unknown field `slcie`", "\"slice\": exploration"},
      {"a misspelt kind", "kind: CapacityPlan", "kind: CapacityPlna", "", "unknown kind",
       "kind: CapacityPlan"},
      {"a misspelt key of a map keyed by an enum", "quality: passed", "qualty: passed", "",
       "unknown key `qualty`", "{quality: passed"},
      {"a key after non-ASCII text counts UTF-16 units", "{id: a-tune, demand: tune-v3,",
       "{id: \"a-tüne-😀\", dmand: tune-v3,", "", "unknown field `dmand`", "demand: tune-v3"},
  };
  int version = 2, id = 10;
  for (const Mistake& m : mistakes) {
    INFO(m.name);
    std::string text = Replaced(plan, m.from, m.to, m.at);
    std::optional<Json> published = Published(s.Send({Change(uri, text, version++)}), uri);
    REQUIRE(published);
    std::vector<Json> said = WithMessage(*published, m.said);
    REQUIRE(said.size() == 1);
    REQUIRE(said[0].contains("data"));
    // The fixes where the cursor is, inside the underlined text.
    Json at = said[0]["range"];
    at["end"] = at["start"];
    at["start"]["character"] = at["start"]["character"].get<int>() + 1;
    at["end"] = at["start"];
    ++id;
    Json reply = ReplyTo(s.Send({Request(id, "textDocument/codeAction",
                                         {{"textDocument", {{"uri", uri}}},
                                          {"range", at},
                                          {"context", {{"diagnostics", said}}}})}),
                         id);
    Json actions = reply["result"];
    REQUIRE(actions.is_array());
    REQUIRE_FALSE(actions.empty());
    const Json& fix = actions[0];
    CHECK(fix["kind"] == "quickfix");
    CHECK(fix["diagnostics"] == Json::array({said[0]}));  // linked to its diagnostic
    REQUIRE(fix["edit"]["changes"].contains(uri));
    std::string fixed = ApplyEdits(text, fix["edit"]["changes"][uri]);
    INFO(fix.dump());
    CHECK(fixed.find(m.fixed) != std::string::npos);
    std::optional<Json> after = Published(s.Send({Change(uri, fixed, version++)}), uri);
    REQUIRE(after);
    CHECK(WithMessage(*after, m.said).empty());
  }

  // A duration's fix offers each unit the help names, none preferred.
  std::string unitless = Replaced(plan, "max_hold: 8h", "max_hold: 8");
  std::optional<Json> published = Published(s.Send({Change(uri, unitless, version++)}), uri);
  REQUIRE(published);
  std::vector<Json> said = WithMessage(*published, "expected a duration");
  REQUIRE(said.size() == 1);
  auto ask = [&](const Json& range, const Json& only) {
    Json context = {{"diagnostics", Json::array()}};
    if (!only.is_null()) context["only"] = only;
    ++id;
    return ReplyTo(
        s.Send(
            {Request(id, "textDocument/codeAction",
                     {{"textDocument", {{"uri", uri}}}, {"range", range}, {"context", context}})}),
        id);
  };
  Json both = ask(said[0]["range"], Json())["result"];
  REQUIRE(both.size() == 2);
  CHECK(both[0]["title"] == "change `8` to `8h`");
  CHECK(both[1]["title"] == "change `8` to `8d`");
  CHECK_FALSE(both[0].contains("isPreferred"));
  // Asked for other kinds, or elsewhere in the file: none.
  CHECK(ask(said[0]["range"], Json::array({"refactor"}))["result"].empty());
  CHECK(ask(said[0]["range"], Json::array({"quickfix"}))["result"].size() == 2);
  Json elsewhere = {{"start", {{"line", 0}, {"character", 0}}},
                    {"end", {{"line", 0}, {"character", 3}}}};
  CHECK(ask(elsewhere, Json())["result"].empty());
  // A request without a range, or of a document not open: an error, not a guess.
  ++id;
  CHECK(ReplyTo(s.Send({Request(id, "textDocument/codeAction",
                                {{"textDocument", {{"uri", uri}}}, {"context", Json::object()}})}),
                id)["error"]["code"] == error_code::kInvalidParams);
  ++id;
  CHECK(ReplyTo(s.Send({Request(
                    id, "textDocument/codeAction",
                    {{"textDocument", {{"uri", "file:///nowhere.yaml"}}}, {"range", elsewhere}})}),
                id)["error"]["code"] == error_code::kInvalidParams);
}

TEST_CASE("LSP quick fixes: a fix is made against the text as it stands, pending changes too",
          "[lsp]") {
  InProcess s;
  s.Initialize();
  Scenario scenario;
  const std::string &plan = scenario.plan, &uri = scenario.uri;
  s.server.Defer(true);
  std::string text = Replaced(plan, "slice: tuning", "slice: tunning");
  // Opened and changed, not yet linted: the request lints it first.
  Json range = {{"start", {{"line", 0}, {"character", 0}}},
                {"end", {{"line", 200}, {"character", 0}}}};
  std::vector<Json> replies =
      s.Send({Open(uri, plan), Change(uri, text, 2),
              Request(5, "textDocument/codeAction",
                      {{"textDocument", {{"uri", uri}}}, {"range", range}})});
  Json actions = ReplyTo(replies, 5)["result"];
  REQUIRE(actions.size() == 1);
  CHECK(actions[0]["title"] == "change `tunning` to `tuning`");
  CHECK(actions[0]["isPreferred"] == true);
  CHECK(ApplyEdits(text, actions[0]["edit"]["changes"][uri]) == plan);
}

TEST_CASE("LSP quick fixes and outline: malformed requests get an error or nothing, never a crash",
          "[lsp]") {
  InProcess s;
  s.Initialize();
  std::string uri = "file:///tmp/capops-lsp-hostile/plan.yaml";
  s.Send(
      {Open(uri, "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands: [{id: a, slcie: x}]\n" +
                     std::string(20000, '[') + "\n")});
  Json huge = {{"start", {{"line", 1e15}, {"character", 1e15}}},
               {"end", {{"line", 1e15}, {"character", 1e15}}}};
  Json everything = {{"start", {{"line", 0}, {"character", 0}}},
                     {"end", {{"line", 1u << 31}, {"character", 0}}}};
  auto at = [&](Json range, Json context = Json()) {
    Json params = {{"textDocument", {{"uri", uri}}}, {"range", std::move(range)}};
    if (!context.is_null()) params["context"] = std::move(context);
    return params;
  };
  std::vector<Json> requests = {
      Json::object(),
      Json{{"textDocument", 5}},
      Json{{"textDocument", {{"uri", 7}}}},
      at("0:0"),
      at(Json{{"start", {{"line", -1}, {"character", 0}}}}),
      at(huge),
      at(everything, "x"),
      at(everything, Json{{"only", 3}}),
      at(everything, Json{{"only", {4, nullptr}}}),
  };
  int id = 1;
  for (const Json& params : requests) {
    for (const char* method : {"textDocument/codeAction", "textDocument/documentSymbol"}) {
      INFO(method << " " << params.dump());
      ++id;
      Json reply = ReplyTo(s.Send({Request(id, method, params)}), id);
      CHECK((reply.contains("result") || reply.contains("error")));
    }
  }
  // The server goes on: once the nesting is gone, the misspelt key gets its fix.
  s.Send({Change(
      uri, "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands: [{id: a, slcie: x}]\n", 2)});
  ++id;
  Json fixes = ReplyTo(s.Send({Request(id, "textDocument/codeAction",
                                       {{"textDocument", {{"uri", uri}}}, {"range", everything}})}),
                       id);
  REQUIRE(fixes["result"].size() == 1);
  CHECK(fixes["result"][0]["title"] == "change `slcie` to `slice`");
}

// The names of symbols, in order.
std::vector<std::string> Names(const Json& symbols) {
  std::vector<std::string> out;
  for (const Json& s : symbols) out.push_back(s["name"]);
  return out;
}

const Json* Named(const Json& symbols, const std::string& name) {
  for (const Json& s : symbols) {
    if (s["name"] == name) return &s;
  }
  return nullptr;
}

// Whether range `inner` lies within `outer`.
bool Within(const Json& inner, const Json& outer) {
  auto key = [](const Json& p) {
    return std::make_pair(p["line"].get<int>(), p["character"].get<int>());
  };
  return key(outer["start"]) <= key(inner["start"]) && key(inner["end"]) <= key(outer["end"]);
}

TEST_CASE("LSP document symbols: a plan's demands and allocations, an inventory's pools and supply",
          "[lsp]") {
  InProcess s;
  Json init = ReplyTo(s.Send({Request(1, "initialize")}), 1);
  CHECK(init["result"]["capabilities"]["documentSymbolProvider"] == true);
  std::string plan = ReadText(kExample / "plan.yaml"),
              inventory = ReadText(kExample / "inventory.yaml");
  std::string plan_uri = UriOfPath((kExample / "plan.yaml").string()),
              inventory_uri = UriOfPath((kExample / "inventory.yaml").string());
  s.Send({Note("initialized"), Open(plan_uri, plan), Open(inventory_uri, inventory)});
  auto outline = [&](const std::string& uri, int id) {
    return ReplyTo(
        s.Send({Request(id, "textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}})}),
        id)["result"];
  };
  Json symbols = outline(plan_uri, 2);
  CHECK(Names(symbols) == std::vector<std::string>{"metadata", "demands", "allocations",
                                                   "substitutes", "benchmarks"});
  CHECK((*Named(symbols, "metadata"))["detail"] == "visual-inspection-2027q2");
  const Json* demands = Named(symbols, "demands");
  REQUIRE(demands);
  CHECK((*demands)["kind"] == 18);
  CHECK(Names((*demands)["children"]) ==
        std::vector<std::string>{"explore", "train-v3", "tune-v3", "serve", "serve-peak"});
  const Json& train = (*demands)["children"][1];
  CHECK(train["detail"] == "training · accelerator h100-80");
  // Its name is selected; its range runs from its first key to its last value.
  std::pair<int, int> id = {0, 0};
  size_t at = plan.find("id: train-v3") + 4;
  id.first = static_cast<int>(std::count(plan.begin(), plan.begin() + at, '\n'));
  id.second = static_cast<int>(at - plan.rfind('\n', at) - 1);
  CHECK(train["selectionRange"]["start"] == Json({{"line", id.first}, {"character", id.second}}));
  CHECK(train["selectionRange"]["end"] == Json({{"line", id.first}, {"character", id.second + 8}}));
  CHECK(train["range"]["start"] == Json({{"line", id.first}, {"character", id.second - 4}}));
  CHECK(train["range"]["end"]["line"] ==
        id.first + 17);  // `release_condition: Reclaim …`, its last line
  const Json* allocations = Named(symbols, "allocations");
  REQUIRE(allocations);
  const Json& a_train = (*allocations)["children"][0];
  CHECK(a_train["name"] == "a-train");
  CHECK(a_train["detail"] == "demand train-v3 · pool train-eu · 16 GPUs");
  // A flow mapping ends at its brace.
  CHECK(a_train["range"]["end"]["character"] ==
        static_cast<int>(std::string("  - {id: a-train, demand: train-v3, pool: train-eu, gpus: "
                                     "16, evidence: [r-apr]}")
                             .size()));
  // Every symbol's selection lies within its range, and each child within its parent.
  for (const Json& top : symbols) {
    CHECK(Within(top["selectionRange"], top["range"]));
    for (const Json& child : top.value("children", Json::array())) {
      CHECK(Within(child["selectionRange"], child["range"]));
      CHECK(Within(child["range"], top["range"]));
    }
  }
  // Records without an id are named by their place.
  CHECK(Names((*Named(symbols, "substitutes"))["children"]) == std::vector<std::string>{"#1"});

  Json pools = outline(inventory_uri, 3);
  CHECK(Names(pools) == std::vector<std::string>{"accelerator_types", "pools", "supply"});
  const Json* supply = Named(pools, "supply");
  REQUIRE(supply);
  CHECK((*supply)["children"].size() == 6);
  CHECK((*supply)["children"][4]["name"] == "pc-serve-eu");
  CHECK((*supply)["children"][4]["detail"] == "physical-confirmation · accelerator l4-24 · 8 GPUs");
  CHECK((*Named(pools, "pools"))["children"][3]["detail"] ==
        "production-replacement · accelerator l4-24");
}

TEST_CASE("LSP document symbols: a broken, partial or hostile document outlines what it can",
          "[lsp]") {
  const std::string head = "apiVersion: capops.dev/v1\nkind: CapacityPlan\n";
  // Broken part-way: the demands before the break.
  Json cut = DocumentSymbols(head +
                             "demands:\n  - id: a\n    gpus: 2\n  - id: b\n    slice: [train\n"
                             "allocations:\n  - {id: x, demand: a");
  REQUIRE(cut.size() >= 1);
  CHECK(cut[0]["name"] == "demands");
  CHECK(Names(cut[0]["children"]) == std::vector<std::string>{"a", "b"});
  // Typed half-way: a flow mapping left open at the end.
  Json open = DocumentSymbols(head + "demands:\n  - {id: a, gpus: 2\n");
  REQUIRE(open.size() == 1);
  CHECK(Names(open[0]["children"]) == std::vector<std::string>{"a"});
  // Nothing, or nothing to outline.
  CHECK(DocumentSymbols("").empty());
  CHECK(DocumentSymbols("just a scalar").empty());
  CHECK(DocumentSymbols("- a\n- b\n").empty());
  CHECK(DocumentSymbols(":\n:::\n\t- [").empty());
  CHECK(DocumentSymbols(head + "demands: 3\n").empty());
  // Items that are not records, ids that are not scalars, a complex key.
  Json odd = DocumentSymbols(head +
                             "demands:\n  - 1\n  - {id: [x]}\n  - {id: ''}\n"
                             "? [complex]\n: 1\nallocations: []\n");
  REQUIRE(odd.size() == 2);
  CHECK(Names(odd[0]["children"]) == std::vector<std::string>{"#1", "#2", "#3"});
  CHECK(odd[1]["name"] == "allocations");
  CHECK(odd[1]["children"].empty());
  // Nesting far past any plan's: no crash, and the lists near the top still found.
  Json deep =
      DocumentSymbols(head + "demands:\n  - id: deep\n    x: " + std::string(50000, '[') + "\n");
  REQUIRE(deep.size() == 1);
  CHECK(Names(deep[0]["children"]) == std::vector<std::string>{"deep"});
  // Several documents: one symbol each, by kind.
  Json two = DocumentSymbols(head +
                             "demands:\n  - id: a\n---\napiVersion: capops.dev/v1\n"
                             "kind: Inventory\npools:\n  - id: p\n");
  CHECK(Names(two) == std::vector<std::string>{"CapacityPlan", "Inventory"});
  CHECK(Names(two[1]["children"][0]["children"]) == std::vector<std::string>{"p"});
  // Through the server: a document not open is an error; a .cpl file has none.
  InProcess s;
  s.Initialize();
  CHECK(ReplyTo(s.Send({Request(2, "textDocument/documentSymbol",
                                {{"textDocument", {{"uri", "file:///nowhere.yaml"}}}})}),
                2)["error"]["code"] == error_code::kInvalidParams);
  s.Send({Open("file:///tmp/capops-outline/rules.cpl", "package x\n")});
  CHECK(ReplyTo(s.Send({Request(
                    3, "textDocument/documentSymbol",
                    {{"textDocument", {{"uri", "file:///tmp/capops-outline/rules.cpl"}}}})}),
                3)["result"] == Json::array());
}

// A snippet as an editor expands it with each placeholder's default (the
// first choice of a choice; a tab stop the value it mirrors).
std::string Expanded(const std::string& snippet) {
  std::map<std::string, std::string> values;
  std::string out;
  std::regex stop(R"(\$\{(\d+)(?::([^}]*)|\|([^,|]*)[^}]*\|)?\}|\$0)");
  auto begin = std::sregex_iterator(snippet.begin(), snippet.end(), stop);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out += snippet.substr(last, m.position() - last);
    last = m.position() + m.length();
    if (m.str() == "$0") continue;
    std::string value = m[2].matched ? m[2].str() : m[3].matched ? m[3].str() : values[m[1]];
    values[m[1]] = value;
    out += value;
  }
  return out + snippet.substr(last);
}

TEST_CASE("LSP completion in an empty file: a plan or inventory skeleton that loads as written",
          "[lsp]") {
  TempDir dir("capops-lsp-skeleton");
  InProcess s;
  s.Initialize();
  auto complete = [&](const std::string& name, const std::string& text, int id) {
    std::string uri = UriOfPath(dir.Path(name));
    s.Send({Open(uri, text)});
    return ReplyTo(s.Send({Request(id, "textDocument/completion", At(uri, {0, 0}))}),
                   id)["result"]["items"];
  };
  Json plan = complete("plan.yaml", "", 2);
  REQUIRE(plan.size() == 2);
  CHECK(plan[0]["label"] == "CapacityPlan");
  CHECK(plan[0]["preselect"] == true);
  CHECK(plan[0]["insertTextFormat"] == 2);
  CHECK(plan[1]["label"] == "Inventory");
  Json inventory = complete("other/inventory.yaml", "\n  \n", 3);
  REQUIRE(inventory.size() == 2);
  CHECK(inventory[0]["label"] == "Inventory");
  CHECK(complete("gpu-inventory-eu.yaml", "", 4)[0]["label"] == "Inventory");
  // A file with something in it gets the usual completion, not a skeleton.
  Json keys = complete("other.yaml", "apiVersion: capops.dev/v1\nkind: CapacityPlan\n", 5);
  for (const Json& item : keys) CHECK(item["kind"] != 15);

  // Written out with their defaults, the two load, resolve and validate:
  // nothing the loader or the schema says, only what the rules find.
  std::string plan_text = Expanded(plan[0]["insertText"]);
  std::string inventory_text = Expanded(inventory[0]["insertText"]);
  CHECK(plan_text.find("kind: CapacityPlan\n") != std::string::npos);
  CHECK(plan_text.find("demand: demand-1\n") != std::string::npos);
  CHECK(inventory_text.find("accelerator: gpu-type\n") != std::string::npos);
  dir.Write("inventory.yaml", inventory_text);
  std::string uri = UriOfPath(dir.Write("plan.yaml", plan_text));
  std::optional<Json> published = Published(s.Send({Change(uri, plan_text, 2)}), uri);
  REQUIRE(published);
  for (const Json& d : (*published)["params"]["diagnostics"]) {
    INFO(d.dump());
    CHECK(d["code"].get<std::string>().rfind("CAP-", 0) == 0);
  }
}

}  // namespace
}  // namespace capops::lsp
