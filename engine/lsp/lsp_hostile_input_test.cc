// SPDX-License-Identifier: Apache-2.0
// capops-lsp against what a careless or hostile client or workspace gives
// it: text that cannot be Unicode (lone UTF-16 surrogates, bytes that are
// not UTF-8) in a document, its changes and its URI, and a `.capops.yaml`
// that is not a file.
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/lsp/jsonrpc.h"
#include "engine/lsp/server.h"
#include "tests/support/lsp_client.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace capops::lsp {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using namespace capops::testing;  // the client: lsp_client.h

const fs::path kExample = fs::path(SourceDir()) / "examples/visual-inspection";

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// `message` as JSON text, with `@@` in it (in a string) replaced by `raw`:
// escapes that nlohmann would never write, and bytes that are not UTF-8.
std::string WithRaw(const Json& message, const std::string& raw) {
  std::string body = message.dump();
  size_t at = body.find("@@");
  REQUIRE(at != std::string::npos);
  return body.replace(at, 2, raw);
}

// The messages of `method` among `messages`.
std::vector<Json> Of(const std::vector<Json>& messages, const std::string& method) {
  std::vector<Json> out;
  for (const Json& m : messages) {
    if (m.value("method", "") == method) out.push_back(m);
  }
  return out;
}

TEST_CASE("LSP: what cannot be Unicode in a message's strings is read as U+FFFD, and said",
          "[lsp]") {
  struct Case {
    std::string in, out;
    size_t replaced;
    std::set<std::string> members;
  };
  const std::string kFffd = "\\ufffd";
  const std::vector<Case> cases = {
      {R"({"text":"a\ud800b"})", R"({"text":"a)" + kFffd + R"(b"})", 1, {"text"}},
      {R"({"text":"a\udc00b"})", R"({"text":"a)" + kFffd + R"(b"})", 1, {"text"}},
      {R"({"text":"a\uD800"})", R"({"text":"a)" + kFffd + R"("})", 1, {"text"}},  // at the end
      {R"({"text":"\ud800\ud800"})", R"({"text":")" + kFffd + kFffd + R"("})", 2, {"text"}},
      {R"({"text":"\udc00\ud800"})", R"({"text":")" + kFffd + kFffd + R"("})", 2, {"text"}},
      {R"({"text":"\ud800\u0041"})", R"({"text":")" + kFffd + R"(\u0041"})", 1, {"text"}},
      {R"({"text":"\ud800\n"})", R"({"text":")" + kFffd + R"(\n"})", 1, {"text"}},
      {R"({"text":"\"\ud800"})", R"({"text":"\")" + kFffd + R"("})", 1, {"text"}},
      // A pair, an escaped backslash before `ud800` and a broken escape are left alone.
      {R"({"text":"\ud83d\ude00"})", R"({"text":"\ud83d\ude00"})", 0, {}},
      {R"({"text":"\\ud800"})", R"({"text":"\\ud800"})", 0, {}},
      {R"({"text":"\ud8"})", R"({"text":"\ud8"})", 0, {}},
      {"{\"text\":\"caf\xc3\xa9\"}", "{\"text\":\"caf\xc3\xa9\"}", 0, {}},
      // Bytes that are not UTF-8: each one U+FFFD, as position.h counts each one unit.
      {"{\"text\":\"a\xff"
       "b\"}",
       "{\"text\":\"a\xef\xbf\xbd"
       "b\"}",
       1,
       {"text"}},
      {"{\"text\":\"\xed\xa0\x80\"}",
       "{\"text\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"}",
       3,
       {"text"}},
      {"{\"text\":\"\xc3\"}", "{\"text\":\"\xef\xbf\xbd\"}", 1, {"text"}},  // cut short
      // Which member held it: a URI is told apart from a text.
      {R"({"a":"\udfff","textDocument":{"uri":"file:///x\udfff.yaml","version":1}})",
       R"({"a":")" + kFffd + R"(","textDocument":{"uri":"file:///x)" + kFffd +
           R"(.yaml","version":1}})",
       2,
       {"a", "uri"}},
      {R"({"uri":"ok","items":["\ud800",{"k":"v"}],"text":"t"})",
       R"({"uri":"ok","items":[")" + kFffd + R"(",{"k":"v"}],"text":"t"})",
       1,
       {""}},
      {R"({"te\ud800xt":"a"})", R"({"te)" + kFffd + R"(xt":"a"})", 1, {"te" + kFffd + "xt"}},
      // Broken JSON is copied as it is, and stays broken.
      {R"({"text":"\ud800)", R"({"text":")" + kFffd, 1, {"text"}},
      {"\xff{}", "\xff{}", 0, {}},
  };
  for (const Case& c : cases) {
    INFO(c.in);
    UnicodeRepair repair;
    std::string out = ReplaceNonUnicode(c.in, &repair);
    CHECK(out == c.out);
    CHECK(repair.replaced == c.replaced);
    CHECK(repair.members == c.members);
    // What JSON's grammar allows, nlohmann then parses.
    bool broken =
        c.in.find("\\ud8\"") != std::string::npos || c.in.back() != '}' || c.in.front() != '{';
    CHECK(Json::accept(out) == !broken);
  }
}

// The example plan with `insert` written after the id `a-explore` (as
// `@@`, raw in the JSON text), and the UTF-16 column that CAP-ALC-001's
// pool then starts at.
struct Inserted {
  std::string text;  // with `@@` where the raw escape goes
  int line = 0;
  int pool_column = 0;  // before the insertion
};

Inserted AfterExploreId() {
  Inserted p{ReadText(kExample / "plan.yaml")};
  size_t id = p.text.find("{id: a-explore,");
  REQUIRE(id != std::string::npos);
  p.text.insert(id + 14, "@@");
  size_t line_start = p.text.rfind('\n', id) + 1;
  p.line = static_cast<int>(std::count(p.text.begin(), p.text.begin() + id, '\n'));
  p.pool_column = static_cast<int>(p.text.find("serve-eu-spare", id) - line_start) - 2;
  return p;
}

// The start of CAP-ALC-001's range in what was published for `uri`.
std::optional<Json> PoolStart(const std::vector<Json>& messages, const std::string& uri) {
  std::optional<Json> published = Published(messages, uri);
  if (!published) return std::nullopt;
  for (const Json& d : (*published)["params"]["diagnostics"]) {
    if (d["code"] == "CAP-ALC-001") return d["range"]["start"];
  }
  return std::nullopt;
}

TEST_CASE("LSP: a lone surrogate in an opened or changed document is U+FFFD, the document kept",
          "[lsp]") {
  std::string uri = UriOfPath((kExample / "plan.yaml").lexically_normal().string());
  Inserted plan = AfterExploreId();
  struct Case {
    std::string raw;
    int units;  // UTF-16 units it stands for in the client's text
    bool said;  // a warning is logged
  };
  const std::vector<Case> cases = {
      {"\\ud800", 1, true},        {"\\udc00", 1, true},        {"\\ud800\\ud800", 2, true},
      {"\\udc00\\ud800", 2, true}, {"\\ud800\\u0041", 2, true}, {"\\ud83d\\ude00", 2, false},
      {"\\\\ud800", 6, false},     {"\xff", 1, true},
  };
  for (const Case& c : cases) {
    INFO(c.raw);
    InProcess s;
    s.Initialize();
    std::vector<Json> opened = s.SendRaw(WithRaw(Open(uri, plan.text), c.raw));
    std::optional<Json> start = PoolStart(opened, uri);
    REQUIRE(start);  // published, and linted
    CHECK((*start)["line"] == plan.line);
    CHECK((*start)["character"] == plan.pool_column + c.units);
    std::vector<Json> logged = Of(opened, "window/logMessage");
    CHECK(logged.size() == (c.said ? 1u : 0u));
    if (c.said) {
      CHECK(logged[0]["params"]["type"] == 2);
      CHECK(logged[0]["params"]["message"].get<std::string>().find(
                "`textDocument/didOpen` of `" + uri + "` held ") != std::string::npos);
    }
    // The document stays open: a change with one is taken too, and requests are answered.
    std::vector<Json> changed = s.SendRaw(WithRaw(Change(uri, plan.text, 2), c.raw + c.raw));
    std::optional<Json> moved = PoolStart(changed, uri);
    REQUIRE(moved);
    CHECK((*moved)["character"] == plan.pool_column + 2 * c.units);
    CHECK((*Published(changed, uri))["params"]["version"] == 2);
    Json hover = ReplyTo(s.Send({Request(2, "textDocument/hover", At(uri, {plan.line, 10}))}), 2);
    CHECK(hover.contains("result"));
  }
}

TEST_CASE("LSP: a URI that cannot be Unicode is refused, said, and the server goes on", "[lsp]") {
  InProcess s;
  s.Initialize();
  std::string good = "file:///capops-lsp-test/plan.yaml";
  std::string text = "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands: []\n";
  for (const std::string raw : {"\\ud800", "\\udc00", "\xff"}) {
    INFO(raw);
    std::vector<Json> opened =
        s.SendRaw(WithRaw(Open("file:///capops-lsp-test/p@@.yaml", text), raw));
    REQUIRE(opened.size() == 1);  // nothing published for a document the client would not know
    CHECK(opened[0]["method"] == "window/showMessage");
    CHECK(opened[0]["params"]["type"] == 1);
    std::string said = opened[0]["params"]["message"];
    CHECK(said.find("`textDocument/didOpen` of `file:///capops-lsp-test/p\xef\xbf\xbd.yaml` is "
                    "ignored: a `uri` holds 1 character that cannot be Unicode") !=
          std::string::npos);
    Json hover = ReplyTo(
        s.SendRaw(WithRaw(Request(3, "textDocument/hover", At("file:///p@@.yaml", {0, 0})), raw)),
        3);
    CHECK(hover["error"]["code"] == error_code::kInvalidParams);
    CHECK(hover["error"]["message"].get<std::string>().find("so it names no document") !=
          std::string::npos);
    std::vector<Json> closed = s.SendRaw(
        WithRaw(Note("textDocument/didClose", {{"textDocument", {{"uri", "p@@"}}}}), raw));
    REQUIRE(closed.size() == 1);
    CHECK(closed[0]["method"] == "window/showMessage");
  }
  // The server goes on, and a good document is linted.
  CHECK(Published(s.Send({Open(good, text)}), good));
  CHECK(ReplyTo(s.Send({Request(4, "shutdown")}), 4)["result"].is_null());
}

TEST_CASE("capops-lsp over pipes: a lone surrogate in a document, then a clean exit", "[lsp]") {
  LspProcess lsp;
  lsp.Send(Request(1, "initialize", {{"capabilities", Json::object()}}));
  REQUIRE(lsp.Receive());
  std::string uri = UriOfPath((kExample / "plan.yaml").lexically_normal().string());
  Inserted plan = AfterExploreId();
  std::string body = WithRaw(Open(uri, plan.text), "\\ud800");
  std::string framed = Frame(body);
  REQUIRE(write(lsp.in(), framed.data(), framed.size()) == static_cast<ssize_t>(framed.size()));
  std::optional<Json> diagnostics = lsp.Diagnostics(uri);
  REQUIRE(diagnostics);
  bool at_pool = false;
  for (const Json& d : *diagnostics) {
    at_pool |= d["code"] == "CAP-ALC-001" && d["range"]["start"]["line"] == plan.line &&
               d["range"]["start"]["character"] == plan.pool_column + 1;
  }
  CHECK(at_pool);
  lsp.Send(Request(2, "shutdown"));
  REQUIRE(lsp.Reply(2));
  lsp.Send(Note("exit"));
  CHECK(lsp.Wait() == 0);
}

// A `.capops.yaml` that is not a file, as the CLI refuses it (walks.sh): the
// editor says so on every document under it, and lints none of them as if
// there were no config (or the one further up, which would disable
// CAP-ALC-001); a FIFO is never waited on. Once a file takes its place, the
// documents are linted under it.
TEST_CASE("capops-lsp over pipes: a .capops.yaml that is not a file is said, never passed over",
          "[lsp]") {
  testing::TempDir dir("capops-lsp");
  std::string plan = ReadText(kExample / "plan.yaml"),
              inventory = ReadText(kExample / "inventory.yaml");
  dir.Write(".capops.yaml", "rules:\n  disable: [CAP-ALC-001]\n");
  struct Shape {
    std::string name, what;
  };
  const std::vector<Shape> shapes = {{"fifo", "it is a FIFO (named pipe), not a regular file"},
                                     {"directory", "it is a directory, not a regular file"},
                                     {"devnull", "it is a character device, not a regular file"},
                                     {"dangling", "No such file or directory"}};
  for (const Shape& shape : shapes) {
    dir.Write(shape.name + "/plan.yaml", plan);
    dir.Write(shape.name + "/inventory.yaml", inventory);
    fs::path config = dir.dir() / shape.name / ".capops.yaml";
    if (shape.name == "fifo") REQUIRE(mkfifo(config.c_str(), 0600) == 0);
    if (shape.name == "directory") fs::create_directory(config);
    if (shape.name == "devnull") fs::create_symlink("/dev/null", config);
    if (shape.name == "dangling") fs::create_symlink("nowhere.yaml", config);
  }

  LspProcess lsp;
  lsp.Send(Request(1, "initialize", {{"capabilities", Json::object()}}));
  REQUIRE(lsp.Receive());
  lsp.Send(Note("initialized"));
  int id = 10;
  for (const Shape& shape : shapes) {
    INFO(shape.name);
    std::string config = (dir.dir() / shape.name / ".capops.yaml").string();
    for (const char* name : {"plan.yaml", "inventory.yaml"}) {
      std::string uri = UriOfPath((dir.dir() / shape.name / name).string());
      lsp.Send(Open(uri, name == std::string("plan.yaml") ? plan : inventory));
      std::optional<Json> diagnostics = lsp.Diagnostics(uri);
      REQUIRE(diagnostics);  // not waited on
      INFO(diagnostics->dump());
      REQUIRE(diagnostics->size() == 1);
      const Json& d = (*diagnostics)[0];
      CHECK(d["severity"] == 1);
      CHECK(d["code"] == "policy");
      std::string message = d["message"];
      CHECK(message.find("not linted: the config " + config + ":1:1 is not usable: ") == 0);
      CHECK(message.find(shape.what) != std::string::npos);
    }
    // Requests on the plan are answered, with nothing, at once.
    std::string plan_uri = UriOfPath((dir.dir() / shape.name / "plan.yaml").string());
    for (const char* method : {"textDocument/hover", "textDocument/completion"}) {
      lsp.Send(Request(++id, method, At(plan_uri, {0, 0})));
      std::optional<Json> reply = lsp.Reply(id);
      REQUIRE(reply);
      CHECK(reply->contains("result"));
    }
  }
  // A file in the FIFO's place: the plan is linted under it.
  fs::path fifo = dir.dir() / "fifo/.capops.yaml";
  fs::remove(fifo);
  dir.Write("fifo/.capops.yaml", "rules:\n  disable: [CAP-GOV-001]\n");
  std::string plan_uri = UriOfPath((dir.dir() / "fifo/plan.yaml").string());
  lsp.Send(Change(plan_uri, plan, 2));
  std::optional<Json> linted = lsp.Diagnostics(plan_uri);
  REQUIRE(linted);
  std::vector<std::string> codes;
  for (const Json& d : *linted) codes.push_back(d["code"]);
  CHECK(std::count(codes.begin(), codes.end(), "CAP-ALC-001") == 1);
  CHECK(std::count(codes.begin(), codes.end(), "CAP-GOV-001") == 0);
  lsp.Send(Request(2, "shutdown"));
  REQUIRE(lsp.Reply(2));
  lsp.Send(Note("exit"));
  CHECK(lsp.Wait() == 0);
}

}  // namespace
}  // namespace capops::lsp
