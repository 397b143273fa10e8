// SPDX-License-Identifier: Apache-2.0
// Test helper: a client of capops-lsp. Messages as an editor sends them,
// a server in the test's own process (InProcess) and the real binary as an
// editor runs it, a child process with the protocol on its stdin and stdout
// (LspProcess).
//
//   InProcess s;
//   s.Initialize();
//   std::optional<Json> published = Published(s.Send({Open(uri, text)}), uri);
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/lsp/jsonrpc.h"
#include "engine/lsp/position.h"
#include "engine/lsp/server.h"
#include "tests/support/paths.h"

namespace capops::testing {

using Json = nlohmann::json;
using lsp::ReadMessage;
using lsp::ReadStatus;
using lsp::Server;
using lsp::ServerOptions;

inline std::string Frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// Every message a server wrote, unframed.
inline std::vector<Json> Messages(const std::string& stream) {
  std::istringstream in(stream);
  std::vector<Json> out;
  std::string body, error;
  while (ReadMessage(in, SIZE_MAX, &body, &error) == ReadStatus::kMessage)
    out.push_back(Json::parse(body));
  return out;
}

inline Json Request(int id, const std::string& method, Json params = Json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

inline Json Note(const std::string& method, Json params = Json::object()) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

inline Json Open(const std::string& uri, const std::string& text, int version = 1) {
  return Note("textDocument/didOpen",
              {{"textDocument",
                {{"uri", uri}, {"languageId", "yaml"}, {"version", version}, {"text", text}}}});
}

inline Json Change(const std::string& uri, const std::string& text, int version) {
  return Note("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}},
                                         {"contentChanges", {{{"text", text}}}}});
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

inline std::optional<Json> Published(const std::vector<Json>& messages, const std::string& uri) {
  std::optional<Json> last;
  for (const Json& m : messages) {
    if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
      last = m;
  }
  return last;
}

inline std::vector<std::string> Codes(const Json& published) {
  std::vector<std::string> codes;
  for (const Json& d : published["params"]["diagnostics"]) codes.push_back(d["code"]);
  return codes;
}

inline Json At(const std::string& uri, std::pair<int, int> position) {
  return {{"textDocument", {{"uri", uri}}},
          {"position", {{"line", position.first}, {"character", position.second}}}};
}

// The reply to request `id` among `messages`.
inline Json ReplyTo(const std::vector<Json>& messages, int id) {
  for (const Json& m : messages) {
    if (m.contains("id") && m["id"] == id) return m;
  }
  FAIL("no reply to request " << id);
  return Json();
}

// `text` with TextEdits applied, as an editor applies them (positions in
// UTF-16 units; the edits do not overlap).
inline std::string ApplyEdits(std::string text, const Json& edits) {
  std::vector<std::pair<size_t, std::pair<size_t, std::string>>> spans;
  auto offset = [&](const Json& p) {
    std::optional<std::string_view> line = lsp::LineAt(text, p["line"].get<uint32_t>());
    REQUIRE(line);
    size_t start = static_cast<size_t>(line->data() - text.data());
    return start + lsp::ByteOffset(*line, lsp::CharColumn(*line, p["character"].get<uint32_t>()));
  };
  for (const Json& e : edits)
    spans.push_back({offset(e["range"]["start"]), {offset(e["range"]["end"]), e["newText"]}});
  std::sort(spans.rbegin(), spans.rend());  // from the end, so that offsets stay true
  for (const auto& [begin, rest] : spans) text.replace(begin, rest.first - begin, rest.second);
  return text;
}

/// capops-lsp as an editor runs it.
class LspProcess {
 public:
  LspProcess() {
    int to_child[2], from_child[2];
    REQUIRE(pipe(to_child) == 0);
    REQUIRE(pipe(from_child) == 0);
    const char* binary = LspBinary().c_str();
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      close(to_child[1]);
      close(from_child[0]);
      execl(binary, binary, "--stdio", static_cast<char*>(nullptr));
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
  void Send(const Json& message) { SendAll({message}); }
  int in() const { return in_; }
  // Several messages in one write: the server finds the later ones waiting.
  void SendAll(const std::vector<Json>& messages) {
    std::string framed;
    for (const Json& m : messages) framed += Frame(m.dump());
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
      if ((*m).value("method", "") == "textDocument/publishDiagnostics" &&
          (*m)["params"]["uri"] == uri) {
        return (*m)["params"]["diagnostics"];
      }
    }
    return std::nullopt;
  }
  // The reply to request `id`, skipping other messages.
  std::optional<Json> Reply(int id) {
    for (std::optional<Json> m = Receive(); m; m = Receive()) {
      if (m->contains("id") && (*m)["id"] == id) return m;
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

}  // namespace capops::testing
