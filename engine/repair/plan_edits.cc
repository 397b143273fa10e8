// SPDX-License-Identifier: Apache-2.0
// Edits of YAML text at located values (plan_edits.h). Entry points:
// YamlScalar, ReplaceScalar, AddToList, AddEntry.
#include "engine/repair/plan_edits.h"

namespace capops::repair {

namespace {

std::optional<uint32_t> OffsetOf(std::string_view text, const Value& v) {
  SourceLoc loc = v.loc();
  if (!loc.valid()) return std::nullopt;
  std::optional<uint32_t> at = ByteOffsetAt(text, loc.line, loc.column);
  if (!at || *at >= text.size()) return std::nullopt;
  return at;
}

// Past the quoted scalar opening at `at`, or npos when it does not close
// on its line.
size_t PastQuoted(std::string_view text, size_t at) {
  char quote = text[at];
  for (size_t i = at + 1; i < text.size() && text[i] != '\n'; ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' in a single-quoted scalar
        continue;
      }
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// The `]` or `}` closing the flow collection opening at `at`, or npos.
size_t FlowClose(std::string_view text, size_t at) {
  int depth = 0;
  for (size_t i = at; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      size_t past = PastQuoted(text, i);
      if (past == std::string_view::npos) return past;
      i = past - 1;
    } else if (c == '#' && i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) {
      i = text.find('\n', i);
      if (i == std::string_view::npos) return i;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (--depth == 0) return i;
    }
  }
  return std::string_view::npos;
}

// Where to add to the flow collection closed at `close`: just past its last
// item, and whether it has one.
size_t AfterLast(std::string_view text, size_t close, bool* empty) {
  size_t i = close;
  while (i > 0 &&
         (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r'))
    --i;
  *empty = i > 0 && (text[i - 1] == '[' || text[i - 1] == '{');
  return i;
}

size_t LineStart(std::string_view text, size_t at) {
  size_t nl = text.rfind('\n', at == 0 ? 0 : at - 1);
  return at == 0 || nl == std::string_view::npos ? 0 : nl + 1;
}

size_t LineEnd(std::string_view text, size_t at) {
  size_t nl = text.find('\n', at);
  if (nl == std::string_view::npos) return text.size();
  return nl > 0 && text[nl - 1] == '\r' ? nl - 1 : nl;
}

// An insertion of `what` at `at`, as one replacement.
std::optional<std::vector<Replacement>> Insert(FileId file, std::string_view text, size_t at,
                                               std::string what) {
  std::optional<Replacement> r =
      MakeReplacement(file, text, static_cast<uint32_t>(at), 0, std::move(what));
  if (!r) return std::nullopt;
  return std::vector<Replacement>{std::move(*r)};
}

// `what` as the last item of the flow collection opening at `open`.
std::optional<std::vector<Replacement>> AppendToFlow(FileId file, std::string_view text,
                                                     size_t open, const std::string& what) {
  size_t close = FlowClose(text, open);
  if (close == std::string_view::npos) return std::nullopt;
  bool empty = false;
  size_t after = AfterLast(text, close, &empty);
  return Insert(file, text, after, (empty ? "" : ", ") + what);
}

// What comes before a block item or entry at `at` on its line, when that
// is indentation and item marks (`  - `): as it is for another item of the
// same list (`as_item`: exactly spaces, one `-`, spaces), else with its
// marks turned to spaces (for another key of the same map). nullopt when
// other text comes first.
std::optional<std::string> IndentOf(std::string_view text, size_t at, bool as_item) {
  size_t start = LineStart(text, at);
  std::string_view prefix = text.substr(start, at - start);
  size_t dash = prefix.find_first_not_of(' ');
  if (as_item) {
    if (dash == std::string_view::npos || prefix[dash] != '-' || dash + 1 == prefix.size() ||
        prefix.find_first_not_of(' ', dash + 1) != std::string_view::npos)
      return std::nullopt;
    return std::string(prefix);
  }
  if (prefix.find_first_not_of(" -") != std::string_view::npos) return std::nullopt;
  return std::string(prefix.size(), ' ');
}

}  // namespace

std::string YamlScalar(std::string_view item) {
  bool plain = !item.empty() && item[0] != '-';
  for (char c : item) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.' || c == '/';
    plain = plain && ok;
  }
  if (plain) return std::string(item);
  std::string out = "\"";
  for (char c : item) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::optional<Replacement> ReplaceScalar(FileId file, std::string_view text, const Value& value,
                                         std::string with) {
  std::optional<uint32_t> at = OffsetOf(text, value);
  // A value read through an alias is located at the alias (`*w`): its
  // scalar is written at the anchor, which other facts share.
  if (!at || text[*at] == '*') return std::nullopt;
  size_t end = *at;
  if (text[end] == '"' || text[end] == '\'') {
    end = PastQuoted(text, end);
    if (end == std::string_view::npos) return std::nullopt;
  } else {
    while (end < text.size() &&
           std::string_view(",]}#\n\r\t ").find(text[end]) == std::string_view::npos)
      ++end;
  }
  if (end == *at) return std::nullopt;
  return MakeReplacement(file, text, *at, static_cast<uint32_t>(end - *at), std::move(with));
}

std::optional<std::vector<Replacement>> AddToList(FileId file, std::string_view text,
                                                  const Value& owner, const std::string& key,
                                                  std::string_view item) {
  std::string scalar = YamlScalar(item);
  const Value* list = owner.Field(key);
  // A default the schema filled in is not written anywhere: as if absent.
  if (list != nullptr && (!list->loc().valid() || list->loc() == owner.loc())) list = nullptr;
  if (list != nullptr && list->is(ValueKind::kList)) {
    std::optional<uint32_t> at = OffsetOf(text, *list);
    if (!at) return std::nullopt;
    if (text[*at] == '[') return AppendToFlow(file, text, *at, scalar);
    if (list->items().size() == 0) return std::nullopt;
    std::optional<uint32_t> last = OffsetOf(text, list->items()[list->items().size() - 1]);
    if (!last) return std::nullopt;
    std::optional<std::string> indent = IndentOf(text, *last, /*as_item=*/true);
    if (!indent) return std::nullopt;
    return Insert(file, text, LineEnd(text, *last), "\n" + *indent + scalar);
  }
  if (list != nullptr) return std::nullopt;  // there, but not a list
  return AddEntry(file, text, owner, key, "[" + scalar + "]");
}

std::optional<std::vector<Replacement>> AddEntry(FileId file, std::string_view text,
                                                 const Value& owner, const std::string& key,
                                                 std::string_view value) {
  const Value* there = owner.Field(key);
  if (there != nullptr && there->loc().valid() && !(there->loc() == owner.loc()))
    return std::nullopt;  // written already
  std::optional<uint32_t> at = OffsetOf(text, owner);
  if (!at) return std::nullopt;
  std::string entry = key + ": " + std::string(value);
  if (text[*at] == '{') return AppendToFlow(file, text, *at, entry);
  const Value* id = owner.Field("id");
  std::optional<uint32_t> id_at = id ? OffsetOf(text, *id) : std::nullopt;
  if (!id_at) return std::nullopt;
  // The `id:` key starts the entry's line, after its indentation and item marks.
  size_t start = LineStart(text, *id_at);
  size_t key_at = text.find("id", start);
  if (key_at == std::string_view::npos || key_at > *id_at) return std::nullopt;
  std::optional<std::string> indent = IndentOf(text, key_at, /*as_item=*/false);
  if (!indent) return std::nullopt;
  return Insert(file, text, LineEnd(text, *id_at), "\n" + *indent + entry);
}

}  // namespace capops::repair
