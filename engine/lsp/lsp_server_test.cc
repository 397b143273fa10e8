// capops-lsp: the base protocol's framing, the server's answers to good and
// malformed messages, and a client that speaks the protocol to the real
// binary over pipes.
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/lsp/jsonrpc.h"
#include "engine/lsp/server.h"
#include "tests/support/run_cli.h"

namespace capops::lsp {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kSource = fs::path(CAPOPS_SOURCE_DIR);
const fs::path kExample = kSource / "examples/visual-inspection";

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string Frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// Every message a server wrote, unframed.
std::vector<Json> Messages(const std::string& stream) {
  std::istringstream in(stream);
  std::vector<Json> out;
  std::string body, error;
  while (ReadMessage(in, SIZE_MAX, &body, &error) == ReadStatus::kMessage) out.push_back(Json::parse(body));
  return out;
}

Json Request(int id, const std::string& method, Json params = Json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

Json Note(const std::string& method, Json params = Json::object()) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

Json Open(const std::string& uri, const std::string& text, int version = 1) {
  return Note("textDocument/didOpen",
              {{"textDocument", {{"uri", uri}, {"languageId", "yaml"}, {"version", version}, {"text", text}}}});
}

Json Change(const std::string& uri, const std::string& text, int version) {
  return Note("textDocument/didChange",
              {{"textDocument", {{"uri", uri}, {"version", version}}}, {"contentChanges", {{{"text", text}}}}});
}

// A server in this process: each call hands it messages and returns what it wrote.
struct InProcess {
  std::ostringstream out;
  Server server{ServerOptions{}, out};
  std::vector<Json> Send(const std::vector<Json>& messages) {
    out.str("");
    for (const Json& m : messages) server.Handle(m.dump());
    return Messages(out.str());
  }
  std::vector<Json> SendRaw(const std::string& body) {
    out.str("");
    server.Handle(body);
    return Messages(out.str());
  }
  void Initialize() { REQUIRE(Send({Request(1, "initialize"), Note("initialized")}).size() == 1); }
};

std::optional<Json> Published(const std::vector<Json>& messages, const std::string& uri) {
  std::optional<Json> last;
  for (const Json& m : messages) {
    if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri) last = m;
  }
  return last;
}

std::vector<std::string> Codes(const Json& published) {
  std::vector<std::string> codes;
  for (const Json& d : published["params"]["diagnostics"]) codes.push_back(d["code"]);
  return codes;
}

TEST_CASE("LSP framing: a message is read whole, and broken framing is named", "[lsp]") {
  std::string body, error;
  auto read = [&](const std::string& stream, size_t max = 1000) {
    std::istringstream in(stream);
    return ReadMessage(in, max, &body, &error);
  };
  CHECK(read(Frame("{\"a\":1}")) == ReadStatus::kMessage);
  CHECK(body == "{\"a\":1}");
  CHECK(read("content-length: 2\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n{}") ==
        ReadStatus::kMessage);  // any case, bare LF, other headers ignored
  CHECK(body == "{}");
  CHECK(read("") == ReadStatus::kEnd);
  CHECK(read("Content-Type: x\r\n\r\n{}") == ReadStatus::kBadFraming);
  CHECK(error == "a message has no `Content-Length` header");
  CHECK(read("Content-Length: -3\r\n\r\n") == ReadStatus::kBadFraming);
  CHECK(error.find("not a byte count") != std::string::npos);
  CHECK(read("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}") == ReadStatus::kBadFraming);
  CHECK(read("Content-Length: 99999999999999999999999\r\n\r\n") == ReadStatus::kBadFraming);
  CHECK(read("Content-Length: 1001\r\n\r\n") == ReadStatus::kBadFraming);
  CHECK(error.find("over the limit of 1000") != std::string::npos);
  CHECK(read("Content-Length: 10\r\n\r\n{}") == ReadStatus::kBadFraming);
  CHECK(error == "the stream ended inside a message of 10 bytes");
  CHECK(read("Content-Length: 2\r\n") == ReadStatus::kBadFraming);
  CHECK(read(std::string(5000, 'x') + "\r\n\r\n{}") == ReadStatus::kBadFraming);
  CHECK(read("no colon here\r\n\r\n{}") == ReadStatus::kBadFraming);
}

TEST_CASE("LSP: file URIs and paths convert both ways, and other URIs are not paths", "[lsp]") {
  CHECK(PathOfUri("file:///tmp/a%20b/plan.yaml") == "/tmp/a b/plan.yaml");
  CHECK(PathOfUri("file://localhost/tmp/x.yaml") == "/tmp/x.yaml");
  CHECK(PathOfUri(UriOfPath("/tmp/ü %#?/p.yaml")) == "/tmp/ü %#?/p.yaml");
  CHECK(UriOfPath("/tmp/a b") == "file:///tmp/a%20b");
  CHECK_FALSE(PathOfUri("untitled:Untitled-1"));
  CHECK_FALSE(PathOfUri("file:///tmp/%zz"));
  CHECK_FALSE(PathOfUri("file:///tmp/%2"));
  CHECK_FALSE(PathOfUri("file:///tmp/a%00b"));
  CHECK_FALSE(PathOfUri("file://remote-host/tmp/x"));
}

TEST_CASE("LSP: malformed and out-of-order messages get their errors, and the server goes on", "[lsp]") {
  InProcess s;
  auto error_code = [](const std::vector<Json>& replies) {
    REQUIRE(replies.size() == 1);
    return replies[0]["error"]["code"].get<int>();
  };
  std::vector<Json> r = s.SendRaw("{not json");
  CHECK(error_code(r) == error_code::kParseError);
  CHECK(r[0]["id"].is_null());
  CHECK(error_code(s.SendRaw("\xff\xfe{}")) == error_code::kParseError);  // not UTF-8
  CHECK(error_code(s.SendRaw("[1, 2]")) == error_code::kInvalidRequest);
  CHECK(error_code(s.SendRaw(R"({"jsonrpc":"2.0","id":7})")) == error_code::kInvalidRequest);
  CHECK(error_code(s.SendRaw(R"({"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"})")) ==
        error_code::kInvalidRequest);
  CHECK(error_code(s.Send({Request(2, "shutdown")})) == error_code::kServerNotInitialized);
  CHECK(s.Send({Open("file:///tmp/x.yaml", "a: 1")}).empty());  // ignored before initialize

  s.Initialize();
  CHECK(error_code(s.Send({Request(3, "initialize")})) == error_code::kInvalidRequest);
  CHECK(error_code(s.Send({Request(4, "textDocument/hover")})) == error_code::kMethodNotFound);
  // A notification with missing or mistyped params: logged, nothing else.
  for (const Json& bad : {Note("textDocument/didOpen", {{"textDocument", {{"uri", "file:///tmp/x.yaml"}}}}),
                          Note("textDocument/didOpen", {{"textDocument", 42}}),
                          Note("textDocument/didClose"),
                          Change("file:///tmp/never-opened.yaml", "a: 1", 2)}) {
    std::vector<Json> replies = s.Send({bad});
    INFO(bad.dump());
    REQUIRE(replies.size() == 1);
    CHECK(replies[0]["method"] == "window/logMessage");
  }
  // A ranged change when the server asked for whole documents: refused, not misapplied.
  s.Send({Open("file:///tmp/capops-lsp-ranged.yaml", "a: 1")});
  std::vector<Json> ranged = s.Send({Note(
      "textDocument/didChange",
      {{"textDocument", {{"uri", "file:///tmp/capops-lsp-ranged.yaml"}, {"version", 2}}},
       {"contentChanges", {{{"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 1}}}}},
                            {"text", "b"}}}}})});
  REQUIRE(ranged.size() == 1);
  CHECK(ranged[0]["params"]["message"].get<std::string>().find("changed by a range") != std::string::npos);

  std::vector<Json> bye = s.Send({Request(5, "shutdown")});
  REQUIRE(bye.size() == 1);
  CHECK(bye[0]["result"].is_null());
  CHECK(error_code(s.Send({Request(6, "shutdown")})) == error_code::kInvalidRequest);
  CHECK_FALSE(s.server.Handle(Note("exit").dump()));
  CHECK(s.server.exit_code() == 0);
}

TEST_CASE("LSP: exit without shutdown, a stream that ends, and broken framing end with 1", "[lsp]") {
  {
    InProcess s;
    s.Initialize();
    CHECK_FALSE(s.server.Handle(Note("exit").dump()));
    CHECK(s.server.exit_code() == 1);
  }
  {
    std::ostringstream out;
    Server server(ServerOptions{}, out);
    std::istringstream in(Frame(Request(1, "initialize").dump()));
    CHECK(Serve(in, &server) == 1);  // the client went away without shutdown
  }
  {
    std::ostringstream out;
    Server server(ServerOptions{}, out);
    std::istringstream in(Frame(Request(1, "initialize").dump()) + "Content-Lenght: 2\r\n\r\n{}");
    CHECK(Serve(in, &server) == 1);
    std::vector<Json> messages = Messages(out.str());
    REQUIRE(messages.size() == 2);
    CHECK(messages[1]["params"]["message"] == "capops-lsp: cannot read on: a message has no `Content-Length` header");
  }
}

// The findings of `capops-lint --format json` for a plan: (rule, line, column).
std::vector<std::tuple<std::string, int, int>> CliFindings(const std::string& plan) {
  Json doc = Json::parse(testing::RunCli({"--no-config", "--format", "json", plan}).out);
  std::vector<std::tuple<std::string, int, int>> out;
  for (const Json& v : doc["violations"]) {
    out.emplace_back(v["rule"], v["location"]["line"], v["location"]["column"]);
  }
  return out;
}

TEST_CASE("LSP: a plan's diagnostics are the CLI's findings, at the same places, with their facts", "[lsp]") {
  InProcess s;
  s.Initialize();
  std::string path = (kExample / "plan.yaml").lexically_normal().string();
  std::string uri = UriOfPath(path);
  std::vector<Json> replies = s.Send({Open(uri, ReadText(path))});
  std::optional<Json> published = Published(replies, uri);
  REQUIRE(published);
  const Json& diagnostics = (*published)["params"]["diagnostics"];
  auto cli = CliFindings(path);
  REQUIRE(diagnostics.size() == cli.size());
  REQUIRE(cli.size() == 9);
  for (size_t i = 0; i < cli.size(); ++i) {
    const auto& [rule, line, column] = cli[i];
    const Json& d = diagnostics[i];
    INFO(d.dump());
    CHECK(d["code"] == rule);
    CHECK(d["range"]["start"]["line"] == line - 1);  // the example is ASCII: characters are UTF-16 units
    CHECK(d["range"]["start"]["character"] == column - 1);
    CHECK(d["range"]["end"]["character"].get<int>() >= column - 1);
    CHECK(d["severity"] == (rule == "CAP-FIN-004" ? 2 : 1));
    CHECK(d["message"].get<std::string>().find("\nbecause: ") != std::string::npos);
  }
  // CAP-ALC-001 names the other facts it read: the demand's slice in the plan, the pool's role in the inventory.
  bool related = false;
  for (const Json& d : diagnostics) {
    if (d["code"] != "CAP-ALC-001") continue;
    CHECK(d["range"]["end"]["character"].get<int>() - d["range"]["start"]["character"].get<int>() ==
          static_cast<int>(std::string("serve-eu-spare").size()));
    for (const Json& r : d["relatedInformation"]) {
      related |= r["location"]["uri"] == UriOfPath((kExample / "inventory.yaml").string()) &&
                 r["message"] == "`p.role` is \"production-replacement\"";
    }
  }
  CHECK(related);
}

TEST_CASE("LSP: columns are UTF-16 code units", "[lsp]") {
  InProcess s;
  s.Initialize();
  std::string text = ReadText(kExample / "plan.yaml");
  size_t at = text.find("{id: a-explore,");
  REQUIRE(at != std::string::npos);
  text.replace(at, 15, "{id: a-explore-\xF0\x9F\x98\x80,");  // U+1F600: one character, two UTF-16 units
  std::string uri = UriOfPath((kExample / "astral.yaml").string());
  std::optional<Json> published = Published(s.Send({Open(uri, text)}), uri);
  REQUIRE(published);
  size_t line_start = text.rfind('\n', at) + 1;
  std::string line = text.substr(line_start, text.find('\n', at) - line_start);
  size_t pool = line.find("serve-eu-spare");
  bool seen = false;
  for (const Json& d : (*published)["params"]["diagnostics"]) {
    if (d["code"] != "CAP-ALC-001") continue;
    seen = true;
    // Bytes before the pool: the emoji is 4 bytes, 2 units; the rest ASCII.
    CHECK(d["range"]["start"]["character"] == pool - 2);
    CHECK(d["range"]["end"]["character"] == pool - 2 + 14);
  }
  CHECK(seen);
}

TEST_CASE("LSP: a document that is not a file, and YAML that breaks, are reported, not dropped", "[lsp]") {
  InProcess s;
  s.Initialize();
  std::optional<Json> untitled = Published(s.Send({Open("untitled:Untitled-1", ReadText(kExample / "plan.yaml"))}),
                                   "untitled:Untitled-1");
  REQUIRE(untitled);
  CHECK_FALSE((*untitled)["params"]["diagnostics"].empty());  // no inventory beside it: said so
  std::string uri = UriOfPath("/tmp/capops-lsp-broken/plan.yaml");
  std::optional<Json> broken = Published(s.Send({Open(uri, "apiVersion: capops.dev/v1\nkind: CapacityPlan\ndemands: [\n")}), uri);
  REQUIRE(broken);
  std::vector<std::string> codes = Codes(*broken);
  CHECK(std::find(codes.begin(), codes.end(), "yaml") != codes.end());
}

TEST_CASE("LSP: a .cpl file is compiled with its pack, its own text standing in", "[lsp]") {
  InProcess s;
  s.Initialize();
  std::string path = (kSource / "policies/capops-ai/finops.cpl").lexically_normal().string();
  std::string uri = UriOfPath(path);
  std::string text = ReadText(path);
  std::optional<Json> clean = Published(s.Send({Open(uri, text)}), uri);
  REQUIRE(clean);
  CHECK((*clean)["params"]["diagnostics"].empty());
  size_t at = text.find("where has(d.utilization_target)");
  REQUIRE(at != std::string::npos);
  std::string broken = text;
  broken.replace(at, 31, "where has(d.utilisation_target)");
  std::optional<Json> typed = Published(s.Send({Change(uri, broken, 2)}), uri);
  REQUIRE(typed);
  const Json& diagnostics = (*typed)["params"]["diagnostics"];
  REQUIRE(diagnostics.size() >= 1);
  CHECK(diagnostics[0]["range"]["start"]["line"] == std::count(text.begin(), text.begin() + at, '\n'));
  CHECK(diagnostics[0]["message"].get<std::string>().find("utilisation_target") != std::string::npos);
  CHECK((*typed)["params"]["version"] == 2);
}

// capops-lsp as an editor runs it: a child process, the protocol on its stdin and stdout.
class LspProcess {
 public:
  LspProcess() {
    int to_child[2], from_child[2];
    REQUIRE(pipe(to_child) == 0);
    REQUIRE(pipe(from_child) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      close(to_child[1]);
      close(from_child[0]);
      execl(CAPOPS_LSP_BINARY, CAPOPS_LSP_BINARY, "--stdio", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
  }
  ~LspProcess() {
    if (in_ >= 0) close(in_);
    close(out_);
    if (pid_ > 0 && !waited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  void Send(const Json& message) {
    std::string framed = Frame(message.dump());
    REQUIRE(write(in_, framed.data(), framed.size()) == static_cast<ssize_t>(framed.size()));
  }
  // The next message, or nullopt after 60 s (a sanitizer build is slow).
  std::optional<Json> Receive() {
    for (;;) {
      size_t header_end = buffer_.find("\r\n\r\n");
      if (header_end != std::string::npos) {
        std::string headers = buffer_.substr(0, header_end);
        size_t length = std::stoul(headers.substr(headers.find(':') + 1));
        if (buffer_.size() >= header_end + 4 + length) {
          Json message = Json::parse(buffer_.substr(header_end + 4, length));
          buffer_.erase(0, header_end + 4 + length);
          return message;
        }
      }
      pollfd p{out_, POLLIN, 0};
      if (poll(&p, 1, 60000) <= 0) return std::nullopt;
      char chunk[65536];
      ssize_t n = read(out_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }
  // The next publishDiagnostics for `uri`, skipping other messages.
  std::optional<Json> Diagnostics(const std::string& uri) {
    for (std::optional<Json> m = Receive(); m; m = Receive()) {
      if ((*m).value("method", "") == "textDocument/publishDiagnostics" && (*m)["params"]["uri"] == uri) {
        return (*m)["params"]["diagnostics"];
      }
    }
    return std::nullopt;
  }
  int Wait() {
    close(in_);
    in_ = -1;
    int status = 0;
    for (int i = 0; i < 600; ++i) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        waited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      usleep(100000);
    }
    return -2;
  }

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  bool waited_ = false;
  std::string buffer_;
};

TEST_CASE("capops-lsp over pipes: diagnostics, a fix, an inventory edit re-lints its plan, a clean exit", "[lsp]") {
  LspProcess lsp;
  lsp.Send(Request(1, "initialize", {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", Json::object()}}));
  std::optional<Json> init = lsp.Receive();
  REQUIRE(init);
  CHECK((*init)["id"] == 1);
  CHECK((*init)["result"]["capabilities"]["textDocumentSync"]["change"] == 1);
  lsp.Send(Note("initialized"));

  std::string plan_path = (kExample / "plan.yaml").lexically_normal().string();
  std::string plan_uri = UriOfPath(plan_path), inventory_uri = UriOfPath((kExample / "inventory.yaml").string());
  std::string plan = ReadText(plan_path);
  lsp.Send(Open(plan_uri, plan));
  std::optional<Json> first = lsp.Diagnostics(plan_uri);
  REQUIRE(first);
  CHECK(first->size() == 9);

  // The draft's decision record lacks its trade-off: add one, and CAP-GOV-001 goes.
  std::string fixed = plan;
  size_t at = fixed.find("  residual_risk:");
  REQUIRE(at != std::string::npos);
  fixed.insert(at, "  trade_off: One training run now instead of two smaller ones\n");
  lsp.Send(Change(plan_uri, fixed, 2));
  std::optional<Json> second = lsp.Diagnostics(plan_uri);
  REQUIRE(second);
  CHECK(second->size() == 8);
  for (const Json& d : *second) CHECK(d["code"] != "CAP-GOV-001");

  // The inventory, opened with the spare turned into a research pool: the plan
  // is linted against the open buffer, not the file, and CAP-ALC-001 goes.
  std::string inventory = ReadText(kExample / "inventory.yaml");
  size_t role = inventory.find("role: production-replacement");
  REQUIRE(role != std::string::npos);
  inventory.replace(role, 28, "role: research");
  lsp.Send(Open(inventory_uri, inventory));
  std::optional<Json> third = lsp.Diagnostics(plan_uri);
  REQUIRE(third);
  for (const Json& d : *third) CHECK(d["code"] != "CAP-ALC-001");

  lsp.Send(Request(2, "textDocument/definition"));
  std::optional<Json> unknown;
  for (unknown = lsp.Receive(); unknown && !unknown->contains("id"); unknown = lsp.Receive()) {
  }
  REQUIRE(unknown);
  CHECK((*unknown)["error"]["code"] == error_code::kMethodNotFound);

  lsp.Send(Request(3, "shutdown"));
  std::optional<Json> bye = lsp.Receive();
  REQUIRE(bye);
  CHECK((*bye)["id"] == 3);
  CHECK((*bye)["result"].is_null());
  lsp.Send(Note("exit"));
  CHECK(lsp.Wait() == 0);
}

}  // namespace
}  // namespace capops::lsp
