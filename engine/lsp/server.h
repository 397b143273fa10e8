// SPDX-License-Identifier: Apache-2.0
// capops-lsp: a language server for plan and inventory YAML and for CPL.
//
// Speaks the LSP 3.17 base protocol over a stream (stdio in capops-lsp):
// the lifecycle (initialize, initialized, shutdown, exit), full-text
// document sync (didOpen, didChange, didClose), publishDiagnostics, hover,
// definition, completion, code actions (quick fixes, code_actions.h) and
// document symbols (document_symbols.h):
//
//   - a YAML document is linted as `capops-lint` lints it, by the same
//     lint::Project: the nearest `.capops.yaml` above it gives its
//     inventories, policies, params, rule selection, waivers and baseline
//     (Setting); else its inventory is `inventory.yaml` beside it. An inventory is the open buffer
//     when it is open, else the file on disk; an inventory's diagnostics come from the open plans
//     that use it (or, with none open, from loading it alone). Findings carry the rule id as
//     `code`, the other facts the rule read as `relatedInformation`, and `because`/`fix` in the
//     message. Hover, definition and completion are FactHelp's;
//   - a `.cpl` document is compiled with the stdlib and the shipped pack,
//     its own text standing in for the file of the same path; hover and
//     definition are cpl_help.h's, on the program of its current text;
//   - a change re-lints the document and the open documents that go with
//     it (an edited inventory re-lints its plans), reusing the compiled
//     pack. Deferred (Serve with `input_waiting`), a burst of changes is
//     linted once, at its last version.
//
// The server never writes files. Positions are UTF-16 code units, as the
// protocol's default encoding asks.
//
//   lsp::Server server(lsp::ServerOptions{}, std::cout);
//   return lsp::Serve(std::cin, &server);
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/lint/project.h"
#include "engine/lsp/fact_help.h"
#include "engine/lsp/jsonrpc.h"
#include "engine/lsp/uri.h"
#include "engine/workspace/file_system.h"

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
  /// A message over the size limit was passed over (Serve reads on).
  void TooLarge(const std::string& reason);
  /// The process exit code: 0 after shutdown then exit, else 1.
  int exit_code() const { return exit_code_; }
  /// With `defer`, a change is linted at the next Flush() rather than at
  /// once, so a burst of changes to one document is linted once, at its
  /// last version (Serve flushes whenever no message is waiting).
  void Defer(bool defer) { deferred_ = defer; }
  /// Lints and publishes the documents changed since the last Flush().
  void Flush();
  /// The lint report a plan document's diagnostics are made from, as the
  /// document stands (for embedders and tests); nullopt when `uri` is not
  /// an open plan, or nothing is linted (the setting says why).
  std::optional<lint::Report> LintReport(const std::string& uri);
  /// How many lints the server has run (each a project's run over a plan
  /// and its inventories, or an inventory alone): what an edit costs.
  size_t lints_run() const { return lints_run_; }

 private:
  struct Document {
    std::string path;  // from the file: URI; the URI itself for other schemes
    std::string text;
    std::string language;  // the client's languageId
    int64_t version = 0;
    nlohmann::json diagnostics;  // as last published, for `text` unless the URI is pending_
    /// `diagnostics` carry the capacity repairs, searched for when a code
    /// action was first asked for since they were published.
    bool repaired = false;
  };

  /// Whether a message in which ReplaceNonUnicode replaced characters is
  /// to be handled: yes, logged, unless a `uri` held one (then refused:
  /// an error reply to a request, a window/showMessage for a notification).
  bool Repaired(const nlohmann::json& message, const UnicodeRepair& repair);
  void Dispatch(const nlohmann::json& message);
  void Request(const nlohmann::json& id, const std::string& method, const nlohmann::json& params);
  void Notification(const std::string& method, const nlohmann::json& params);
  void Respond(const nlohmann::json& id, nlohmann::json result);
  void RespondError(const nlohmann::json& id, int code, const std::string& message);
  void Notify(const std::string& method, nlohmann::json params);
  void Log(int type, const std::string& message);

  /// The lint for the documents under one `.capops.yaml`, or under none:
  /// the project capops-lint would open there (workspace::OpenProject: its
  /// policies, params, rule selection, inventories, waivers and baseline;
  /// an option given to the server wins over the config).
  struct Setting {
    std::shared_ptr<const lint::Project> project;  // null: `error` says why nothing is linted
    std::string error;
    std::vector<std::string> inventories;  // the config's; empty: inventory.yaml beside each plan
    std::string rules_url;
    std::shared_ptr<FactHelp> help;  // made on the first hover, definition or completion
    /// What it was made from, as read: the config, the waivers and baseline
    /// (a change to any, on disk or in a buffer, makes it again).
    std::vector<std::pair<std::string, std::optional<std::string>>> read;
  };
  /// Compiles the pack of no config (the server's own policies), shared by
  /// every setting whose config names no policies and sets no params.
  bool CompilePack();
  /// The setting of the nearest `.capops.yaml` above `path` (made again
  /// when what it was made from changed), or of none.
  Setting& SettingFor(const std::string& path);
  /// The inventory files of a plan (workspace::InventoriesOf).
  std::vector<std::string> InventoriesOf(const std::string& plan);
  bool IsInventoryOf(const std::string& inventory, const std::string& plan);
  /// `inventory.yaml`, or a file its config names as an inventory.
  bool IsInventoryDocument(const std::string& path);
  /// Re-lints `uri` and the open documents in its directory.
  void Refresh(const std::string& uri);
  /// Re-lints the open documents beside `path` (in its directory, or
  /// plans whose inventory it is), but `except`.
  void PublishBeside(const std::string& path, const std::string& except);
  void Publish(const std::string& uri);
  nlohmann::json LintYaml(const std::string& uri, const Document& doc);
  nlohmann::json CompileCpl(const Document& doc);
  /// The text of `path`: an open buffer's, else the file's; nullopt (and
  /// `*error` why) when neither can be had.
  std::optional<std::string> TextOf(const std::string& path, std::string* error = nullptr) const;
  /// Runs the setting's project on `plans` with `inventories` (read
  /// through files_: an open buffer, else the disk).
  lint::Report Run(const Setting& setting, const std::vector<TextFile>& plans,
                   const std::vector<std::string>& inventories);
  /// Lints `plans` with `inventories` (read through files_: an open
  /// buffer, else the disk) as the setting's project does, and the
  /// diagnostics of it for the document at `path`. Within a PublishRound
  /// the same plans and inventories are linted once.
  nlohmann::json Lint(const Setting& setting, const std::string& path,
                      const std::vector<TextFile>& plans,
                      const std::vector<std::string>& inventories);
  /// The fact files that go with a YAML document (for hover, definition
  /// and completion): a plan's inventory; an inventory's plans open beside it.
  std::vector<TextFile> FactsBeside(const std::string& uri, const Document& doc);
  /// Answers hover, definition and completion at `params`' position.
  void Answer(const nlohmann::json& id, const std::string& method, const nlohmann::json& params);
  /// Answers what is asked of a whole document: its quick fixes, its outline.
  void AnswerDocument(const nlohmann::json& id, const std::string& method,
                      const nlohmann::json& params);

  /// A round of publishing (a change, the pending changes, a close): no
  /// document changes within it, so a plan linted with its inventories
  /// serves every document it has diagnostics for. A change to a plan
  /// republishes the open inventory beside it from the plan's own lint.
  class PublishRound;
  /// The round's lints, by project, plans and inventories; each holds its
  /// project, so that no other takes its address within the round.
  struct RoundLint {
    std::shared_ptr<const lint::Project> project;
    lint::Report report;
  };
  std::map<std::string, RoundLint> round_reports_;
  bool in_round_ = false;
  size_t lints_run_ = 0;

  ServerOptions options_;
  std::ostream& out_;
  bool initialized_ = false;
  bool deferred_ = false;
  std::set<std::string> pending_;  // URIs changed, not yet linted (deferred_)
  bool shut_down_ = false;
  int exit_code_ = 1;
  std::map<std::string, Document> documents_;  // by URI
  /// The lints run now search for capacity repairs (a code action asked
  /// for them); an edit's lint does not, so typing never waits for a search.
  bool repairing_ = false;
  std::map<std::string, Setting> settings_;  // by config path; "" for none
  workspace::DiskFileSystem disk_;
  workspace::OverlayFileSystem files_{&disk_};  // the open documents over the disk
  std::shared_ptr<const Engine> pack_;          // the server's pack, compiled; null: `pack_error_`
  std::string pack_error_;
  std::vector<TextFile> policy_files_;  // what the pack was compiled from, by absolute path
  /// Each open `.cpl` file's program as last compiled, with the text it was
  /// compiled from (hover and definition need the current text's).
  struct CompiledCpl {
    std::string text;
    std::shared_ptr<Engine> engine;  // null when that text did not compile
  };
  std::map<std::string, CompiledCpl> cpl_compiled_;  // by path
};

/// Reads framed messages from `in` and hands them to `server` until `exit`
/// or the end of the stream; returns the exit code. With `input_waiting`
/// (true when another message can be read at once), changes are linted
/// only once no message is waiting: a change superseded by the next one
/// already sent is never linted (Server::Defer).
int Serve(std::istream& in, Server* server, size_t max_message_bytes = size_t{64} << 20,
          const std::function<bool()>& input_waiting = nullptr);

}  // namespace capops::lsp
