// SPDX-License-Identifier: Apache-2.0
#include "engine/facts/simple_yaml.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace capops::facts {

namespace {

constexpr size_t kNone = std::string_view::npos;
constexpr size_t kBlock = size_t{1} << 18;  // read from disk at a time
// YAML's implicit keys end within 1024 characters; longer ones go to libfyaml.
constexpr size_t kLongestKey = 1000;

// A key's characters: letters, digits, `_` (and `-`, `.`, `/` after the
// first), and any character beyond ASCII (the line has none that YAML
// readers disagree on: HasOddCharacter).
bool IsKeyStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool IsKeyChar(char c) {
  return IsKeyStart(c) || c == '-' || c == '.' || c == '/';
}
bool IsFlowIndicator(char c) {
  return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}
// YAML's indicators: a plain scalar starts with none of them, but `-`, `?`
// and `:` before a character that can follow them in a plain scalar.
bool IsIndicator(char c) {
  return c != '\0' && std::strchr("-?:,[]{}#&*!|>'\"%@`", c) != nullptr;
}
bool MayStartPlain(std::string_view line, size_t at, bool flow) {
  char c = line[at];
  if (!IsIndicator(c)) return true;
  if (c != '-' && c != '?' && c != ':') return false;
  if (at + 1 >= line.size() || line[at + 1] == ' ') return false;
  return !flow || !IsFlowIndicator(line[at + 1]);
}

// Characters some YAML readers take as line breaks or skip (NEL, LS, PS, a
// BOM): the places after them are counted apart.
bool HasOddCharacter(std::string_view line) {
  for (std::string_view odd : {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xEF\xBB\xBF"}) {
    if (line.find(odd) != kNone) return true;
  }
  return false;
}

// The start of the line after the one starting at `at`; npos at the end.
size_t NextLineStart(std::string_view text, size_t at) {
  size_t end = text.find('\n', at);
  return end == kNone || end + 1 >= text.size() ? kNone : end + 1;
}

// A line's indent, or npos for a blank or comment line.
size_t ContentIndent(std::string_view text, size_t at) {
  size_t i = at;
  while (i < text.size() && text[i] == ' ') ++i;
  if (i >= text.size() || text[i] == '\n' || text[i] == '#') return kNone;
  return i - at;
}

bool IsItemLine(std::string_view text, size_t at, size_t indent) {
  size_t dash = at + indent;
  return dash < text.size() && text[dash] == '-' &&
         (dash + 1 == text.size() || text[dash + 1] == ' ' || text[dash + 1] == '\n');
}

}  // namespace

std::optional<SimpleYamlSplit> FindSimpleSplit(std::string_view text) {
  if (text.size() < 2) return std::nullopt;
  size_t middle = text.rfind('\n', text.size() / 2);
  middle = middle == kNone ? 0 : middle + 1;
  // Back to the top-level key whose value holds the middle.
  size_t key_at = middle;
  while (ContentIndent(text, key_at) != 0) {
    if (key_at == 0) return std::nullopt;
    size_t before = key_at >= 2 ? text.rfind('\n', key_at - 2) : kNone;
    key_at = before == kNone ? 0 : before + 1;
  }
  size_t key_end = key_at;
  if (!IsKeyStart(text[key_end])) return std::nullopt;
  while (key_end < text.size() && IsKeyChar(text[key_end])) ++key_end;
  if (key_end >= text.size() || text[key_end] != ':' || key_end - key_at > kLongestKey)
    return std::nullopt;
  size_t after = key_end + 1;
  while (after < text.size() && text[after] == ' ') ++after;
  if (after < text.size() && text[after] != '\n' && text[after] != '#') return std::nullopt;
  // The column of its items: its first content line's.
  size_t first = NextLineStart(text, key_at);
  while (first != kNone && ContentIndent(text, first) == kNone) first = NextLineStart(text, first);
  if (first == kNone) return std::nullopt;
  size_t indent = ContentIndent(text, first);
  if (!IsItemLine(text, first, indent)) return std::nullopt;
  // Forward from the middle to an item of that sequence.
  for (size_t at = std::max(middle, NextLineStart(text, first)); at != kNone;
       at = NextLineStart(text, at)) {
    size_t here = ContentIndent(text, at);
    if (here == kNone || here > indent) continue;
    if (here < indent || !IsItemLine(text, at, indent)) return std::nullopt;  // the sequence ended
    SimpleYamlSplit split;
    split.offset = at;
    split.line = static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
    split.item_indent = indent;
    split.key = std::string(text.substr(key_at, key_end - key_at));
    return split;
  }
  return std::nullopt;
}

SimpleYamlReader::SimpleYamlReader(std::string_view text, const yaml::Locator& at)
    : at_(at), text_(text) {}

SimpleYamlReader::SimpleYamlReader(int fd, const yaml::Locator& at) : at_(at), fd_(fd) {}

SimpleYamlReader::Step SimpleYamlReader::Next(NodeEvent* event) {
  while (next_item_ >= items_.size()) {
    if (failed_) return Step::kUnsupported;
    if (done_) return Step::kEnd;
    items_.clear();
    next_item_ = 0;
    texts_.clear();
    if (!Fill()) {
      failed_ = true;
      return Step::kUnsupported;
    }
  }
  const Item& item = items_[next_item_++];
  if (item.step == Step::kNode) {
    event->type = item.type;
    event->loc = item.located ? std::optional<SourceLoc>(item.loc) : std::nullopt;
    event->text = item.text;
    event->plain = item.plain;
  }
  return item.step;
}

bool SimpleYamlReader::Fill() {
  while (items_.empty()) {
    std::string_view line;
    if (!NextLine(&line)) {
      if (failed_ || !CloseDocument()) return false;
      done_ = true;
      return true;
    }
    if (!ReadLine(line)) return false;
  }
  return true;
}

void SimpleYamlReader::StopAt(const SimpleYamlSplit& split) {
  end_ = split.offset;
  split_ = &split;
}

void SimpleYamlReader::ResumeAt(const SimpleYamlSplit& split) {
  text_at_ = next_offset_ = split.offset;
  line_number_ = split.line - 1;
  in_document_ = root_done_ = true;
  documents_ = 1;
  stack_ = {Frame{true, 0, false}, Frame{false, split.item_indent, split.item_indent == 0}};
}

bool SimpleYamlReader::NextLine(std::string_view* line) {
  if (next_offset_ >= end_) {
    stopped_between_items_ = SettleBeforeItem(split_->item_indent);
    return false;
  }
  bool read = ReadNextLine(line);
  if (read) next_offset_ += line->size() + 1;
  return read;
}

// Where the first half stops, what the item's line would do before its
// item: end the empty value pending (a sequence's empty item is not read
// simply) and close the collections of the item before. True when that
// leaves one document, its root mapping at column 0 and the key's sequence
// open at the item's column, and no plain scalar the line would continue.
bool SimpleYamlReader::SettleBeforeItem(size_t indent) {
  if (plain_owner_ != kNoOwner && indent > plain_owner_) return false;
  if (pending_ == Pending::kSequenceItem) return false;
  if (pending_ == Pending::kMapValue) {
    if (indent >= stack_.back().indent) return false;
    Empty();
    pending_ = Pending::kNone;
  }
  while (stack_.size() > 2 && stack_.back().indent > indent) Close();
  return documents_ == 1 && in_document_ && stack_.size() == 2 && stack_[0].is_map &&
         stack_[0].indent == 0 && !stack_[1].is_map && stack_[1].indent == indent &&
         stack_[1].indentless == (indent == 0);
}

bool SimpleYamlReader::ReadNextLine(std::string_view* line) {
  if (fd_ < 0) {
    if (text_at_ >= text_.size()) return false;
    size_t end = text_.find('\n', text_at_);
    if (end == kNone) end = text_.size();
    *line = text_.substr(text_at_, end - text_at_);
    text_at_ = end + 1;
    return true;
  }
  size_t from = buffer_at_;
  for (;;) {
    size_t end = buffer_.find('\n', from);
    if (end != kNone || (eof_ && buffer_at_ < buffer_.size())) {
      if (end == kNone) end = buffer_.size();
      *line = std::string_view(buffer_).substr(buffer_at_, end - buffer_at_);
      buffer_at_ = end + 1;
      return true;
    }
    if (eof_) return false;
    buffer_.erase(0, buffer_at_);
    buffer_at_ = 0;
    size_t kept = buffer_.size();
    buffer_.resize(kept + kBlock);
    ssize_t n;
    do {
      n = ::read(fd_, buffer_.data() + kept, kBlock);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      failed_ = true;  // libfyaml reads it again and says what went wrong
      return false;
    }
    buffer_.resize(kept + static_cast<size_t>(n));
    eof_ = n == 0;
    from = kept;
  }
}

bool SimpleYamlReader::ReadLine(std::string_view line) {
  ++line_number_;
  line_ = line;
  ascii_ = true;
  for (char c : line) {
    if (c == '\t' || c == '\r') return false;
    if (static_cast<unsigned char>(c) >= 0x80) ascii_ = false;
  }
  if (!ascii_ && HasOddCharacter(line)) return false;
  size_t indent = line.find_first_not_of(' ');
  if (indent == kNone || line[indent] == '#') return true;  // blank, or a comment
  if (indent == 0) {
    std::string_view head = line.substr(0, 3);
    bool marker = line.size() == 3 || (line.size() > 3 && line[3] == ' ');
    if (head == "---" && marker) {
      if (!RestIsBlank(3) || !CloseDocument()) return false;
      OpenDocument();
      return true;
    }
    if ((head == "..." && marker) || line[0] == '%') return false;
  }
  if (!in_document_) OpenDocument();
  return ReadContent(indent);
}

bool SimpleYamlReader::ReadContent(size_t indent) {
  bool sequence = IsSequenceEntry(indent);
  size_t key_end = sequence ? kNone : KeyEnd(indent);
  bool map = key_end != kNone;
  // A line deeper than a plain scalar's collection continues the scalar.
  if (plain_owner_ != kNoOwner && indent > plain_owner_) return false;
  plain_owner_ = kNoOwner;
  if (pending_ != Pending::kNone) {
    const Frame& top = stack_.back();
    bool nested =
        indent > top.indent || (pending_ == Pending::kMapValue && indent == top.indent && sequence);
    if (nested) {
      if (!sequence && !map) return false;  // a value on a line of its own
      pending_ = Pending::kNone;
      Open(map, indent, indent, indent == top.indent);
    } else {
      // An empty item: libfyaml places it at the last place it marked.
      if (pending_ == Pending::kSequenceItem) return false;
      Empty();
      pending_ = Pending::kNone;
    }
  }
  while (!stack_.empty()) {
    const Frame& top = stack_.back();
    if (indent > top.indent || (indent == top.indent && !(top.indentless && !sequence))) break;
    Close();
  }
  if (stack_.empty()) {
    if (root_done_ || (!sequence && !map)) return false;
    Open(map, indent, indent);
    root_done_ = true;
  }
  const Frame& top = stack_.back();
  if (indent != top.indent || top.is_map != map || (!map && !sequence)) return false;
  return map ? MapEntry(indent, key_end) : SequenceEntry(indent);
}

bool SimpleYamlReader::MapEntry(size_t key_at, size_t key_end) {
  Scalar(key_at, line_.substr(key_at, key_end - key_at), true);
  size_t at = line_.find_first_not_of(' ', key_end + 1);
  if (at == kNone || line_[at] == '#') {
    pending_ = Pending::kMapValue;
    return true;
  }
  return Inline(at, stack_.back().indent);
}

bool SimpleYamlReader::SequenceEntry(size_t dash_at) {
  size_t at = line_.find_first_not_of(' ', dash_at + 1);
  if (at == kNone || line_[at] == '#') {
    pending_ = Pending::kSequenceItem;
    return true;
  }
  if (IsSequenceEntry(at)) return false;  // `- - a`
  size_t key_end = KeyEnd(at);
  if (key_end == kNone) return Inline(at, stack_.back().indent);
  Open(true, at, at);  // `- id: a`: a mapping whose keys line up with `id`
  return MapEntry(at, key_end);
}

bool SimpleYamlReader::Inline(size_t at, size_t owner) {
  char c = line_[at];
  if (c == '[' || c == '{') return Flow(&at, 0) && RestIsBlank(at);
  if (c == '\'' || c == '"') return Quoted(&at) && RestIsBlank(at);
  if (!MayStartPlain(line_, at, false)) return false;
  size_t end = at;
  for (size_t i = at; i < line_.size(); ++i) {
    char ch = line_[i];
    if (ch == ' ') {
      if (i + 1 < line_.size() && line_[i + 1] == '#') break;  // a comment
      continue;
    }
    if (ch == ':' && (i + 1 == line_.size() || line_[i + 1] == ' ')) return false;  // `a: b: c`
    end = i + 1;
  }
  Scalar(at, line_.substr(at, end - at), true);
  plain_owner_ = owner;
  return true;
}

bool SimpleYamlReader::Flow(size_t* at, size_t depth) {
  if (depth >= yaml::kDepthCap) return false;
  bool map = line_[*at] == '{';
  char close = map ? '}' : ']';
  Push(map ? NodeEvent::Type::kMappingStart : NodeEvent::Type::kSequenceStart, At(*at));
  NodeEvent::Type end = map ? NodeEvent::Type::kMappingEnd : NodeEvent::Type::kSequenceEnd;
  auto skip = [&](size_t i) {
    while (i < line_.size() && line_[i] == ' ') ++i;
    return i;
  };
  size_t i = skip(*at + 1);
  if (i < line_.size() && line_[i] == close) {
    Push(end, std::nullopt);
    *at = i + 1;
    return true;
  }
  for (;;) {
    if (map) {
      if (i >= line_.size() || !FlowPlain(&i, true)) return false;
      if (i + 1 >= line_.size() || line_[i] != ':' || line_[i + 1] != ' ') return false;
      i = skip(i + 2);
    }
    if (i >= line_.size()) return false;
    char c = line_[i];
    bool ok = c == '[' || c == '{'    ? Flow(&i, depth + 1)
              : c == '\'' || c == '"' ? Quoted(&i)
                                      : FlowPlain(&i, false);
    if (!ok) return false;
    i = skip(i);
    if (i >= line_.size()) return false;  // the collection goes on on the next line
    if (line_[i] == close) {
      Push(end, std::nullopt);
      *at = i + 1;
      return true;
    }
    if (line_[i] != ',') return false;  // `[a: b]`, a comment, or a stray character
    i = skip(i + 1);
    if (i >= line_.size() || line_[i] == close || line_[i] == ',') return false;
  }
}

bool SimpleYamlReader::FlowPlain(size_t* at, bool key) {
  size_t from = *at;
  if (!MayStartPlain(line_, from, true)) return false;
  size_t end = from, i = from;
  for (; i < line_.size(); ++i) {
    char ch = line_[i];
    if (IsFlowIndicator(ch)) break;
    if (ch == ':' &&
        (i + 1 == line_.size() || line_[i + 1] == ' ' || IsFlowIndicator(line_[i + 1])))
      break;
    if (ch == ' ') {
      if (i + 1 < line_.size() && line_[i + 1] == '#') break;  // a comment: the line ends here
      continue;
    }
    end = i + 1;
  }
  if (key && end - from > kLongestKey) return false;
  Scalar(from, line_.substr(from, end - from), true);
  *at = i;
  return true;
}

bool SimpleYamlReader::Quoted(size_t* at) {
  char quote = line_[*at];
  size_t from = *at + 1, copied = from;
  std::string* unescaped = nullptr;
  for (size_t i = from; i < line_.size(); ++i) {
    char c = line_[i];
    char escaped = 0;
    if (quote == '\'' && c == '\'') {
      if (i + 1 >= line_.size() || line_[i + 1] != '\'') {
        std::string_view text = line_.substr(from, i - from);
        if (unescaped != nullptr) text = unescaped->append(line_.substr(copied, i - copied));
        Scalar(*at, text, false);
        *at = i + 1;
        return true;
      }
      escaped = '\'';
    } else if (quote == '"' && c == '"') {
      std::string_view text = line_.substr(from, i - from);
      if (unescaped != nullptr) text = unescaped->append(line_.substr(copied, i - copied));
      Scalar(*at, text, false);
      *at = i + 1;
      return true;
    } else if (quote == '"' && c == '\\') {
      char next = i + 1 < line_.size() ? line_[i + 1] : '\0';
      if (next != '"' && next != '\\' && next != '/') return false;  // other escapes: libfyaml's
      escaped = next;
    } else {
      continue;
    }
    if (unescaped == nullptr) unescaped = &texts_.emplace_back();
    unescaped->append(line_.substr(copied, i - copied));
    unescaped->push_back(escaped);
    ++i;  // the escape's second character
    copied = i + 1;
  }
  return false;  // closed on a later line
}

bool SimpleYamlReader::RestIsBlank(size_t at) const {
  size_t next = line_.find_first_not_of(' ', at);
  return next == kNone || (line_[next] == '#' && next > at);
}

size_t SimpleYamlReader::KeyEnd(size_t at) const {
  if (!IsKeyStart(line_[at])) return kNone;
  size_t i = at + 1;
  while (i < line_.size() && IsKeyChar(line_[i])) ++i;
  if (i >= line_.size() || line_[i] != ':' || i - at > kLongestKey) return kNone;
  if (i + 1 < line_.size() && line_[i + 1] != ' ') return kNone;
  return i;
}

bool SimpleYamlReader::IsSequenceEntry(size_t at) const {
  return line_[at] == '-' && (at + 1 == line_.size() || line_[at + 1] == ' ');
}

void SimpleYamlReader::OpenDocument() {
  ++documents_;
  in_document_ = true;
  root_done_ = false;
  stack_.clear();
  pending_ = Pending::kNone;
  plain_owner_ = kNoOwner;
  items_.emplace_back().step = Step::kDocumentStart;
}

bool SimpleYamlReader::CloseDocument() {
  if (!in_document_) return true;
  if (pending_ == Pending::kSequenceItem) return false;
  if (pending_ == Pending::kMapValue) Empty();
  pending_ = Pending::kNone;
  while (!stack_.empty()) Close();
  items_.emplace_back().step = Step::kDocumentEnd;
  in_document_ = false;
  return true;
}

void SimpleYamlReader::Open(bool is_map, size_t indent, size_t at, bool indentless) {
  stack_.push_back(Frame{is_map, indent, indentless});
  Push(is_map ? NodeEvent::Type::kMappingStart : NodeEvent::Type::kSequenceStart, At(at));
}

void SimpleYamlReader::Close() {
  Push(stack_.back().is_map ? NodeEvent::Type::kMappingEnd : NodeEvent::Type::kSequenceEnd,
       std::nullopt);
  stack_.pop_back();
}

void SimpleYamlReader::Scalar(size_t at, std::string_view text, bool plain) {
  Push(NodeEvent::Type::kScalar, At(at), text, plain);
}

void SimpleYamlReader::Empty() {
  Push(NodeEvent::Type::kScalar, std::nullopt, {}, true);
}

void SimpleYamlReader::Push(NodeEvent::Type type, std::optional<SourceLoc> loc,
                            std::string_view text, bool plain) {
  Item& item = items_.emplace_back();
  item.type = type;
  item.plain = plain;
  item.located = loc.has_value();
  if (loc) item.loc = *loc;
  item.text = text;
}

SourceLoc SimpleYamlReader::At(size_t offset) const {
  size_t column = offset;
  if (!ascii_) {
    column = 0;
    for (size_t i = 0; i < offset; ++i)
      column += (static_cast<unsigned char>(line_[i]) & 0xC0) != 0x80;
  }
  return at_.At(line_number_, static_cast<int>(column));
}

}  // namespace capops::facts
