// SPDX-License-Identifier: Apache-2.0
// Fixes from the did-you-means and unit hints of fact-file diagnostics
// (scalar_fix.h). Entry point: AttachScalarFixes.
#include "engine/facts/scalar_fix.h"

#include <map>

#include "engine/facts/locate.h"

namespace capops::facts {

namespace {

// The text between the first pair of backticks at or after `from`.
std::optional<std::string> Ticked(std::string_view text, size_t from) {
  size_t open = text.find('`', from);
  if (open == std::string_view::npos) return std::nullopt;
  size_t close = text.find('`', open + 1);
  if (close == std::string_view::npos || close == open + 1) return std::nullopt;
  return std::string(text.substr(open + 1, close - open - 1));
}

}  // namespace

std::vector<std::string> HelpReplacements(std::string_view help) {
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

std::optional<Replacement> ScalarAt(FileId file, std::string_view text, uint32_t line,
                                    uint32_t column, const std::string& message, std::string* old) {
  std::optional<YamlPoint> point = PointAt(text, line, column);
  if (!point || point->text.empty() || point->begin.line != line ||
      message.find("`" + point->text + "`") == std::string::npos)
    return std::nullopt;
  std::optional<uint32_t> byte = ByteOffsetAt(text, line, point->begin.column);
  if (!byte || *byte >= text.size()) return std::nullopt;
  uint32_t from = *byte;
  size_t to = from + point->text.size();
  if (char quote = text[from]; (quote == '"' || quote == '\'') && point->text[0] != quote) {
    size_t close = text.find(quote, from + 1);
    size_t eol = text.find('\n', from);
    if (close == std::string_view::npos || close > eol) return std::nullopt;  // over lines
    ++from;
    to = close;
  } else if (text.substr(from, point->text.size()) != point->text) {
    return std::nullopt;  // a plain scalar folded over lines, or escapes
  }
  *old = point->text;
  return MakeReplacement(file, text, from, static_cast<uint32_t>(to - from), "");
}

void AttachScalarFixes(const SourceManager& sources, Diagnostics* diags) {
  std::map<FileId, std::optional<std::string>> texts;  // read once per file
  diags->Annotate([&](Diagnostic& d) {
    if (!d.loc.valid() || d.help.empty() || !d.fixes.empty()) return;
    std::vector<std::string> meant = HelpReplacements(d.help);
    if (meant.empty()) return;
    auto [it, fresh] = texts.try_emplace(d.loc.file);
    if (fresh) it->second = sources.file(d.loc.file).ReadText();
    if (!it->second) return;
    std::string old;
    std::optional<Replacement> at =
        ScalarAt(d.loc.file, *it->second, d.loc.line, d.loc.column, d.message, &old);
    if (!at) return;
    for (std::string& text : meant) {
      if (text == old) continue;
      Replacement r = *at;
      r.text = text;
      d.fixes.push_back({"change `" + old + "` to `" + text + "`", {std::move(r)}});
    }
  });
}

}  // namespace capops::facts
