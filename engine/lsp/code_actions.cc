// SPDX-License-Identifier: Apache-2.0
// Quick fixes from the did-you-means and unit hints of diagnostics
// (code_actions.h). Entry points: Replacements, QuickFixes.
#include "engine/lsp/code_actions.h"

#include <optional>
#include <utility>

#include "engine/facts/locate.h"
#include "engine/lsp/position.h"

namespace capops::lsp {

using Json = nlohmann::json;

namespace {

// The text between the first pair of backticks at or after `from`.
std::optional<std::string> Ticked(std::string_view text, size_t from) {
  size_t open = text.find('`', from);
  if (open == std::string_view::npos) return std::nullopt;
  size_t close = text.find('`', open + 1);
  if (close == std::string_view::npos || close == open + 1) return std::nullopt;
  return std::string(text.substr(open + 1, close - open - 1));
}

bool IsCount(const Json& n) {
  return n.is_number_integer() && n.get<int64_t>() >= 0;
}

bool IsPosition(const Json& p) {
  return p.is_object() && IsCount(p.value("line", Json())) && IsCount(p.value("character", Json()));
}

// The scalar a diagnostic is about: the one its range starts on (facts::PointAt),
// when its message names it (`slcie`, got `8`), else none: a diagnostic
// placed on a value for a key it could not locate is not fixed in the
// value. The range of its text, between its quotes when it has them;
// `*old` its text.
std::optional<Json> ScalarRange(std::string_view text, const Json& start,
                                const std::string& message, std::string* old) {
  uint64_t line = start["line"].get<uint64_t>(), character = start["character"].get<uint64_t>();
  if (line >= UINT32_MAX || character > UINT32_MAX) return std::nullopt;
  std::optional<std::string_view> l = LineAt(text, static_cast<uint32_t>(line));
  if (!l) return std::nullopt;
  uint32_t row = static_cast<uint32_t>(line) + 1;
  std::optional<facts::YamlPoint> point =
      facts::PointAt(text, row, CharColumn(*l, static_cast<uint32_t>(character)));
  if (!point || point->text.empty() || point->begin.line != row ||
      message.find("`" + point->text + "`") == std::string::npos)
    return std::nullopt;
  uint32_t from = point->begin.column;
  size_t byte = ByteOffset(*l, from);
  if (byte >= l->size()) return std::nullopt;
  uint32_t to = from + CharCount(point->text);
  if (char quote = (*l)[byte]; (quote == '"' || quote == '\'') && point->text[0] != quote) {
    size_t close = l->find(quote, byte + 1);
    if (close == std::string_view::npos) return std::nullopt;  // a quoted scalar over lines
    ++from;
    to = from + CharCount(l->substr(byte + 1, close - byte - 1));
  }
  *old = point->text;
  return Json{{"start", PositionIn(text, row, from)}, {"end", PositionIn(text, row, to)}};
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

}  // namespace

bool IsRange(const Json& range) {
  return range.is_object() && IsPosition(range.value("start", Json())) &&
         IsPosition(range.value("end", Json()));
}

std::vector<std::string> Replacements(std::string_view help) {
  std::vector<std::string> out;
  for (std::string_view lead : {"did you mean ", "write it without spaces: ",
                                "write `T` between the date and the time: "}) {
    size_t at = help.find(lead);
    if (at == std::string_view::npos) continue;
    if (std::optional<std::string> text = Ticked(help, at + lead.size())) out.push_back(*text);
    return out;
  }
  constexpr std::string_view kUnit = "add a unit (";
  if (size_t at = help.find(kUnit); at != std::string_view::npos) {
    // Each ticked text after "e.g.": `8h` or `8d`.
    for (size_t from = help.find("e.g. ", at); from != std::string_view::npos;) {
      size_t open = help.find('`', from);
      std::optional<std::string> text = Ticked(help, from);
      if (!text) break;
      out.push_back(*text);
      from = open + text->size() + 2;
    }
  }
  return out;
}

Json QuickFixes(const std::string& uri, std::string_view text, const Json& diagnostics,
                const Json& range, const Json& only) {
  Json actions = Json::array();
  if (!WantsQuickFix(only) || !diagnostics.is_array()) return actions;
  for (const Json& d : diagnostics) {
    const Json& data = d.value("data", Json::object());
    if (!data.is_object() || !data.value("replacements", Json()).is_array()) continue;
    if (!IsRange(d.value("range", Json())) || !Meets(d["range"], range)) continue;
    std::string old;
    std::optional<Json> at =
        ScalarRange(text, d["range"]["start"], d.value("message", std::string()), &old);
    if (!at) continue;
    const Json& replacements = data["replacements"];
    for (const Json& r : replacements) {
      if (!r.is_string() || r == old) continue;
      Json action = {
          {"title", "change `" + old + "` to `" + r.get<std::string>() + "`"},
          {"kind", "quickfix"},
          {"diagnostics", Json::array({d})},
          {"edit", {{"changes", {{uri, Json::array({{{"range", *at}, {"newText", r}}})}}}}}};
      if (replacements.size() == 1) action["isPreferred"] = true;
      actions.push_back(std::move(action));
    }
  }
  return actions;
}

}  // namespace capops::lsp
