// SPDX-License-Identifier: Apache-2.0
// Quick fixes from the fixes the engine gives diagnostics and findings
// (code_actions.h). Entry points: FixesData, QuickFixes.
#include "engine/lsp/code_actions.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <utility>

#include "engine/lsp/position.h"
#include "engine/lsp/uri.h"

namespace capops::lsp {

using Json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

bool IsCount(const Json& n) {
  return n.is_number_integer() && n.get<int64_t>() >= 0;
}

bool IsPosition(const Json& p) {
  return p.is_object() && IsCount(p.value("line", Json())) && IsCount(p.value("character", Json()));
}

Json PositionOf(const SourceManager& sources, const SourceLoc& loc) {
  std::string line = sources.LineText(loc.file, loc.line).value_or(std::string());
  return {{"line", loc.line - 1}, {"character", Utf16Column(line, loc.column)}};
}

// Whether ranges `a` and `b` meet (touching counts: a cursor at a token's end).
bool Meets(const Json& a, const Json& b) {
  auto before = [](const Json& p, const Json& q) {
    return p["line"] < q["line"] || (p["line"] == q["line"] && p["character"] < q["character"]);
  };
  return !before(a["end"], b["start"]) && !before(b["end"], a["start"]);
}

bool WantsQuickFix(const Json& only) {
  if (!only.is_array()) return true;
  for (const Json& kind : only) {
    // A kind asks for its sub-kinds too: `quickfix` is one of "" and `quickfix`.
    if (kind == "" || kind == "quickfix") return true;
  }
  return false;
}

// A fix of `data.fixes` as FixesData writes it.
bool IsFix(const Json& fix) {
  if (!fix.is_object() || !fix.value("title", Json()).is_string()) return false;
  const Json& changes = fix.value("changes", Json());
  if (!changes.is_object() || changes.empty()) return false;
  for (const auto& [uri, edits] : changes.items()) {
    if (!edits.is_array()) return false;
    for (const Json& e : edits) {
      if (!e.is_object() || !IsRange(e.value("range", Json())) ||
          !e.value("newText", Json()).is_string())
        return false;
    }
  }
  return true;
}

}  // namespace

bool IsRange(const Json& range) {
  return range.is_object() && IsPosition(range.value("start", Json())) &&
         IsPosition(range.value("end", Json()));
}

Json FixesData(const SourceManager& sources, const std::vector<Fix>& fixes) {
  Json out = Json::array();
  for (const Fix& f : fixes) {
    Json changes = Json::object();
    for (const Replacement& r : f.replacements) {
      if (!r.begin.valid() || !r.end.valid()) continue;
      changes[UriOfPath(std::string(sources.Path(r.file)))].push_back(
          {{"range",
            {{"start", PositionOf(sources, r.begin)}, {"end", PositionOf(sources, r.end)}}},
           {"newText", r.text}});
    }
    if (!changes.empty())
      out.push_back({{"title", f.description}, {"changes", std::move(changes)}});
  }
  return out;
}

Json QuickFixes(const std::string& uri, const std::string& path, const Json& diagnostics,
                const Json& range, const Json& only) {
  std::string own = fs::path(path).lexically_normal().string();
  auto key = [&](const std::string& k) {
    std::optional<std::string> p = PathOfUri(k);
    return p && fs::path(*p).lexically_normal().string() == own ? uri : k;
  };
  Json actions = Json::array();
  if (!WantsQuickFix(only) || !diagnostics.is_array()) return actions;
  for (const Json& d : diagnostics) {
    if (!d.is_object()) continue;
    const Json& data = d.value("data", Json::object());
    if (!data.is_object() || !data.value("fixes", Json()).is_array()) continue;
    if (!IsRange(d.value("range", Json())) || !Meets(d["range"], range)) continue;
    const Json& fixes = data["fixes"];
    for (const Json& fix : fixes) {
      if (!IsFix(fix)) continue;
      Json changes = Json::object();
      for (const auto& [file, edits] : fix["changes"].items()) changes[key(file)] = edits;
      // One edit that repairs several findings (a move that clears a pool's
      // overcommitment and its floor) is one action for all of them.
      auto same = std::find_if(actions.begin(), actions.end(), [&](const Json& a) {
        return a["title"] == fix["title"] && a["edit"]["changes"] == changes;
      });
      if (same != actions.end()) {
        (*same)["diagnostics"].push_back(d);
        continue;
      }
      Json action = {{"title", fix["title"]},
                     {"kind", "quickfix"},
                     {"diagnostics", Json::array({d})},
                     {"edit", {{"changes", std::move(changes)}}}};
      if (fixes.size() == 1) action["isPreferred"] = true;
      actions.push_back(std::move(action));
    }
  }
  return actions;
}

}  // namespace capops::lsp
