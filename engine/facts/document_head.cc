// SPDX-License-Identifier: Apache-2.0
// ScanHeads (document_head.h): one pass of libfyaml's events over a text,
// looking at the top level of each document only. Deeper levels are
// counted, not read; what is kept is the head being read and the short
// scalars anchored in the current document.
#include "engine/facts/document_head.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "engine/facts/scalar.h"
#include "engine/facts/yaml_events.h"

namespace capops::facts {

namespace {

using yaml::EventSource;
using yaml::TokenText;

constexpr std::string_view kDocumentStart = "--- ";
constexpr std::string_view kCoreNullTag = "tag:yaml.org,2002:null";
// An alias is resolved from the anchors of its document read so far, as
// far as they fit here; past that, a head that needs one is unsure.
constexpr size_t kAnchorBytes = 64 << 10;
constexpr size_t kAnchorText = 1024;  // longer anchored scalars are not kept

// Where a byte of `text` is: lines counted by LF, columns in characters
// after any BOM, as the loader's Locator counts them.
SourceLoc OffsetLoc(std::string_view text, size_t offset, FileId file) {
  offset = std::min(offset, text.size());
  size_t line_start = text.rfind('\n', offset == 0 ? std::string_view::npos : offset - 1);
  line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
  uint32_t line = 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  uint32_t column = 1;
  for (size_t i = line_start; i < offset; ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
  }
  if (line_start == 0 && text.substr(0, yaml::kBom.size()) == yaml::kBom &&
      offset >= yaml::kBom.size())
    --column;
  return SourceLoc{file, line, column};
}

// Where the first document's root starts when it is a flow collection
// (`{` or `[` after blank and comment lines, directives and a bare `---`
// line only): the start of its line; else npos.
size_t FlowRootLine(std::string_view text) {
  size_t i = text.substr(0, yaml::kBom.size()) == yaml::kBom ? yaml::kBom.size() : 0;
  size_t line = i;
  while (i < text.size()) {
    char c = text[i];
    bool starts_line = i == line;
    bool marker = starts_line && text.substr(i, 3) == "---" &&
                  (i + 3 == text.size() ||
                   std::string_view(" \t\r\n").find(text[i + 3]) != std::string_view::npos);
    if (c == ' ' || c == '\t') {
      ++i;
    } else if (marker) {
      i += 3;  // what follows on its line is a comment, or the root itself
    } else if (c == '\n' || c == '\r' || c == '#' || (starts_line && c == '%')) {
      i = text.find('\n', i);
      if (i == std::string_view::npos) return i;
      line = ++i;
    } else {
      return (c == '{' || c == '[') && text.substr(line, 3) != "---" ? line
                                                                     : std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

// What the key being read at the top level names.
enum class Slot { kOther, kApiVersion, kKind, kMerge };

class HeadReader {
 public:
  HeadReader(std::string_view text, FileId file, const LoadOptions& options,
             const std::vector<std::string>& watch,
             const std::function<bool(const DocumentHead&)>& on_head)
      : text_(text),
        file_(file),
        max_depth_(std::min(options.max_depth, yaml::kDepthCap)),
        watch_(watch),
        on_head_(on_head) {}

  std::optional<Diagnostic> Run() {
    // libfyaml holds back every token of a line that opens with a flow
    // collection where a key may start, until it knows whether the
    // collection is a key (`{a: 1}: b`): a one-line JSON file of 8 MB would
    // be held whole, at some 60 bytes a byte. So a first document that is a
    // flow collection is read as if `--- ` began its line, where no key can
    // start; a collection used as a key there is an error, never a pass.
    // After a `---` line of its own, that makes an empty document before
    // it, which has no head.
    std::string prefixed;
    std::string_view input = text_;
    if (size_t line = FlowRootLine(text_); line != std::string_view::npos) {
      prefixed.reserve(text_.size() + kDocumentStart.size());
      prefixed.append(text_.substr(0, line)).append(kDocumentStart).append(text_.substr(line));
      input = prefixed;
      shift_from_ = line;
      shift_line_ = static_cast<int>(std::count(text_.begin(), text_.begin() + line, '\n'));
    }
    EventSource events(input);
    while (fy_event* event = events.Next()) {
      if (const fy_mark* end = fy_event_end_mark(event)) {
        // The text of an event's line is checked before the event is
        // believed: libfyaml stops at a NUL or at some bytes that are not
        // UTF-8 as at the end of the text, and ends what is open there.
        if (size_t at = Offset(end); at >= line_end_) {
          line_end_ = std::min(text_.find('\n', at), text_.size());
          if (std::optional<Diagnostic> bad = CheckText(line_end_)) return bad;
        }
        last_ = Loc(end);
      }
      Take(event);
      if (problem_ || stopped_) return problem_;
    }
    // Bytes that are not text may be why it did not parse: they are said
    // first, as the loader does.
    std::optional<Diagnostic> bad = CheckText(text_.size());
    std::optional<EventSource::Error> error = events.error();
    if (!error || bad) return bad;
    Diagnostic parse;
    parse.code = "yaml";
    parse.message = error->message.empty() ? "invalid YAML: the text cannot be parsed from here"
                                           : yaml::ParserMessage(error->message);
    if (error->message.empty()) {
      parse.loc = last_;
    } else {
      fy_mark mark{};
      mark.line = error->line - 1;
      mark.column = error->column - 1;
      parse.loc = Loc(&mark);
    }
    return parse;
  }

 private:
  struct Anchor {
    bool scalar = false;
    bool kept = false;  // its text is here
    std::string text;
  };

  // A mark in the text read, back in the file's text (Run).
  size_t Offset(const fy_mark* mark) const {
    size_t at = mark->input_pos;
    if (shift_from_ == std::string_view::npos || at < shift_from_) return at;
    return at - std::min(at - shift_from_, kDocumentStart.size());
  }
  SourceLoc Loc(const fy_mark* mark, int back = 0) const {
    int column = mark->column - back;
    if (mark->line == shift_line_) column -= static_cast<int>(kDocumentStart.size());
    return SourceLoc{file_, static_cast<uint32_t>(std::max(mark->line, 0)) + 1,
                     static_cast<uint32_t>(std::max(column, 0)) + 1};
  }

  // A node's first character (yaml::NodeLoc); an empty scalar has no mark
  // and is where the last event ended.
  SourceLoc NodeLoc(fy_event* event) const {
    const fy_mark* mark = fy_event_start_mark(event);
    return mark == nullptr ? last_ : Loc(mark, yaml::MarkLag(event));
  }

  std::optional<Diagnostic> CheckText(size_t to) {
    std::optional<yaml::TextProblem> p = yaml::FirstTextProblem(text_, checked_, to, &checked_);
    if (!p) return std::nullopt;
    Diagnostic d;
    d.code = "yaml";
    d.loc = OffsetLoc(text_, p->offset, file_);
    d.message = std::move(p->message);
    d.help = std::move(p->help);
    return d;
  }

  void Take(fy_event* event) {
    switch (event->type) {
      case FYET_DOCUMENT_START:
        return StartDocument();
      case FYET_SCALAR:
        Remember(event->scalar.anchor, true, TokenText(event->scalar.value));
        return Node(event, false);
      case FYET_ALIAS:
        return Node(event, false);
      case FYET_MAPPING_START:
        Remember(event->mapping_start.anchor, false, "");
        return Node(event, true);
      case FYET_SEQUENCE_START:
        Remember(event->sequence_start.anchor, false, "");
        return Node(event, true);
      case FYET_MAPPING_END:
      case FYET_SEQUENCE_END:
        return Close();
      default:
        return;
    }
  }

  void StartDocument() {
    depth_ = 0;
    root_is_map_ = false;
    head_ = DocumentHead{};
    delivered_ = redelivered_ = merged_ = false;
    expect_key_ = true;
    slot_ = Slot::kOther;
    anchors_.clear();
    anchor_bytes_ = 0;
  }

  // A scalar, an alias or the start of a collection.
  void Node(fy_event* event, bool opens) {
    if (opens && depth_ + 1 > max_depth_) {
      Diagnostic d;
      d.code = "yaml";
      d.loc = NodeLoc(event);
      d.message = yaml::DepthMessage(max_depth_);
      problem_ = std::move(d);
      return;
    }
    if (depth_ == 0) {
      Root(event);
    } else if (depth_ == 1 && root_is_map_) {
      if (expect_key_) {
        Key(event);
      } else {
        Value(event);
      }
      if (!opens) expect_key_ = !expect_key_;  // a collection's slot ends with it
    }
    if (opens) ++depth_;
  }

  void Close() {
    if (depth_ == 0) return;
    --depth_;
    if (depth_ == 1 && root_is_map_) expect_key_ = !expect_key_;
    if (depth_ != 0 || !root_is_map_ || delivered_) return;
    // The top-level mapping ended without both: a merge may have brought
    // what is missing.
    if (merged_) head_.unsure = true;
    Deliver();
  }

  void Root(fy_event* event) {
    head_.loc = NodeLoc(event);
    if (event->type == FYET_MAPPING_START) {
      root_is_map_ = head_.is_map = true;
      return;  // delivered when complete
    }
    if (event->type == FYET_SCALAR) {
      // Null, as the loader types it: plain and untagged (`!` makes a
      // string), or `!!null` in any style.
      std::string_view tag = TokenText(event->scalar.tag);
      bool plain = fy_token_scalar_style(event->scalar.value) == FYSS_PLAIN && tag.empty();
      if ((plain || tag == kCoreNullTag) && IsNullText(TokenText(event->scalar.value)))
        return;  // an empty document
    }
    head_.unsure = event->type == FYET_ALIAS;  // an alias names nothing at the root
    Deliver();
  }

  void Key(fy_event* event) {
    slot_ = Slot::kOther;
    std::string_view key;
    if (event->type == FYET_SCALAR) {
      key = TokenText(event->scalar.value);
      bool plain = fy_token_scalar_style(event->scalar.value) == FYSS_PLAIN &&
                   TokenText(event->scalar.tag).empty();
      if (plain && key == "<<") slot_ = Slot::kMerge;
    } else if (event->type == FYET_ALIAS) {
      // Not a key facts can hold, but it may spell one the head needs.
      const Anchor* a = Find(TokenText(event->alias.anchor));
      if (a == nullptr || !a->kept) return MarkUnsure();
      key = a->text;
    }
    if (key == "apiVersion") slot_ = Slot::kApiVersion;
    if (key == "kind") slot_ = Slot::kKind;
    if (!key.empty() && std::find(watch_.begin(), watch_.end(), key) != watch_.end() &&
        std::find(head_.watched.begin(), head_.watched.end(), key) == head_.watched.end())
      head_.watched.emplace_back(key);
  }

  void Value(fy_event* event) {
    if (slot_ == Slot::kMerge) merged_ = true;
    std::optional<HeadField>* field = slot_ == Slot::kApiVersion ? &head_.api_version
                                      : slot_ == Slot::kKind     ? &head_.kind
                                                                 : nullptr;
    if (field == nullptr) return;
    if (field->has_value()) return MarkUnsure();  // given twice: the first wins, but is it meant?
    HeadField value;
    value.loc = NodeLoc(event);
    if (event->type == FYET_SCALAR) {
      value.text = std::string(TokenText(event->scalar.value));
    } else if (event->type == FYET_ALIAS) {
      const Anchor* a = Find(TokenText(event->alias.anchor));
      if (a == nullptr || (a->scalar && !a->kept)) head_.unsure = true;
      value.scalar = a == nullptr || a->scalar;
      if (a != nullptr && a->kept) value.text = a->text;
    } else {
      value.scalar = false;
    }
    *field = std::move(value);
    if (head_.api_version && head_.kind && !delivered_) Deliver();
  }

  void Remember(fy_token* anchor, bool scalar, std::string_view text) {
    std::string_view name = TokenText(anchor);
    if (name.empty()) return;
    auto it = anchors_.find(std::string(name));
    if (it != anchors_.end()) {
      anchor_bytes_ -= it->first.size() + it->second.text.size();
      anchors_.erase(it);
    }
    bool kept = scalar && text.size() <= kAnchorText;
    size_t bytes = name.size() + (kept ? text.size() : 0);
    // A table that is full forgets the name: an alias to it is then unsure.
    if (anchor_bytes_ + bytes > kAnchorBytes) return;
    anchor_bytes_ += bytes;
    anchors_.emplace(std::string(name), Anchor{scalar, kept, kept ? std::string(text) : ""});
  }

  const Anchor* Find(std::string_view name) const {
    auto it = anchors_.find(std::string(name));
    return it == anchors_.end() ? nullptr : &it->second;
  }

  void MarkUnsure() {
    head_.unsure = true;
    if (!delivered_ || redelivered_) return;
    redelivered_ = true;
    Call();
  }

  void Deliver() {
    delivered_ = true;
    Call();
  }

  void Call() {
    if (!stopped_ && !on_head_(head_)) stopped_ = true;
  }

  std::string_view text_;
  FileId file_;
  size_t max_depth_;
  const std::vector<std::string>& watch_;
  const std::function<bool(const DocumentHead&)>& on_head_;
  size_t shift_from_ = std::string_view::npos;  // where `--- ` was put in, if it was
  int shift_line_ = -1;                         // on which line (0-based)
  size_t checked_ = 0;                          // text_ before this is checked
  size_t line_end_ = 0;                         // the end of the line checked last
  SourceLoc last_{};                            // where the last event ended
  std::optional<Diagnostic> problem_;
  bool stopped_ = false;
  // The document being read.
  size_t depth_ = 0;
  bool root_is_map_ = false;
  DocumentHead head_;
  bool delivered_ = false;
  bool redelivered_ = false;
  bool merged_ = false;     // a top-level `<<`
  bool expect_key_ = true;  // at the top level
  Slot slot_ = Slot::kOther;
  std::unordered_map<std::string, Anchor> anchors_;
  size_t anchor_bytes_ = 0;
};

}  // namespace

std::optional<Diagnostic> ScanHeads(std::string_view text, FileId file, const LoadOptions& options,
                                    const std::vector<std::string>& watch,
                                    const std::function<bool(const DocumentHead&)>& on_head) {
  return HeadReader(text, file, options, watch, on_head).Run();
}

}  // namespace capops::facts
