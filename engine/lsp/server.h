// capops-lsp: a language server for plan and inventory YAML and for CPL.
//
// Speaks the LSP 3.17 base protocol over a stream (stdio in capops-lsp):
// the lifecycle (initialize, initialized, shutdown, exit), full-text
// document sync (didOpen, didChange, didClose) and publishDiagnostics:
//
//   - a YAML document is linted with the compiled pack, as `capops-lint`
//     lints it: its inventory is `inventory.yaml` beside it (the open
//     buffer when it is open, else the file on disk); a document named
//     `inventory.yaml` is an inventory, and its diagnostics come from the
//     open plans beside it (or, with none open, from loading it alone).
//     Findings carry the rule id as `code`, the other facts the rule read
//     as `relatedInformation`, and `because`/`fix` in the message;
//   - a `.cpl` document is compiled with the stdlib and the shipped pack,
//     its own text standing in for the file of the same path;
//   - a change re-lints the document and the open documents beside it (an
//     edited inventory re-lints its plans), reusing the compiled pack.
//
// The server never writes files. Positions are UTF-16 code units, as the
// protocol's default encoding asks.
//
//   lsp::Server server(lsp::ServerOptions{}, std::cout);
//   return lsp::Serve(std::cin, &server);
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/api/engine.h"

namespace capops::lsp {

struct ServerOptions {
  /// Policy files or directories; empty: the shipped pack (as capops-lint).
  std::vector<std::string> policies;
  /// The largest message read, and the largest document linted.
  size_t max_message_bytes = size_t{64} << 20;
  /// Where each rule is documented: a finding's `codeDescription.href` is
  /// `rules_url#RULE-ID`; "" leaves it out.
  std::string rules_url;
  /// A compiled pack to lint with, shared (Engine::Lint is const and may
  /// run on any thread); null: compile `policies` at `initialize`.
  std::shared_ptr<const Engine> engine;
};

class Server {
 public:
  Server(ServerOptions options, std::ostream& out);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Handles one message body (malformed ones get their JSON-RPC error).
  /// False once `exit` was received.
  bool Handle(const std::string& body);
  /// Reports a stream whose framing broke: nothing more can be read.
  void BadFraming(const std::string& reason);
  /// The process exit code: 0 after shutdown then exit, else 1.
  int exit_code() const { return exit_code_; }

 private:
  struct Document {
    std::string path;  // from the file: URI; the URI itself for other schemes
    std::string text;
    std::string language;  // the client's languageId
    int64_t version = 0;
  };

  void Dispatch(const nlohmann::json& message);
  void Request(const nlohmann::json& id, const std::string& method, const nlohmann::json& params);
  void Notification(const std::string& method, const nlohmann::json& params);
  void Respond(const nlohmann::json& id, nlohmann::json result);
  void RespondError(const nlohmann::json& id, int code, const std::string& message);
  void Notify(const std::string& method, nlohmann::json params);
  void Log(int type, const std::string& message);

  bool CompilePack();
  /// Re-lints `uri` and the open documents in its directory.
  void Refresh(const std::string& uri);
  /// Re-lints the open documents in `dir`, but `except`.
  void PublishBeside(const std::string& dir, const std::string& except);
  void Publish(const std::string& uri);
  nlohmann::json LintYaml(const std::string& uri, const Document& doc);
  nlohmann::json CompileCpl(const Document& doc);
  /// The text of `path`: an open buffer's, else the file's; nullopt when
  /// neither exists.
  std::optional<std::string> TextOf(const std::string& path) const;

  ServerOptions options_;
  std::ostream& out_;
  bool initialized_ = false;
  bool shut_down_ = false;
  int exit_code_ = 1;
  std::map<std::string, Document> documents_;  // by URI
  std::shared_ptr<const Engine> engine_;       // the compiled pack; null when it does not compile
  std::string pack_error_;
  std::vector<TextFile> policy_files_;         // what the pack was compiled from, by absolute path
};

/// Reads framed messages from `in` and hands them to `server` until `exit`
/// or the end of the stream; returns the exit code.
int Serve(std::istream& in, Server* server, size_t max_message_bytes = size_t{64} << 20);

/// `file:///a%20b` → `/a b`; nullopt for other schemes and malformed escapes.
std::optional<std::string> PathOfUri(const std::string& uri);
/// `/a b` → `file:///a%20b`.
std::string UriOfPath(const std::string& path);

}  // namespace capops::lsp
