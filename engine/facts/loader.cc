// The YAML adapter: LoadYaml turns a file's documents into located Values and
// MergeDocuments joins documents of one kind. yaml-cpp is used nowhere else in
// the engine; its exceptions stop here and become diagnostics.
//
// Decisions worth knowing:
//   - In fact documents a plain scalar keeps its text (Value::PlainText) and
//     validation types it by the schema, so `id: 007` stays "007" and
//     `gpus: 007` is 7. In the tool's own files (LoadRawYaml), read without a
//     schema, plain scalars are typed by TypePlainScalar (scalar.h); an
//     integer or a number out of range, or an impossible date, is diagnosed
//     and kept as a string.
//   - A document that hits a limit (depth, value count) is diagnosed and not
//     returned: a truncated tree could make rules pass or fire wrongly. Other
//     value-level problems (duplicate key, bad number) keep the document so
//     that one run reports everything it can.
//   - Values are built from yaml-cpp's parse events (YAML::Parser with an
//     EventHandler), not from YAML::Node trees: no node graph in memory, an
//     alias shares its anchor's Value instead of copying it (the values it
//     stands for still count against `max_nodes`, so an alias bomb is refused
//     at once), and we drive the document loop ourselves, which keeps the
//     documents before a syntax error and stops yaml-cpp 0.7's endless loop
//     on a stray `,` (YAML::LoadAll would allocate until memory runs out).
#include "engine/facts/loader.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <unistd.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cerrno>
#include <istream>
#include <optional>
#include <streambuf>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/facts/scalar.h"

namespace capops::facts {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr const char* kStrTag = "tag:yaml.org,2002:str";
constexpr std::string_view kCoreTagPrefix = "tag:yaml.org,2002:";

// yaml-cpp 0.7 throws at 500 nested nodes (DepthGuard<500>), with a message
// ("bad file") and a place that say little. Our limit stays below it, so the
// limit a user sets is the one that speaks.
constexpr size_t kDepthCap = 400;

constexpr DocumentKind kKinds[] = {DocumentKind::kCapacityPlan, DocumentKind::kInventory};

bool IsContinuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }

// Characters, not bytes, for Diagnostic::length.
uint32_t CharCount(std::string_view text) {
  return static_cast<uint32_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return !IsContinuationByte(static_cast<unsigned char>(c));
  }));
}

Diagnostic& Report(Diagnostics* diags, SourceLoc loc, std::string message, const char* code) {
  Diagnostic& d = diags->Error(loc, std::move(message));
  d.code = code;
  return d;
}

std::string DepthMessage(size_t max_depth) {
  return "nesting deeper than " + std::to_string(max_depth) + " levels";
}

// Turns byte positions (yaml-cpp marks are 0-based and count bytes) into
// 1-based SourceLocs whose columns count characters, as SourceLoc promises.
// A leading BOM is not a column: yaml-cpp skips it and so do editors.
class Locator {
 public:
  // Reads the text only here (for a BOM): after that, a file may have
  // released its text (LoadYamlReleasing); its lines are read back.
  Locator(const SourceFile& file, FileId id)
      : file_(file), id_(id), bom_(file.size() >= kBom.size() && file.Line(1).substr(0, kBom.size()) == kBom),
        ascii_(file.ascii()) {}

  /// The byte a mark points at, or '\0'.
  char CharAt(const YAML::Mark& mark) const {
    if (mark.line < 0 || mark.column < 0) return '\0';
    std::string_view line = file_.Line(static_cast<uint32_t>(mark.line) + 1);
    size_t at = static_cast<size_t>(mark.column) + (mark.line == 0 && bom_ ? kBom.size() : 0);
    return at < line.size() ? line[at] : '\0';
  }

  SourceLoc AtMark(const YAML::Mark& mark) const {
    if (mark.is_null() || mark.line < 0 || mark.column < 0) return SourceLoc{id_, 1, 1};
    // At the end of a text without a final newline, yaml-cpp 0.7 keeps the
    // right `pos` but reports column 0 of the last line (or line 0).
    size_t offset = static_cast<size_t>(mark.pos) + (bom_ ? kBom.size() : 0);
    if (mark.pos >= 0 && offset >= file_.size()) return AtOffset(file_.size());
    return At(static_cast<uint32_t>(mark.line) + 1, static_cast<size_t>(mark.column));
  }

  SourceLoc AtOffset(size_t offset) const {
    SourceLoc loc = file_.Resolve(id_, static_cast<uint32_t>(offset));
    if (bom_ && loc.line == 1 && offset >= kBom.size()) --loc.column;
    return loc;
  }

 private:
  SourceLoc At(uint32_t line, size_t byte_column) const {
    line = std::clamp<uint32_t>(line, 1, std::max<uint32_t>(file_.line_count(), 1));
    if (ascii_) return SourceLoc{id_, line, static_cast<uint32_t>(byte_column) + 1};
    std::string_view text = file_.Line(line);
    if (line == 1 && bom_) text.remove_prefix(std::min(text.size(), kBom.size()));
    // Marks arrive mostly in order, so resume counting where the last call
    // on this line stopped; a long non-ASCII line stays linear.
    if (line != cache_line_ || byte_column < cache_byte_) {
      cache_line_ = line;
      cache_byte_ = 0;
      cache_chars_ = 0;
    }
    for (; cache_byte_ < byte_column; ++cache_byte_) {
      bool continuation = cache_byte_ < text.size() &&
                          IsContinuationByte(static_cast<unsigned char>(text[cache_byte_]));
      if (!continuation) ++cache_chars_;
    }
    return SourceLoc{id_, line, static_cast<uint32_t>(cache_chars_) + 1};
  }

  const SourceFile& file_;
  FileId id_;
  bool bom_;
  bool ascii_;
  mutable uint32_t cache_line_ = 0;
  mutable size_t cache_byte_ = 0;
  mutable size_t cache_chars_ = 0;
};

// A NUL byte or invalid UTF-8 makes the file unreadable as YAML: diagnose the
// first one and refuse the file.
bool CheckText(std::string_view text, const Locator& at, Diagnostics* diags) {
  size_t i = text.substr(0, kBom.size()) == kBom ? kBom.size() : 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0) {
      Report(diags, at.AtOffset(i), "file is not text: NUL byte", "yaml");
      return false;
    }
    size_t length = c < 0x80 ? 1 : capops::Utf8SequenceLength(text, i);
    if (length == 0) {
      Report(diags, at.AtOffset(i), "invalid UTF-8", "yaml").help = "save the file as UTF-8";
      return false;
    }
    i += length;
  }
  return true;
}

// yaml-cpp's scanner tokenizes a whole flow collection before its parser
// checks depth, so 2 MB of `[` costs it half a gigabyte. This cheap upper
// bound on flow nesting (brackets outside comments and quotes) refuses such
// text first; it may over-count brackets in plain scalars, hence the margin.
bool CheckFlowDepth(std::string_view text, const Locator& at, size_t max_depth,
                    Diagnostics* diags) {
  size_t depth = 0;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    char prev = i > 0 ? text[i - 1] : '\n';
    if (quote != 0) {
      if (c == '\\' && quote == '"') {
        ++i;  // an escaped character
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    bool after_space = prev == ' ' || prev == '\t' || prev == '\n' || prev == '\r';
    if (c == '#' && after_space) {
      i = text.find('\n', i);
      if (i == std::string_view::npos) break;
    } else if ((c == '"' || c == '\'') &&
               (after_space || std::string_view("[{,:").find(prev) != std::string_view::npos)) {
      quote = c;
    } else if ((c == '[' || c == '{') && ++depth > kDepthCap) {
      Report(diags, at.AtOffset(i), DepthMessage(max_depth), "yaml");
      return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

std::string ParserMessage(std::string msg) {
  if (!msg.empty() && msg[0] >= 'A' && msg[0] <= 'Z')
    msg[0] = static_cast<char>(msg[0] - 'A' + 'a');
  while (!msg.empty() && msg.back() == '.') msg.pop_back();
  return "invalid YAML: " + msg;
}

// "!!int" for a core-schema tag, the tag itself otherwise.
std::string TagName(const std::string& tag) {
  if (tag.compare(0, kCoreTagPrefix.size(), kCoreTagPrefix) == 0) {
    return "!!" + tag.substr(kCoreTagPrefix.size());
  }
  return tag;
}

// Builds one document's Value tree from yaml-cpp's parse events. Open
// collections wait on an explicit stack, so nothing here recurses. yaml-cpp
// reports an alias as a reference to its anchor: the anchor's finished Value
// is shared, and the values it stands for count again against `max_nodes`.
//
// A rejected key (duplicate, null, a collection) drops its value: the events
// of a dropped subtree are skipped by counting their nesting.
class DocumentBuilder : public YAML::EventHandler {
 public:
  // `keep_text`: plain scalars keep their text (ScalarValue), for fact
  // documents, which validation types by the schema.
  DocumentBuilder(const Locator& at, size_t max_depth, const LoadOptions& options, bool keep_text)
      : at_(at), max_depth_(max_depth), max_nodes_(options.max_nodes),
        max_string_length_(options.max_string_length), keep_text_(keep_text) {}

  /// The root; null for an empty document (a stray `---`) or a stopped one.
  const Value& root() const { return root_; }
  /// True when a limit stopped the document (already diagnosed).
  bool stopped() const { return stopped_; }
  const YAML::Mark& start() const { return start_; }
  /// Problems found in the document's values; kept apart until the parser
  /// has accepted the whole document.
  const Diagnostics& diagnostics() const { return diags_; }

  void OnDocumentStart(const YAML::Mark& mark) override { start_ = mark; }
  void OnDocumentEnd() override {}
  void OnAnchor(const YAML::Mark&, const std::string& name) override { anchor_name_ = name; }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (!AcceptValue(mark, "mapping keys must not be null", false) || !Count(mark, 1)) return;
    Value value;
    value.set_loc(at_.AtMark(mark));
    Deliver(Remember(anchor, std::move(value), 1, 0), mark, 0);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& text) override {
    if (stopped_ || skip_depth_ > 0) return;
    if (ExpectingKey()) return AcceptKey(mark, tag, text);
    if (!AcceptValue(mark, nullptr, false) || !Count(mark, 1)) return;
    if (text.size() > max_string_length_) {
      return Stop(mark, "a value longer than " + std::to_string(max_string_length_) +
                            " bytes (raise it with `--max-string-length`)");
    }
    Deliver(Remember(anchor, TypeScalar(mark, tag, text, NamesItsMap()), 1, 0), mark, 0);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (!AcceptValue(mark, "mapping keys must not be aliases", false)) return;
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      // Either the alias sits inside its own anchor, or the anchor was on a
      // value dropped with a rejected key (already diagnosed).
      if (IsOpen(anchor)) {
        Stop(mark,
             "alias `*" + anchor_names_[anchor] + "` refers to a collection that contains it");
      }
      if (!stopped_ && Count(mark, 1)) Deliver(Value().set_loc(at_.AtMark(mark)), mark, 0);
      return;
    }
    const Anchored& a = it->second;
    if (stack_.size() + a.height > max_depth_) return Stop(mark, DepthMessage(max_depth_));
    if (Count(mark, a.count)) Deliver(a.value, mark, a.height);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    CheckCollectionTag(mark, tag, false);
    Open(mark, anchor, false);
  }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    CheckCollectionTag(mark, tag, true);
    Open(mark, anchor, true);
  }
  void OnSequenceEnd() override { Close(); }
  void OnMapEnd() override { Close(); }

 private:
  struct Frame {
    bool is_map = false;
    SourceLoc loc;
    YAML::anchor_t anchor = YAML::NullAnchor;
    size_t first_node = 0;  // the value count before this collection
    size_t height = 1;      // collection levels at and below this one
    std::vector<Value> items;
    MapEntries entries;
    std::unordered_map<std::string, SourceLoc> keys;
    bool expect_key = true;
    bool drop_value = false;  // the pending key was rejected
    Key key;
    SourceLoc key_loc;
    int key_line = 0;
  };

  struct Anchored {
    Value value;
    size_t count;   // values it stands for
    size_t height;  // collection levels
  };

  bool ExpectingKey() const {
    return !stack_.empty() && stack_.back().is_map && stack_.back().expect_key;
  }

  // False if the node starting at `mark` is not to become a value: the
  // document stopped, a dropped subtree is being skipped, or the node is a
  // map's key (`bad_key` says why it cannot be one) or a rejected key's value.
  // Scalar keys never get here: AcceptKey takes them.
  bool AcceptValue(const YAML::Mark& mark, const char* bad_key, bool collection) {
    if (stopped_) return false;
    if (skip_depth_ > 0) {
      if (collection) ++skip_depth_;
      return false;
    }
    bool bad = ExpectingKey();
    if (bad) Report(&diags_, at_.AtMark(mark), bad_key, "yaml");
    if (!bad && (stack_.empty() || !stack_.back().drop_value)) return true;
    // A scalar is skipped at once, a collection when its end arrives.
    if (collection) {
      skip_depth_ = 1;
    } else {
      Skipped();
    }
    return false;
  }

  // A key or value was dropped: the map moves on to the next slot.
  void Skipped() {
    Frame& f = stack_.back();
    f.drop_value = f.expect_key;
    f.expect_key = !f.expect_key;
  }

  void AcceptKey(const YAML::Mark& mark, const std::string& tag, const std::string& text) {
    Frame& f = stack_.back();
    SourceLoc loc = at_.AtMark(mark);
    f.expect_key = false;
    auto [first, inserted] = f.keys.emplace(text, loc);
    if (!inserted) {
      Diagnostic& d = Report(&diags_, loc, "duplicate key `" + text + "`", "yaml");
      d.help = "the first `" + text + "` is at line " + std::to_string(first->second.line);
      d.related.push_back({first->second, "the first `" + text + "` is here"});
      if (tag == "?") d.length = CharCount(text);  // a quoted key's text is not its source
      f.drop_value = true;
      return;
    }
    f.key = Interned(text);
    f.key_loc = loc;
    f.key_line = mark.line;
  }

  // True when the value about to arrive is its map's `id`.
  bool NamesItsMap() const {
    static const Key kId("id");
    return !stack_.empty() && stack_.back().is_map && stack_.back().key == kId;
  }

  // `own_id`: the text is a fact's own `id`, which its list holds once;
  // sharing is for the references to it.
  // A tag on a collection is never silently dropped: only the core tag of
  // its own kind (`!!map`, `!!seq`) means what the collection already is.
  void CheckCollectionTag(const YAML::Mark& mark, const std::string& tag, bool is_map) {
    if (tag.empty() || tag == "?" || tag == "!") return;
    if (tag == std::string(kCoreTagPrefix) + (is_map ? "map" : "seq")) return;
    Report(&diags_, at_.AtMark(mark),
           "unsupported tag `" + TagName(tag) + "` on a " + (is_map ? "mapping" : "sequence"), "yaml")
        .help = "remove the tag; facts hold plain mappings and sequences";
  }

  Value TypeScalar(const YAML::Mark& mark, const std::string& tag, const std::string& text,
                   bool own_id) {
    SourceLoc loc = at_.AtMark(mark);
    bool plain = tag == "?";
    // `!` is a quoted scalar's tag; any other tag has no meaning here.
    if (!plain && tag != "!" && tag != kStrTag) {
      Report(&diags_, loc, "unsupported tag `" + TagName(tag) + "`", "yaml").help =
          "remove the tag; plain values are typed by their text";
    }
    std::string error;
    Value value = ScalarValue(text, plain, keep_text_, &error);
    if (!error.empty()) Report(&diags_, loc, std::move(error), "yaml").length = CharCount(text);
    bool kept_text = value.plain();
    if (value.is(ValueKind::kString) && !own_id) value = Shared(std::move(value));
    value.set_plain(kept_text);  // the shared text may have been read quoted first
    value.set_loc(loc);
    return value;
  }

  // Keys are interned process-wide (Key); this cache saves the shared lock
  // for the few field names a file repeats.
  Key Interned(const std::string& text) {
    auto it = keys_.find(text);
    if (it != keys_.end()) return it->second;
    Key key(text);
    keys_.emplace(key.str(), key);
    return key;
  }

  // One heap string per distinct short text of the file: ids and names are
  // repeated by every fact that refers to them (an allocation's `demand`,
  // `pool`, regions, enum members), and Values are immutable. A fact's own
  // `id` is not entered: at 100k allocations, their ids would make most of
  // the table and never be shared.
  Value Shared(Value value) {
    static constexpr size_t kLongest = 64;
    std::string_view text = value.string_value();
    if (text.size() > kLongest) return value;
    auto [it, inserted] = strings_.try_emplace(text, value);
    if (inserted) return value;
    return it->second;  // the caller gives it this scalar's location
  }

  void Open(const YAML::Mark& mark, YAML::anchor_t anchor, bool is_map) {
    if (!AcceptValue(mark, "mapping keys must be scalars", true)) return;
    if (stack_.size() + 1 > max_depth_) return Stop(mark, DepthMessage(max_depth_));
    if (!Count(mark, 1)) return;
    Frame& f = stack_.emplace_back();
    f.is_map = is_map;
    f.loc = at_.AtMark(mark);
    f.anchor = anchor;
    f.first_node = nodes_ - 1;
    RememberName(anchor);
  }

  void Close() {
    if (stopped_) return;
    if (skip_depth_ > 0) {
      if (--skip_depth_ == 0 && !stack_.empty()) Skipped();
      return;
    }
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    Value value = f.is_map ? Value::Map(std::move(f.entries)) : Value::List(std::move(f.items));
    value.set_loc(f.loc);
    value = Remember(f.anchor, std::move(value), nodes_ - f.first_node, f.height);
    Deliver(std::move(value), YAML::Mark::null_mark(), f.height);
  }

  // Hands a finished value to the collection that holds it, or makes it the root.
  void Deliver(Value value, const YAML::Mark& mark, size_t height) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return;
    }
    Frame& f = stack_.back();
    f.height = std::max(f.height, height + 1);
    if (!f.is_map) {
      f.items.push_back(std::move(value));
      return;
    }
    // An empty value (`owner:`) is marked at the next token, often on a later
    // line; its key is the better place to point at.
    if (value.is(ValueKind::kNull) && mark.line != f.key_line) value.set_loc(f.key_loc);
    f.entries.emplace_back(std::move(f.key), std::move(value));
    f.expect_key = true;
  }

  Value Remember(YAML::anchor_t anchor, Value value, size_t count, size_t height) {
    if (anchor != YAML::NullAnchor) {
      RememberName(anchor);
      anchors_[anchor] = Anchored{value, count, height};
    }
    return value;
  }

  void RememberName(YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor && !anchor_name_.empty()) {
      anchor_names_[anchor] = std::move(anchor_name_);
      anchor_name_.clear();
    }
  }

  bool IsOpen(YAML::anchor_t anchor) const {
    return std::any_of(stack_.begin(), stack_.end(),
                       [&](const Frame& f) { return f.anchor == anchor; });
  }

  // Adds `n` values to the document's count; false (and stops) past the limit.
  bool Count(const YAML::Mark& mark, size_t n) {
    if (n > max_nodes_ - std::min(nodes_, max_nodes_)) {
      Stop(mark,
           "document expands to more than " + std::to_string(max_nodes_) + " values (aliases?)");
      return false;
    }
    nodes_ += n;
    return true;
  }

  void Stop(const YAML::Mark& mark, std::string message) {
    Report(&diags_, at_.AtMark(mark), std::move(message), "yaml");
    stopped_ = true;
    stack_.clear();
    root_ = Value();
  }

  const Locator& at_;
  size_t max_depth_;
  size_t max_nodes_;
  size_t max_string_length_;
  bool keep_text_;
  Diagnostics diags_;
  YAML::Mark start_ = YAML::Mark::null_mark();
  Value root_;
  std::vector<Frame> stack_;
  std::unordered_map<std::string_view, Value> strings_;  // by text, viewing the Values' own strings
  std::unordered_map<std::string_view, Key> keys_;       // by text, viewing the interned texts
  size_t skip_depth_ = 0;
  size_t nodes_ = 0;
  bool stopped_ = false;
  std::string anchor_name_;  // from OnAnchor, for the node event that follows
  std::unordered_map<YAML::anchor_t, Anchored> anchors_;
  std::unordered_map<YAML::anchor_t, std::string> anchor_names_;
};

bool CheckApiVersion(const Value& root, SourceLoc doc_loc, Diagnostics* diags) {
  const Value* api = root.Field("apiVersion");
  if (api == nullptr) {
    Report(diags, doc_loc, "missing `apiVersion`", "facts").help =
        std::string("add `apiVersion: ") + kApiVersion + "`";
    return false;
  }
  if (api->is(ValueKind::kString) && api->string_value() == kApiVersion) return true;
  Report(diags, api->loc(), "unsupported apiVersion `" + api->ToString() + "`", "facts").help =
      std::string("use `") + kApiVersion + "`";
  return false;
}

bool CheckKind(const Value& root, SourceLoc doc_loc, DocumentKind* kind, Diagnostics* diags) {
  std::string expected;
  std::vector<std::string> names;
  for (DocumentKind k : kKinds) {
    expected += (names.empty() ? "`" : " or `") + std::string(DocumentKindName(k)) + "`";
    names.push_back(DocumentKindName(k));
  }
  const Value* field = root.Field("kind");
  if (field == nullptr) {
    Report(diags, doc_loc, "missing `kind`", "facts").help = "add `kind:` " + expected;
    return false;
  }
  std::string name = field->ToString();
  for (DocumentKind k : kKinds) {
    if (field->is(ValueKind::kString) && name == DocumentKindName(k)) {
      *kind = k;
      return true;
    }
  }
  std::string help = "expected " + expected;
  std::string closest = ClosestName(name, names);
  if (!closest.empty()) help = "did you mean `" + closest + "`? " + help;
  Report(diags, field->loc(), "unknown kind `" + name + "`", "facts").help = std::move(help);
  return false;
}

// Keeps a finished document if it is a map with our apiVersion and a known kind.
void AddDocument(const Value& root, SourceLoc start, LoadResult* result) {
  if (root.is(ValueKind::kNull)) return;  // a stray `---`
  SourceLoc loc = root.loc().valid() ? root.loc() : start;
  if (!root.is(ValueKind::kMap)) {
    Report(&result->diagnostics, loc, "a document must be a mapping with `apiVersion` and `kind`",
           "facts");
    return;
  }
  DocumentKind kind = DocumentKind::kCapacityPlan;
  bool api_ok = CheckApiVersion(root, loc, &result->diagnostics);
  bool kind_ok = CheckKind(root, loc, &kind, &result->diagnostics);
  if (api_ok && kind_ok) result->documents.push_back(Document{kind, root, loc});
}

// Parses the next document into `builder`; false at the end of the text or
// on a syntax error, which is reported.
bool NextDocument(YAML::Parser* parser, const Locator& at, size_t max_depth,
                  DocumentBuilder* builder, Diagnostics* diags) {
  try {
    return parser->HandleNextDocument(*builder);
  } catch (const YAML::DeepRecursion& e) {
    // Our own depth limit is lower: when it fired, it says where.
    if (builder->stopped()) {
      diags->Append(builder->diagnostics());
    } else {
      Report(diags, at.AtMark(e.mark), DepthMessage(max_depth), "yaml");
    }
  } catch (const YAML::Exception& e) {
    // The events before the error may be half a construct: only it counts.
    Report(diags, at.AtMark(e.mark), ParserMessage(e.msg), "yaml");
  }
  return false;
}

// A read-only stream over text the caller keeps: yaml-cpp reads an
// std::istream, and an istringstream would copy the whole file.
class TextBuffer : public std::streambuf {
 public:
  explicit TextBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // the get area is only read
    setg(begin, begin, begin + text.size());
  }
};

// Reads a file on disk for yaml-cpp, which reads an std::istream, in
// blocks: the text is never held whole. Owns the descriptor.
class FileBuffer : public std::streambuf {
 public:
  explicit FileBuffer(int fd) : fd_(fd), block_(1 << 16) {}
  ~FileBuffer() override { ::close(fd_); }
  FileBuffer(const FileBuffer&) = delete;
  FileBuffer& operator=(const FileBuffer&) = delete;

  int fd() const { return fd_; }

 protected:
  int_type underflow() override {
    ssize_t n = 0;
    do {
      n = ::read(fd_, block_.data(), block_.size());
    } while (n < 0 && errno == EINTR);
    if (n <= 0) return traits_type::eof();
    setg(block_.data(), block_.data(), block_.data() + n);
    return traits_type::to_int_type(block_[0]);
  }

 private:
  int fd_;
  std::vector<char> block_;
};

// Feeds yaml-cpp's documents one by one to a DocumentBuilder. Documents
// before a syntax error are kept. With `raw`, every non-empty root goes
// there unchecked instead of becoming a fact Document.
void ParseDocuments(std::streambuf* text, const Locator& at, size_t max_depth,
                    const LoadOptions& options, LoadResult* result, std::vector<Value>* raw) {
  std::istream stream(text);
  YAML::Parser parser(stream);
  int last_start = -1;
  size_t documents = 0;
  while (true) {
    DocumentBuilder builder(at, max_depth, options, raw == nullptr);
    if (!NextDocument(&parser, at, max_depth, &builder, &result->diagnostics)) return;
    // yaml-cpp 0.7 starts a new empty document forever on a token it cannot
    // place (a stray `,`) without consuming it (jbeder/yaml-cpp#1040).
    if (builder.start().pos == last_start) {
      char c = at.CharAt(builder.start());
      Report(&result->diagnostics, at.AtMark(builder.start()),
             c > ' ' && c < 0x7F ? std::string("invalid YAML: unexpected `") + c + "`"
                                 : std::string("invalid YAML: unexpected character"),
             "yaml");
      return;
    }
    last_start = builder.start().pos;
    if (++documents > options.max_documents) {
      Report(&result->diagnostics, at.AtMark(builder.start()),
             "more than " + std::to_string(options.max_documents) + " documents in one file", "yaml")
          .help = "raise the limit with `--max-documents`";
      return;
    }
    result->diagnostics.Append(builder.diagnostics());
    if (builder.stopped()) continue;
    if (raw == nullptr) {
      AddDocument(builder.root(), at.AtMark(builder.start()), result);
    } else if (!builder.root().is(ValueKind::kNull)) {
      raw->push_back(builder.root());
    }
  }
}

}  // namespace

const char* DocumentKindName(DocumentKind kind) {
  switch (kind) {
    case DocumentKind::kCapacityPlan: return "CapacityPlan";
    case DocumentKind::kInventory: return "Inventory";
  }
  return "CapacityPlan";
}

namespace {

// With `releasing`, a file of at least `release_from` bytes gives its text
// back (LoadYamlReleasing).
LoadResult Load(const SourceManager& sources, FileId file, const LoadOptions& options,
                std::vector<Value>* raw, SourceManager* releasing = nullptr,
                size_t release_from = SIZE_MAX) {
  LoadResult result;
  const SourceFile& source = sources.file(file);
  Locator at(source, file);
  size_t max_depth = std::min(options.max_depth, kDepthCap);
  if (source.text().size() > options.max_file_bytes) {
    Diagnostic& d = Report(&result.diagnostics, SourceLoc{file, 1, 1},
                           "file is larger than " + std::to_string(options.max_file_bytes) + " bytes", "yaml");
    d.help = "raise the limit with `--max-file-size`";
    d.length = 1;
    return result;
  }
  bool release = releasing != nullptr && source.size() >= release_from;
  if (CheckText(source.text(), at, &result.diagnostics) &&
      CheckFlowDepth(source.text(), at, max_depth, &result.diagnostics)) {
    // ASCII text is parsed from the file, its text given back first; other
    // text is parsed from memory, since its columns are counted in its lines.
    int fd = release && source.ascii() ? source.OpenUnchanged() : -1;
    if (fd >= 0 && releasing->ReleaseText(file)) {
      FileBuffer from_disk(fd);
      ParseDocuments(&from_disk, at, max_depth, options, &result, raw);
      std::optional<FileStamp> now = StampOf(from_disk.fd());
      if (!now || now != source.stamp()) {
        result.documents.clear();
        Report(&result.diagnostics, SourceLoc{file, 1, 1}, "the file changed while it was read", "yaml").help =
            "lint it again";
      }
    } else {
      if (fd >= 0) ::close(fd);
      TextBuffer in_memory(source.text());
      ParseDocuments(&in_memory, at, max_depth, options, &result, raw);
    }
  }
  if (release) releasing->ReleaseText(file);
  result.diagnostics.Sort();
  return result;
}

}  // namespace

LoadResult LoadYaml(const SourceManager& sources, FileId file, const LoadOptions& options) {
  return Load(sources, file, options, nullptr);
}

LoadResult LoadYamlReleasing(SourceManager* sources, FileId file, const LoadOptions& options,
                             size_t release_from) {
  return Load(*sources, file, options, nullptr, sources, release_from);
}

RawLoadResult LoadRawYaml(const SourceManager& sources, FileId file, const LoadOptions& options) {
  RawLoadResult result;
  result.diagnostics = Load(sources, file, options, &result.documents).diagnostics;
  return result;
}

namespace {

// One top-level field of the merged map.
struct MergedField {
  std::string name;
  Value first;               // the first document's value
  std::vector<Value> items;  // all items, when `first` is a list
  // id → (document index, location of the id) of its first occurrence
  std::unordered_map<std::string, std::pair<size_t, SourceLoc>> ids;
};

// Appends the items of document `doc`'s list; an id already seen in an
// earlier document is diagnosed and its item left out, so the merged list
// stays keyed. Repeats inside one document are the schema's to report.
void AppendItems(MergedField* field, const Value& list, size_t doc, const char* kind,
                 Diagnostics* diags) {
  for (const Value& item : list.items()) {
    std::string_view id = item.Id();
    if (!id.empty()) {
      SourceLoc loc = item.Field("id")->loc();
      auto [seen, inserted] = field->ids.try_emplace(std::string(id), doc, loc);
      if (!inserted && seen->second.first < doc) {
        Diagnostic& d = Report(
            diags, loc, "duplicate id `" + std::string(id) + "` in `" + field->name + "`", "facts");
        d.help = std::string("an id may appear once across all `") + kind + "` documents";
        d.related.push_back({seen->second.second, "the first `" + std::string(id) + "` is here"});
        continue;
      }
    }
    field->items.push_back(item);
  }
}

void ReportShapeClash(const MergedField& field, const Value& value, Diagnostics* diags) {
  std::string message = field.first.is(ValueKind::kList)
                            ? "`" + field.name + "` must be a list, as in an earlier document"
                            : "`" + field.name + "` is a list here but not in an earlier document";
  Diagnostic& d = Report(diags, value.loc(), std::move(message), "facts");
  d.related.push_back({field.first.loc(), "the first `" + field.name + "` is here"});
}

}  // namespace

Value MergeDocuments(const std::vector<const Document*>& documents, Diagnostics* diagnostics) {
  if (documents.empty()) return Value::Map({});
  if (documents.size() == 1) return documents[0]->root;
  const char* kind = DocumentKindName(documents[0]->kind);
  std::vector<MergedField> fields;
  std::unordered_map<std::string, size_t> index;
  for (size_t doc = 0; doc < documents.size(); ++doc) {
    for (const auto& [name, value] : documents[doc]->root.entries()) {
      auto [it, inserted] = index.emplace(name, fields.size());
      if (inserted) fields.push_back(MergedField{name, value, {}, {}});
      MergedField& field = fields[it->second];
      bool first_is_list = field.first.is(ValueKind::kList);
      if (first_is_list != value.is(ValueKind::kList)) {
        ReportShapeClash(field, value, diagnostics);
      } else if (first_is_list) {
        AppendItems(&field, value, doc, kind, diagnostics);
      }
    }
  }
  MapEntries entries;
  entries.reserve(fields.size());
  for (MergedField& field : fields) {
    Value value = field.first;
    if (value.is(ValueKind::kList)) {
      value = Value::List(std::move(field.items));
      value.set_loc(field.first.loc());
    }
    entries.emplace_back(std::move(field.name), std::move(value));
  }
  Value merged = Value::Map(std::move(entries));
  merged.set_loc(documents[0]->root.loc());
  return merged;
}

}  // namespace capops::facts
