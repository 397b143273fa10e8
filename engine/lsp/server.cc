// SPDX-License-Identifier: Apache-2.0
// The language server: documents, the settings they are linted under (one
// lint::Project per `.capops.yaml`, opened as capops-lint opens it), their
// diagnostics, and answers to hover, definition and completion. Entry
// points: Server::Handle, Serve.
#include "engine/lsp/server.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

#include "engine/common/source.h"
#include "engine/lint/rule_catalog.h"
#include "engine/lsp/code_actions.h"
#include "engine/lsp/cpl_help.h"
#include "engine/lsp/document_symbols.h"
#include "engine/lsp/jsonrpc.h"
#include "engine/lsp/position.h"
#include "engine/lsp/skeletons.h"
#include "engine/lsp/uri.h"
#include "engine/repair/repair.h"
#include "engine/report/report.h"
#include "engine/report/snippet.h"
#include "engine/workspace/config_file.h"
#include "engine/workspace/plan_set.h"
#include "engine/workspace/policy_loader.h"
#include "engine/workspace/session.h"

#ifndef CAPOPS_VERSION
#define CAPOPS_VERSION "0.0.0"
#endif

namespace capops::lsp {
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// LSP's MessageType.
constexpr int kLogError = 1;
constexpr int kLogWarning = 2;

bool IsYaml(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml";
}

bool IsCpl(const std::string& path, const std::string& language) {
  return fs::path(path).extension() == ".cpl" || language == "cpl";
}

bool IsInventory(const std::string& path) {
  return fs::path(path).filename() == "inventory.yaml";
}

std::string Normal(const std::string& path) {
  return fs::path(path).lexically_normal().string();
}

Json Position(const SourceManager& sources, const SourceLoc& loc, uint32_t column) {
  if (!loc.valid()) return {{"line", 0}, {"character", 0}};
  std::string line = sources.LineText(loc.file, loc.line).value_or(std::string());
  return {{"line", loc.line - 1}, {"character", Utf16Column(line, column == 0 ? 1 : column)}};
}

// The range a report underlines at `loc`: `length` characters, or the YAML
// token there when 0 (snippet.h), else the point.
Json Range(const SourceManager& sources, const SourceLoc& loc, uint32_t length) {
  Json start = Position(sources, loc, loc.column);
  uint32_t end_column = loc.valid() ? report::SpanEndColumn(sources, loc, length) : 0;
  Json end = end_column > loc.column ? Position(sources, loc, end_column) : start;
  return {{"start", std::move(start)}, {"end", std::move(end)}};
}

Json Location(const SourceManager& sources, const SourceLoc& loc, uint32_t length = 0) {
  return {{"uri", UriOfPath(std::string(sources.Path(loc.file)))},
          {"range", Range(sources, loc, length)}};
}

int SeverityOf(Severity s) {
  switch (s) {
    case Severity::kError:
      return 1;
    case Severity::kWarning:
      return 2;
    default:
      return 3;
  }
}

// The diagnostics of a lint for the document at `path`. A finding located
// in another file (its inventory, when not open) is shown at the top of the
// document, pointing there, so that nothing the lint found goes unseen.
Json DiagnosticsFor(const SourceManager& sources, const eval::LintReport& report,
                    const std::string& path, const std::set<std::string>& shown_elsewhere,
                    const std::string& rules_url) {
  Json out = Json::array();
  auto place = [&](const SourceLoc& loc, uint32_t length, Json d) {
    std::string file =
        loc.file == kNoFile ? std::string() : Normal(std::string(sources.Path(loc.file)));
    if (file == path) {
      d["range"] = Range(sources, loc, length);
    } else {
      if (!file.empty() && shown_elsewhere.count(file) != 0) return;
      d.erase("data");  // a fix is made where the mistake is
      d["range"] = {{"start", {{"line", 0}, {"character", 0}}},
                    {"end", {{"line", 0}, {"character", 0}}}};
      if (loc.file != kNoFile) {
        d["message"] = "in " + report::Where(sources, loc) + ": " + d["message"].get<std::string>();
        d["relatedInformation"].insert(
            d["relatedInformation"].begin(),
            Json{{"location", Location(sources, loc, length)}, {"message", "here"}});
      }
    }
    out.push_back(std::move(d));
  };
  for (const eval::Violation& v : report.violations) {
    if (v.suppression) continue;
    std::string message = v.message;
    if (!v.because.empty()) message += "\nbecause: " + v.because;
    if (!v.fix.empty()) message += "\nfix: " + v.fix;
    // Advice has no edit, so no quick fix: it is said, as the text report says it.
    if (v.acquisition) message += "\nhelp: " + v.acquisition->description;
    Json d = {{"severity", SeverityOf(v.severity)},
              {"code", v.rule_id},
              {"source", "capops"},
              {"message", message},
              {"relatedInformation", Json::array()}};
    if (!rules_url.empty()) d["codeDescription"] = {{"href", rules_url + "#" + v.rule_id}};
    for (const eval::Label& l : v.labels) {
      if (l.loc.valid())
        d["relatedInformation"].push_back(
            {{"location", Location(sources, l.loc)}, {"message", l.message}});
    }
    if (!v.fixes.empty()) d["data"] = {{"fixes", FixesData(sources, v.fixes)}};
    place(v.loc, 0, std::move(d));
  }
  for (const Diagnostic& e : report.errors.items()) {
    std::string message = e.message;
    if (!e.help.empty()) message += "\nhelp: " + e.help;
    Json d = {{"severity", SeverityOf(e.severity)},
              {"code", e.code.empty() ? "capops" : e.code},
              {"source", "capops"},
              {"message", message},
              {"relatedInformation", Json::array()}};
    if (!e.fixes.empty()) d["data"] = {{"fixes", FixesData(sources, e.fixes)}};
    for (const RelatedLoc& r : e.related) {
      if (r.loc.valid())
        d["relatedInformation"].push_back(
            {{"location", Location(sources, r.loc)}, {"message", r.message}});
    }
    place(e.loc, e.length, std::move(d));
  }
  return out;
}

}  // namespace

Server::Server(ServerOptions options, std::ostream& out)
    : options_(std::move(options)), out_(out) {}

Server::~Server() = default;

void Server::Respond(const Json& id, Json result) {
  WriteMessage(out_, {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::RespondError(const Json& id, int code, const std::string& message) {
  WriteMessage(out_,
               {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

void Server::Notify(const std::string& method, Json params) {
  WriteMessage(out_, {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void Server::Log(int type, const std::string& message) {
  Notify("window/logMessage", {{"type", type}, {"message", message}});
}

void Server::BadFraming(const std::string& reason) {
  Log(kLogError, "capops-lsp: cannot read on: " + reason);
}

void Server::TooLarge(const std::string& reason) {
  // Said where the user looks, not only in the log: a change in it was lost.
  Notify("window/showMessage",
         {{"type", kLogError},
          {"message", "capops-lsp: " + reason +
                          ", so it was not read; a document it changed is out of date here "
                          "until it is changed again or reopened"}});
}

bool Server::Handle(const std::string& body) {
  UnicodeRepair repair;
  Json message = Json::parse(ReplaceNonUnicode(body, &repair), nullptr,
                             /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    RespondError(nullptr, error_code::kParseError, "the message is not JSON");
    return true;
  }
  try {
    if (repair.replaced == 0 || Repaired(message, repair)) Dispatch(message);
  } catch (const Json::exception& e) {
    // A field of the wrong type deep in the params: the request is answered, the server goes on.
    if (message.is_object() && message.contains("id") && message.contains("method")) {
      RespondError(message["id"], error_code::kInvalidParams,
                   std::string("invalid params: ") + e.what());
    } else {
      Log(kLogError, std::string("capops-lsp: a notification's params are invalid: ") + e.what());
    }
  }
  return !(message.is_object() && message.value("method", Json()) == "exit");
}

bool Server::Repaired(const Json& message, const UnicodeRepair& repair) {
  const Json& method = message.is_object() ? message.value("method", Json()) : Json();
  std::string what = method.is_string() ? "`" + method.get<std::string>() + "`" : "a message";
  const Json& params = message.is_object() ? message.value("params", Json()) : Json();
  const Json& document =
      params.is_object() ? params.value("textDocument", Json::object()) : Json::object();
  if (document.is_object() && document.value("uri", Json()).is_string())
    what += " of `" + document["uri"].get<std::string>() + "`";
  std::string count = std::to_string(repair.replaced) +
                      (repair.replaced == 1 ? " character" : " characters") +
                      " that cannot be Unicode (a lone UTF-16 surrogate, or a byte that is not "
                      "UTF-8)";
  if (repair.members.count("uri") == 0) {
    Log(kLogWarning, "capops-lsp: " + what + " held " + count + ", read as U+FFFD");
    return true;
  }
  // A URI so repaired names another document than the client's: what the
  // server published for it would never reach the client's.
  std::string why = "a `uri` holds " + count + ", so it names no document";
  if (message.contains("id") && method.is_string()) {
    RespondError(message["id"], error_code::kInvalidParams, why);
  } else {
    Notify("window/showMessage",
           {{"type", kLogError}, {"message", "capops-lsp: " + what + " is ignored: " + why}});
  }
  return false;
}

void Server::Dispatch(const Json& message) {
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
    if (message.is_object() && (message.contains("result") || message.contains("error")))
      return;  // a reply to us
    Json id = message.is_object() && message.contains("id") ? message["id"] : Json();
    RespondError(id, error_code::kInvalidRequest, "a request needs a `method` string");
    return;
  }
  const std::string method = message["method"];
  Json params = message.contains("params") ? message["params"] : Json::object();
  if (message.contains("id")) {
    const Json& id = message["id"];
    if (!id.is_string() && !id.is_number_integer()) {
      RespondError(nullptr, error_code::kInvalidRequest, "a request id is a number or a string");
      return;
    }
    Request(id, method, params);
  } else {
    Notification(method, params);
  }
}

void Server::Request(const Json& id, const std::string& method, const Json& params) {
  if (method == "initialize") {
    if (initialized_) {
      RespondError(id, error_code::kInvalidRequest, "the server is already initialized");
      return;
    }
    initialized_ = true;
    if (!CompilePack()) Log(kLogError, "capops-lsp: " + pack_error_);
    Json capabilities = {
        {"positionEncoding", "utf-16"},
        {"textDocumentSync", {{"openClose", true}, {"change", 1}}},
        {"hoverProvider", true},
        {"definitionProvider", true},
        {"completionProvider", Json::object()},
        {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
        {"documentSymbolProvider", true},
    };
    Respond(id, {{"capabilities", capabilities},
                 {"serverInfo", {{"name", "capops-lsp"}, {"version", CAPOPS_VERSION}}}});
    return;
  }
  if (!initialized_) {
    RespondError(id, error_code::kServerNotInitialized, "`" + method + "` before `initialize`");
    return;
  }
  if (shut_down_) {
    RespondError(id, error_code::kInvalidRequest, "`" + method + "` after `shutdown`");
    return;
  }
  if (method == "shutdown") {
    Flush();  // what was changed is published before the server stops answering
    shut_down_ = true;
    Respond(id, nullptr);
    return;
  }
  if (method == "textDocument/hover" || method == "textDocument/definition" ||
      method == "textDocument/completion") {
    Answer(id, method, params);
    return;
  }
  if (method == "textDocument/codeAction" || method == "textDocument/documentSymbol") {
    AnswerDocument(id, method, params);
    return;
  }
  RespondError(id, error_code::kMethodNotFound, "capops-lsp does not answer `" + method + "`");
}

void Server::Answer(const Json& id, const std::string& method, const Json& params) {
  const std::string uri = params.at("textDocument").at("uri").get<std::string>();
  auto it = documents_.find(uri);
  if (it == documents_.end()) {
    RespondError(id, error_code::kInvalidParams, "`" + uri + "` is not open");
    return;
  }
  const Document& doc = it->second;
  const Json& position = params.at("position");
  int64_t line = position.at("line").get<int64_t>(),
          character = position.at("character").get<int64_t>();
  std::optional<std::string_view> text =
      line < 0 || line > UINT32_MAX ? std::nullopt : LineAt(doc.text, static_cast<uint32_t>(line));
  if (!text || character < 0) {
    RespondError(id, error_code::kInvalidParams,
                 "position " + std::to_string(line) + ":" + std::to_string(character) +
                     " is outside `" + uri + "`");
    return;
  }
  uint32_t l = static_cast<uint32_t>(line) + 1;
  uint32_t column =
      CharColumn(*text, static_cast<uint32_t>(std::min<int64_t>(character, UINT32_MAX)));
  bool completion = method == "textDocument/completion";
  Json empty = completion ? Json{{"isIncomplete", false}, {"items", Json::array()}} : Json();
  if (IsCpl(doc.path, doc.language)) {
    auto compiled = cpl_compiled_.find(doc.path);
    bool current = compiled != cpl_compiled_.end() && compiled->second.engine &&
                   compiled->second.text == doc.text;
    if (!current || completion) {
      Respond(id, empty);
    } else if (method == "textDocument/hover") {
      Respond(id, CplHover(*compiled->second.engine, doc.path, l, column));
    } else {
      Respond(id, CplDefinition(*compiled->second.engine, doc.path, l, column));
    }
    return;
  }
  if (!IsYaml(doc.path) && doc.language != "yaml") {
    Respond(id, empty);
    return;
  }
  if (completion && doc.text.find_first_not_of(" \t\r\n") == std::string::npos) {
    // An empty file: a whole document to start from, an inventory first
    // where the file is one (or is named like one).
    bool inventory = IsInventoryDocument(doc.path) ||
                     fs::path(doc.path).filename().string().find("inventory") != std::string::npos;
    Respond(id, SkeletonCompletion(inventory));
    return;
  }
  Setting& setting = SettingFor(doc.path);
  if (setting.project && !setting.help) {  // made on first use: the catalogue walks every rule
    std::shared_ptr<const Engine> engine(setting.project, &setting.project->engine());
    setting.help =
        std::make_shared<FactHelp>(engine, lint::FieldReaders(lint::BuildCatalog(*engine)));
  }
  std::shared_ptr<FactHelp> help = setting.help;
  if (!help) {
    Respond(id, empty);
    return;
  }
  TextFile file{doc.path, doc.text};
  std::vector<TextFile> beside = FactsBeside(uri, doc);
  if (method == "textDocument/hover") {
    Respond(id, help->Hover(file, beside, l, column));
  } else if (method == "textDocument/definition") {
    Respond(id, help->Definition(file, beside, l, column));
  } else {
    Respond(id, help->Completion(file, beside, l, column));
  }
}

namespace {

// (line, character) of a protocol Position.
std::pair<int64_t, int64_t> At(const Json& position) {
  return {position.value("line", int64_t{0}), position.value("character", int64_t{0})};
}

// Whether a diagnostic of a rule with a repair search meets `range`.
bool Repairable(const Json& diagnostics, const Json& range) {
  if (!diagnostics.is_array()) return false;
  for (const Json& d : diagnostics) {
    const Json& code = d.value("code", Json());
    if (!code.is_string() || !repair::HasRepairSearch(code.get<std::string>())) continue;
    const Json& r = d.value("range", Json());
    if (!IsRange(r)) continue;
    if (At(r["start"]) <= At(range["end"]) && At(range["start"]) <= At(r["end"])) return true;
  }
  return false;
}

// Diagnostics without the fixes they carry (`data`): what an editor shows.
Json WithoutFixes(Json diagnostics) {
  if (!diagnostics.is_array()) return diagnostics;
  for (Json& d : diagnostics) {
    if (d.is_object()) d.erase("data");
  }
  return diagnostics;
}

}  // namespace

void Server::AnswerDocument(const Json& id, const std::string& method, const Json& params) {
  const std::string uri = params.at("textDocument").at("uri").get<std::string>();
  if (pending_.count(uri) != 0) Flush();  // fixes are made against the text as it stands
  auto it = documents_.find(uri);
  if (it == documents_.end()) {
    RespondError(id, error_code::kInvalidParams, "`" + uri + "` is not open");
    return;
  }
  const Document& doc = it->second;
  bool yaml = !IsCpl(doc.path, doc.language) && (IsYaml(doc.path) || doc.language == "yaml");
  if (method == "textDocument/documentSymbol") {
    Respond(id, yaml ? DocumentSymbols(doc.text) : Json::array());
    return;
  }
  const Json& range = params.value("range", Json());
  if (!IsRange(range)) {
    RespondError(id, error_code::kInvalidParams, "a code action request needs a `range`");
    return;
  }
  // A finding in range that a repair search may fix: the search runs now,
  // once for the diagnostics as published, rather than at every edit.
  if (yaml && !doc.repaired && Repairable(doc.diagnostics, range)) {
    Document& searched = it->second;
    repairing_ = true;
    Json published = std::move(searched.diagnostics);
    searched.diagnostics = LintYaml(uri, searched);
    repairing_ = false;
    searched.repaired = true;
    // The search found advice (an acquisition, in a message) where it found
    // no fix: published again so that the editor shows it.
    if (WithoutFixes(published) != WithoutFixes(searched.diagnostics)) {
      Json notice = {{"uri", uri}, {"diagnostics", searched.diagnostics}};
      if (searched.version != 0) notice["version"] = searched.version;
      Notify("textDocument/publishDiagnostics", std::move(notice));
    }
  }
  const Json& context = params.value("context", Json::object());
  Respond(id, QuickFixes(uri, doc.path, doc.diagnostics, range,
                         context.is_object() ? context.value("only", Json()) : Json()));
}

std::vector<TextFile> Server::FactsBeside(const std::string& uri, const Document& doc) {
  std::vector<TextFile> out;
  if (!IsInventoryDocument(doc.path)) {
    for (const std::string& inventory : InventoriesOf(doc.path)) {
      if (std::optional<std::string> text = TextOf(inventory))
        out.push_back({inventory, std::move(*text)});
    }
    return out;
  }
  for (const auto& [other, plan] : documents_) {
    if (other != uri && IsYaml(plan.path) && IsInventoryOf(doc.path, plan.path))
      out.push_back({plan.path, plan.text});
  }
  return out;
}

class Server::PublishRound {
 public:
  explicit PublishRound(Server* server) : server_(server), outermost_(!server->in_round_) {
    server_->in_round_ = true;
  }
  ~PublishRound() {
    if (!outermost_) return;
    server_->in_round_ = false;
    server_->round_reports_.clear();
  }
  PublishRound(const PublishRound&) = delete;
  PublishRound& operator=(const PublishRound&) = delete;

 private:
  Server* server_;
  bool outermost_;
};

void Server::Notification(const std::string& method, const Json& params) {
  if (method == "exit") {
    exit_code_ = shut_down_ ? 0 : 1;
    return;
  }
  if (!initialized_ || shut_down_ || method == "initialized" || method.rfind("$/", 0) == 0) return;
  bool open = method == "textDocument/didOpen", change = method == "textDocument/didChange",
       close = method == "textDocument/didClose";
  if (!open && !change && !close) return;  // a notification the server does not use
  const Json& item = params.at("textDocument");
  const std::string uri = item.at("uri").get<std::string>();
  if (open) {
    Document doc;
    std::optional<std::string> path = PathOfUri(uri);
    doc.path = path ? Normal(*path) : uri;
    doc.text = item.at("text").get<std::string>();
    doc.language = item.value("languageId", std::string());
    doc.version = item.value("version", int64_t{0});
    files_.Set(doc.path, doc.text);
    documents_[uri] = std::move(doc);
  } else if (change) {
    auto it = documents_.find(uri);
    if (it == documents_.end()) {
      Log(kLogWarning, "capops-lsp: a change to `" + uri + "`, which is not open, is ignored");
      return;
    }
    const Json& changes = params.at("contentChanges");
    if (!changes.is_array() || changes.empty()) return;
    const Json& last = changes.back();
    if (last.contains("range")) {
      Log(kLogError, "capops-lsp: `" + uri +
                         "` changed by a range; the server syncs whole documents (change: 1)");
      return;
    }
    it->second.text = last.at("text").get<std::string>();
    files_.Set(it->second.path, it->second.text);
    it->second.version = item.value("version", it->second.version);
  } else {
    auto it = documents_.find(uri);
    std::string closed = it == documents_.end() ? "" : it->second.path;
    if (it != documents_.end()) {
      cpl_compiled_.erase(it->second.path);
      files_.Remove(it->second.path);
      documents_.erase(it);
    }
    Notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", Json::array()}});
    pending_.erase(uri);
    if (!closed.empty()) {
      PublishRound round(this);
      PublishBeside(closed, uri);  // what is left open beside it, against the file on disk again
    }
    return;
  }
  if (deferred_) {
    pending_.insert(uri);
  } else {
    Refresh(uri);
  }
}

void Server::Flush() {
  std::set<std::string> pending;
  pending.swap(pending_);
  PublishRound round(this);
  for (const std::string& uri : pending) Refresh(uri);
}

bool Server::CompilePack() {
  pack_ = options_.engine;
  if (pack_) return true;
  // The pack's files by absolute path, as the `.cpl` documents are opened.
  auto engine = std::make_shared<Engine>();
  std::optional<std::vector<fs::path>> roots =
      workspace::PolicyRoots(options_.policies, &pack_error_);
  if (!roots) return false;
  std::set<std::string> seen;
  for (const fs::path& root : *roots) {
    std::vector<fs::path> found;
    if (!workspace::CollectPolicyFiles(files_, root, &found, &pack_error_)) return false;
    for (const fs::path& f : found) {
      std::string path = files_.Absolute(f.string());
      std::string text;
      if (!seen.insert(path).second) continue;
      if (!files_.Read(path, options_.max_message_bytes, &text, &pack_error_)) return false;
      policy_files_.push_back({path, text});
      engine->AddPolicy(path, std::move(text));
    }
  }
  Diagnostics problems;
  if (!engine->Compile(&problems)) {
    pack_error_ = "the policies do not compile (" + std::to_string(problems.size()) +
                  " problems); open them to see where";
    return false;
  }
  pack_ = engine;
  return true;
}

Server::Setting& Server::SettingFor(const std::string& path) {
  std::optional<fs::path> config;
  if (fs::path(path).is_absolute())
    config = workspace::FindConfig(files_, fs::path(path).parent_path());
  std::string key = config ? files_.Absolute(config->string()) : "";
  auto it = settings_.find(key);
  if (it != settings_.end()) {
    bool same = std::all_of(it->second.read.begin(), it->second.read.end(),
                            [&](const auto& r) { return TextOf(r.first) == r.second; });
    if (same) return it->second;
  }
  // Opened as capops-lint opens it: its errors stop the lint; its policies
  // and params make an engine of their own; an option given wins.
  workspace::SessionOptions options;
  options.config = key;
  options.no_config = key.empty();
  options.policies = options_.policies;
  options.rules_url = options_.rules_url;
  options.allow_empty = true;  // an inventory alone is linted too
  options.compiled = pack_;
  workspace::OpenedProject opened = workspace::OpenProject(files_, options);
  Setting setting;
  if (!key.empty()) setting.read.emplace_back(key, TextOf(key));
  for (const std::string* side : {&opened.options.waivers, &opened.options.baseline}) {
    if (!side->empty()) setting.read.emplace_back(*side, TextOf(*side));
  }
  setting.project = opened.project;
  setting.inventories = opened.options.inventories;
  setting.rules_url = opened.refused.rules_url;
  const lint::Report& refused = opened.refused;
  if (!setting.project && key.empty() && !pack_error_.empty()) {
    setting.error = pack_error_;
  } else if (!setting.project && !refused.problems.empty() && refused.problem_sources) {
    const Diagnostic& first = refused.problems.items().front();
    bool in_config = refused.problem_sources->Path(first.loc.file) == key;
    setting.error =
        (in_config ? "the config " : "") + report::Where(*refused.problem_sources, first.loc) +
        " is not usable: " + first.message + (refused.problems.size() > 1 ? " (and more)" : "");
  } else if (!setting.project) {
    setting.error = refused.error;
  }
  return settings_[key] = std::move(setting);
}

std::vector<std::string> Server::InventoriesOf(const std::string& path) {
  return workspace::InventoriesOf(files_, path, SettingFor(path).inventories, {path});
}

bool Server::IsInventoryOf(const std::string& inventory, const std::string& plan) {
  if (inventory == plan) return false;
  std::vector<std::string> inventories = InventoriesOf(plan);
  return std::find(inventories.begin(), inventories.end(), inventory) != inventories.end();
}

bool Server::IsInventoryDocument(const std::string& path) {
  const Setting& setting = SettingFor(path);
  return IsInventory(path) || std::find(setting.inventories.begin(), setting.inventories.end(),
                                        path) != setting.inventories.end();
}

std::optional<std::string> Server::TextOf(const std::string& path, std::string* error) const {
  std::string text, why;
  if (!files_.Read(path, options_.max_message_bytes, &text, &why)) {
    if (error != nullptr) *error = why;
    return std::nullopt;
  }
  return text;
}

lint::Report Server::Run(const Setting& setting, const std::vector<TextFile>& plans,
                         const std::vector<std::string>& inventories) {
  lint::RunInput input;
  for (const TextFile& f : plans) input.plan_files.push_back(f.path);
  // This lint's files: the waivers judged on them only (a partial run, as
  // a pre-commit batch is), so no waiver of another plan is called stale.
  std::vector<std::string> files = input.plan_files;
  files.insert(files.end(), inventories.begin(), inventories.end());
  input.partial = files;
  input.groups.count = 1;
  input.groups.read = [&](size_t, std::vector<TextFile>* p, std::vector<TextFile>* i,
                          std::string* error) {
    *p = plans;
    for (const std::string& inventory : inventories) {
      TextFile f{inventory, {}};
      if (!files_.Read(inventory, options_.max_message_bytes, &f.text, error)) {
        *error = "the inventory cannot be read: " + *error;
        return false;
      }
      i->push_back(std::move(f));
    }
    return true;
  };
  // The capacity repairs too, when a code action asks for them, each proved
  // by a lint of this buffer edited: quick fixes as the command line's
  // `= fix:` lines and --fix.
  input.repair_lints = repairing_ ? repair::kLintRepairLints : 0;
  ++lints_run_;
  return setting.project->Run(std::move(input));
}

std::optional<lint::Report> Server::LintReport(const std::string& uri) {
  auto it = documents_.find(uri);
  if (it == documents_.end() || !IsYaml(it->second.path) || IsInventoryDocument(it->second.path))
    return std::nullopt;
  const Document& doc = it->second;
  const Setting& setting = SettingFor(doc.path);
  if (!setting.project) return std::nullopt;
  return Run(setting, {{doc.path, doc.text}}, InventoriesOf(doc.path));
}

Json Server::Lint(const Setting& setting, const std::string& path,
                  const std::vector<TextFile>& plans, const std::vector<std::string>& inventories) {
  std::set<std::string> open_files;
  for (const auto& [u, d] : documents_) open_files.insert(d.path);
  open_files.erase(path);
  lint::Report fresh;
  const lint::Report* linted = &fresh;
  if (in_round_) {
    std::string key = std::to_string(reinterpret_cast<uintptr_t>(setting.project.get())) +
                      (repairing_ ? "\n+repairs" : "\n");
    for (const TextFile& f : plans) key += "\nplan " + f.path;
    for (const std::string& inventory : inventories) key += "\ninventory " + inventory;
    auto found = round_reports_.find(key);
    if (found == round_reports_.end())
      found =
          round_reports_.emplace(key, RoundLint{setting.project, Run(setting, plans, inventories)})
              .first;
    linted = &found->second.report;
  } else {
    fresh = Run(setting, plans, inventories);
  }
  const lint::Report& report = *linted;
  Json out = DiagnosticsFor(*report.sources, report.findings, path, open_files, setting.rules_url);
  if (report.status != lint::Status::kUsage) return out;
  // The lint could not be finished as capops-lint would: say why, as it does.
  if (!report.problems.empty()) {
    eval::LintReport problems;
    problems.errors = report.problems;
    for (Json& d : DiagnosticsFor(*report.problem_sources, problems, path, {}, setting.rules_url))
      out.push_back(std::move(d));
  }
  if (!report.error.empty()) {
    out.push_back(
        {{"range",
          {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
         {"severity", 1},
         {"code", "io"},
         {"source", "capops"},
         {"message", report.error}});
  }
  return out;
}

void Server::Refresh(const std::string& uri) {
  auto it = documents_.find(uri);
  if (it == documents_.end()) return;
  PublishRound round(this);
  Publish(uri);
  PublishBeside(it->second.path, uri);
}

void Server::PublishBeside(const std::string& path, const std::string& except) {
  std::string dir = fs::path(path).parent_path().string();
  std::vector<std::string> uris;
  for (const auto& [other, doc] : documents_) {
    if (other != except &&
        (fs::path(doc.path).parent_path().string() == dir || IsInventoryOf(path, doc.path))) {
      uris.push_back(other);
    }
  }
  for (const std::string& other : uris) Publish(other);
}

void Server::Publish(const std::string& uri) {
  const Document& doc = documents_.at(uri);
  Json diagnostics;
  if (IsCpl(doc.path, doc.language)) {
    diagnostics = CompileCpl(doc);
  } else if (IsYaml(doc.path) || doc.language == "yaml") {
    diagnostics = LintYaml(uri, doc);
  } else {
    return;  // not a file capops reads
  }
  documents_.at(uri).diagnostics = diagnostics;
  documents_.at(uri).repaired = false;
  Json params = {{"uri", uri}, {"diagnostics", std::move(diagnostics)}};
  if (doc.version != 0) params["version"] = doc.version;
  Notify("textDocument/publishDiagnostics", std::move(params));
}

Json Server::LintYaml(const std::string& uri, const Document& doc) {
  const Setting& setting = SettingFor(doc.path);
  if (!setting.project) {
    return Json::array(
        {{{"range",
           {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
          {"severity", 1},
          {"code", "policy"},
          {"source", "capops"},
          {"message", "not linted: " + setting.error}}});
  }
  if (!IsInventoryDocument(doc.path)) {
    // As under a plan directory: capops's own files (config, waivers,
    // baseline) are not facts, and any other YAML gets one located note
    // saying it is not linted, never a page of schema errors.
    Diagnostic note;
    workspace::FileRole role = workspace::ClassifyFile(
        doc.path, doc.text, setting.project->engine().options().facts, &note);
    if (role == workspace::FileRole::kCapopsFile) return Json::array();
    if (role == workspace::FileRole::kOther) {
      Json at = PositionIn(doc.text, note.loc.line, note.loc.column);
      return Json::array({{{"range", {{"start", at}, {"end", at}}},
                           {"severity", SeverityOf(note.severity)},
                           {"code", note.code},
                           {"source", "capops"},
                           {"message", note.message + "\nhelp: " + note.help}}});
    }
    return Lint(setting, doc.path, {{doc.path, doc.text}}, InventoriesOf(doc.path));
  }
  // An inventory: what the open plans that use it find in it, each once.
  Json out = Json::array();
  std::set<std::string> seen;
  bool linted = false;
  std::vector<std::pair<std::string, std::string>> plans;
  for (const auto& [other, plan] : documents_) {
    if (other != uri && IsYaml(plan.path) && !IsInventoryDocument(plan.path) &&
        IsInventoryOf(doc.path, plan.path)) {
      plans.emplace_back(plan.path, plan.text);
    }
  }
  for (const auto& [path, text] : plans) {
    linted = true;
    // What is located in an open file (the plan, say) is that file's to show.
    for (Json& d : Lint(setting, doc.path, {{path, text}}, InventoriesOf(path))) {
      if (seen.insert(d.dump()).second) out.push_back(std::move(d));
    }
  }
  if (!linted) out = Lint(setting, doc.path, {}, {doc.path});
  return out;
}

Json Server::CompileCpl(const Document& doc) {
  // The pack the file belongs to: the shipped one when it is one of its
  // files, else the stdlib with the `.cpl` files of its own directory.
  bool in_pack = false;
  for (const TextFile& f : policy_files_) in_pack |= f.path == doc.path;
  std::vector<std::pair<std::string, std::string>> sources_to_add;
  std::string stdlib_dir;
  if (!policy_files_.empty())
    stdlib_dir = fs::path(policy_files_.front().path).parent_path().string();
  for (const TextFile& f : policy_files_) {
    bool stdlib = fs::path(f.path).parent_path().string() == stdlib_dir;
    if (f.path == doc.path) {
      sources_to_add.emplace_back(doc.path, doc.text);
    } else if (in_pack || stdlib) {
      sources_to_add.emplace_back(f.path, f.text);
    }
  }
  if (!in_pack) {
    std::error_code ec;
    fs::path dir = fs::path(doc.path).parent_path();
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      std::string path = Normal(entry.path().string());
      if (entry.path().extension() != ".cpl" || path == doc.path || dir.string() == stdlib_dir)
        continue;
      if (std::optional<std::string> text = TextOf(path))
        sources_to_add.emplace_back(path, std::move(*text));
    }
    if (fs::path(doc.path).parent_path().string() != stdlib_dir)
      sources_to_add.emplace_back(doc.path, doc.text);
  }
  auto compiled = std::make_shared<Engine>();
  Engine& engine = *compiled;
  for (auto& [path, text] : sources_to_add) engine.AddPolicy(path, text);
  Diagnostics problems;
  bool ok = engine.Compile(&problems);
  cpl_compiled_[doc.path] = CompiledCpl{doc.text, ok ? compiled : nullptr};
  eval::LintReport report;
  report.errors.Append(problems);
  // Problems in the pack's other files are theirs: shown when they are opened.
  std::set<std::string> others;
  for (auto& [path, text] : sources_to_add) others.insert(path);
  others.erase(doc.path);
  return DiagnosticsFor(engine.sources(), report, doc.path, others, options_.rules_url);
}

int Serve(std::istream& in, Server* server, size_t max_message_bytes,
          const std::function<bool()>& input_waiting) {
  if (input_waiting) server->Defer(true);
  std::string body, error;
  for (;;) {
    switch (ReadMessage(in, max_message_bytes, &body, &error)) {
      case ReadStatus::kEnd:
        return server->exit_code();
      case ReadStatus::kBadFraming:
        server->BadFraming(error);
        return 1;
      case ReadStatus::kTooLarge:
        server->TooLarge(error);
        break;
      case ReadStatus::kMessage:
        if (!server->Handle(body)) return server->exit_code();
        if (input_waiting && !input_waiting()) server->Flush();
        break;
    }
  }
}

}  // namespace capops::lsp
