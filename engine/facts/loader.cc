// SPDX-License-Identifier: Apache-2.0
// The YAML adapter: LoadYaml turns a file's documents into located Values and
// MergeDocuments joins documents of one kind. libfyaml is used nowhere else in
// the engine but engine/facts (through yaml_events.h); its errors stop here and
// become diagnostics. KeyLocator and PointAt, which read a text again for
// places a Value does not keep, are in locate.cc.
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
//   - Values are built from libfyaml's parse events, not from its document
//     trees: no node graph in memory, and we drive the document loop
//     ourselves, which keeps the documents before a syntax error. A file on
//     disk is read through a stream, so its text need not be held whole.
//   - A value reached through an alias (`*x`) is located where it is used,
//     not where its anchor is: two uses are two facts, with their own
//     findings, waivers and baseline entries. Each use is listed in
//     LoadResult::aliases so that messages can point back at the anchor. A
//     field merged in (`<<: *x`) keeps the place where it is written, in the
//     anchor's mapping, which is what its findings point at; each merge of
//     it is listed (LoadResult::merged, ::merges), so that a finding can
//     name the `<<` that brought it into the fact it is about. Only places
//     are listed, never paths or names per value: a merge bomb costs what
//     the values it counts against `max_nodes` cost.
//     The values an alias stands for count again against `max_nodes`, so an
//     alias bomb is refused at once.
//   - Valid YAML that facts cannot hold (a tag of another schema, a
//     collection, alias or null as a key, a cyclic alias) is "not supported
//     in capops facts"; "invalid YAML" is kept for text that is not YAML.
#include "engine/facts/loader.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/common/parallel.h"
#include "engine/facts/node_event.h"
#include "engine/facts/scalar.h"
#include "engine/facts/simple_yaml.h"
#include "engine/facts/yaml_events.h"

namespace capops::facts {

namespace {

using yaml::DepthMessage;
using yaml::EventSource;
using yaml::kDepthCap;
using yaml::Locator;
using yaml::NodeLoc;
using yaml::ParserMessage;
using yaml::TokenText;

constexpr std::string_view kCoreTagPrefix = "tag:yaml.org,2002:";
constexpr std::string_view kMergeKey = "<<";

constexpr DocumentKind kKinds[] = {DocumentKind::kCapacityPlan, DocumentKind::kInventory};

bool IsContinuationByte(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

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

// Valid YAML that a fact tree cannot hold.
Diagnostic& Unsupported(Diagnostics* diags, SourceLoc loc, const std::string& what) {
  return Report(diags, loc, "not supported in capops facts: " + what, "yaml");
}

// A NUL byte, invalid UTF-8 or a lone carriage return makes the file
// unreadable as YAML (FirstTextProblem): diagnose the first one and refuse
// the file.
bool CheckText(std::string_view text, const Locator& at, Diagnostics* diags) {
  std::optional<yaml::TextProblem> problem = yaml::FirstTextProblem(text, 0, text.size());
  if (!problem) return true;
  Report(diags, at.AtOffset(problem->offset), problem->message, "yaml").help = problem->help;
  return false;
}

// A cheap upper bound on flow nesting (brackets outside comments and
// quotes), checked before parsing: megabytes of `[` are refused at once
// instead of being tokenized. It may over-count brackets in plain scalars,
// hence the margin between the user's limit and kDepthCap.
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

// "!!int" for a core-schema tag, the tag itself otherwise.
std::string TagName(std::string_view tag) {
  if (tag.substr(0, kCoreTagPrefix.size()) == kCoreTagPrefix) {
    return "!!" + std::string(tag.substr(kCoreTagPrefix.size()));
  }
  return std::string(tag);
}

// The keys a mapping has so far, for the duplicate-key check. Keys are
// interned, so they compare by address: a mapping's first keys are
// searched in a row, and only a large mapping gets an index.
class MapKeys {
 public:
  /// Adds `key` at `loc`; false and where it was first when it is there.
  std::pair<SourceLoc, bool> Insert(Key key, SourceLoc loc) {
    if (index_.empty()) {
      for (const auto& [seen, at] : keys_) {
        if (seen == key) return {at, false};
      }
    } else if (auto it = index_.find(key.address()); it != index_.end()) {
      return {keys_[it->second].second, false};
    }
    keys_.emplace_back(key, loc);
    if (keys_.size() > kSearched) {
      if (index_.empty()) {
        for (size_t i = 0; i < keys_.size(); ++i) index_.emplace(keys_[i].first.address(), i);
      } else {
        index_.emplace(key.address(), keys_.size() - 1);
      }
    }
    return {loc, true};
  }

 private:
  static constexpr size_t kSearched = 16;
  std::vector<std::pair<Key, SourceLoc>> keys_;
  std::unordered_map<const std::string*, size_t> index_;
};

// Calls `visit` for `root` and each value under it, in document order,
// walked with a stack (a value may be deep).
template <typename Visit>
void ForEachValue(const Value& root, Visit visit) {
  std::vector<const Value*> stack{&root};
  while (!stack.empty()) {
    const Value* value = stack.back();
    stack.pop_back();
    visit(*value);
    if (value->is(ValueKind::kMap)) {
      MapView entries = value->entries();
      for (size_t i = entries.size(); i-- > 0;) stack.push_back(&entries[i].second);
    } else if (value->is(ValueKind::kList)) {
      ListView items = value->items();
      for (size_t i = items.size(); i-- > 0;) stack.push_back(&items[i]);
    }
  }
}

// The file's short string values, each text held once: a table of the
// Values holding them, open-addressed and probed by the text's hash, so
// that a lookup reads one slot (and the text when the hashes agree) rather
// than a bucket, a node and the text.
class SharedStrings {
 public:
  /// The Value already holding `value`'s text, else `value`, now kept.
  Value Share(Value value) {
    std::string_view text = value.string_value();
    uint64_t hash = std::hash<std::string_view>{}(text) | 1;  // 0 marks an empty slot
    if ((count_ + 1) * 4 > slots_.size() * 3) Grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.hash == 0) {
        slot = Slot{hash, value};
        ++count_;
        return value;
      }
      if (slot.hash == hash && slot.value.string_value() == text) return slot.value;
    }
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    Value value;
  };
  void Grow() {
    std::vector<Slot> old =
        std::exchange(slots_, std::vector<Slot>(std::max<size_t>(64, slots_.size() * 2)));
    size_t mask = slots_.size() - 1;
    for (Slot& slot : old) {
      if (slot.hash == 0) continue;
      size_t i = slot.hash & mask;
      while (slots_[i].hash != 0) i = (i + 1) & mask;
      slots_[i] = std::move(slot);
    }
  }
  std::vector<Slot> slots_;
  size_t count_ = 0;
};

// Builds one document's Value tree from a reader's node events. Open
// collections wait on an explicit stack, so nothing here recurses except
// Relocated, bounded by the depth limit.
//
// A rejected key (duplicate, null, a collection) drops its value: the events
// of a dropped subtree are skipped by counting their nesting.
class DocumentBuilder {
 public:
  // `keep_text`: plain scalars keep their text (ScalarValue), for fact
  // documents, which validation types by the schema.
  DocumentBuilder(const Locator& at, size_t max_depth, const LoadOptions& options, bool keep_text)
      : at_(at),
        max_depth_(max_depth),
        max_nodes_(options.max_nodes),
        max_string_length_(options.max_string_length),
        keep_text_(keep_text) {}

  /// Continues a document that another builder began, where the value of
  /// `key` in its root mapping is a sequence, open, between two items (the
  /// second half of a text read in halves).
  void ResumeInSequence(std::string_view key) {
    Frame& root = stack_.emplace_back();
    root.is_map = true;
    root.expect_key = false;
    root.key = Interned(key);
    root.keys.Insert(root.key, SourceLoc{});
    stack_.emplace_back();
  }
  /// The values counted so far (against --max-values).
  size_t nodes() const { return nodes_; }

  /// The root; null for an empty document (a stray `---`) or a stopped one.
  const Value& root() const { return root_; }
  /// True when a limit stopped the document (already diagnosed).
  bool stopped() const { return stopped_; }
  /// Problems found in the document's values; kept apart until the parser
  /// has accepted the whole document.
  const Diagnostics& diagnostics() const { return diags_; }
  /// Where the innermost collection still open starts, if any.
  std::optional<SourceLoc> innermost_open() const {
    if (stack_.empty()) return std::nullopt;
    return stack_.back().loc;
  }
  /// The uses of aliases in the document.
  std::vector<AliasUse>& aliases() { return aliases_; }
  /// The merges by `<<` in the document, and the values they merged in
  /// (indexing merges()).
  std::vector<MergeSite>& merges() { return merges_; }
  std::vector<MergedValue>& merged() { return merged_; }

  /// Takes one node event (scalar, alias, collection start or end).
  void Take(const NodeEvent& event) {
    if (event.loc) last_loc_ = *event.loc;
    switch (event.type) {
      case NodeEvent::Type::kScalar:
        return OnScalar(event);
      case NodeEvent::Type::kAlias:
        return OnAlias(event.text, event.loc.value_or(last_loc_));
      case NodeEvent::Type::kSequenceStart:
        return Open(event, event.loc.value_or(last_loc_), false);
      case NodeEvent::Type::kMappingStart:
        return Open(event, event.loc.value_or(last_loc_), true);
      case NodeEvent::Type::kSequenceEnd:
      case NodeEvent::Type::kMappingEnd:
        return Close();
    }
  }

 private:
  struct Merge {
    Value value;                       // a map or a list of maps
    SourceLoc key;                     // the `<<` entry
    std::string anchor;                // when merged through an alias
    std::vector<std::string> anchors;  // a list's items', when merged through aliases
  };

  struct Frame {
    bool is_map = false;
    SourceLoc loc;
    std::string anchor;
    size_t first_node = 0;  // the value count before this collection
    size_t height = 1;      // collection levels at and below this one
    std::vector<Value> items;
    MapEntries entries;
    MapKeys keys;
    bool expect_key = true;
    bool drop_value = false;   // the pending key was rejected
    bool merge_value = false;  // the pending key is `<<`
    Key key;
    SourceLoc key_loc;
    std::vector<Merge> merges;
    std::vector<std::string> item_anchors;  // a list merged by `<<`: its aliases' anchors
  };

  struct Anchored {
    Value value;
    size_t count;   // values it stands for
    size_t height;  // collection levels
    SourceLoc loc;  // where the anchor is
  };

  bool ExpectingKey() const {
    return !stack_.empty() && stack_.back().is_map && stack_.back().expect_key;
  }

  // False if the node at `loc` is not to become a value: the document
  // stopped, a dropped subtree is being skipped, or the node is a map's key
  // (`bad_key` says why it cannot be one) or a rejected key's value.
  // Scalar keys never get here: AcceptKey takes them.
  bool AcceptValue(SourceLoc loc, const char* bad_key, bool collection) {
    if (stopped_) return false;
    if (skip_depth_ > 0) {
      if (collection) ++skip_depth_;
      return false;
    }
    bool bad = ExpectingKey();
    if (bad) Unsupported(&diags_, loc, bad_key).help = "write the key as a plain or quoted string";
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
    f.merge_value = false;
    f.expect_key = !f.expect_key;
  }

  void OnScalar(const NodeEvent& event) {
    if (stopped_ || skip_depth_ > 0) return;
    const std::optional<SourceLoc>& mark = event.loc;
    std::string_view text = event.text, tag = event.tag, anchor = event.anchor;
    bool plain = event.plain;
    // An empty scalar has no mark: it is where its key is, or where the
    // node before it ended.
    SourceLoc loc = mark.value_or(ExpectingKey() || stack_.empty() || !stack_.back().is_map
                                      ? last_loc_
                                      : stack_.back().key_loc);
    if (ExpectingKey()) {
      if (plain && tag.empty() && IsNullText(text)) {
        AcceptValue(loc, "a null key", false);
        return;
      }
      return AcceptKey(loc, text, plain && tag.empty(), anchor);
    }
    if (!AcceptValue(loc, nullptr, false) || !Count(loc, 1)) return;
    if (text.size() > max_string_length_) {
      return Stop(loc, "a value longer than " + std::to_string(max_string_length_) +
                           " bytes (raise it with `--max-string-length`)");
    }
    Value value = TypeScalar(loc, event.tag_loc.value_or(loc), tag, text, plain, NamesItsMap());
    // An empty value (`owner:`) has no place of its own, or one on a later
    // line; its key is the better place to point at.
    if (!stack_.empty() && stack_.back().is_map && value.is(ValueKind::kNull) &&
        (!mark || mark->line != stack_.back().key_loc.line)) {
      value.set_loc(stack_.back().key_loc);
    }
    Deliver(Remember(anchor, std::move(value), 1, 0), std::nullopt);
  }

  void OnAlias(std::string_view name, SourceLoc loc) {
    if (!AcceptValue(loc, "an alias as a key", false)) return;
    auto it = anchors_.find(std::string(name));
    if (it == anchors_.end()) {
      std::string alias = "`*" + std::string(name) + "`";
      if (IsOpen(name)) {
        Unsupported(&diags_, loc, "alias " + alias + " inside the collection it names").help =
            "facts are trees; a collection cannot contain itself";
        return Stop(loc, "");
      }
      // An anchor on a value dropped with a rejected key was diagnosed there.
      if (dropped_anchors_.count(std::string(name)) == 0) {
        Report(&diags_, loc, "invalid YAML: alias " + alias + " names no anchor before it", "yaml")
            .help = "define `&" + std::string(name) + "` on a value above this one";
      }
      if (!stopped_ && Count(loc, 1)) Deliver(Value().set_loc(loc), std::nullopt);
      return;
    }
    const Anchored& a = it->second;
    if (stack_.size() + a.height > max_depth_) return Stop(loc, DepthMessage(max_depth_));
    if (!Count(loc, a.count)) return;
    // Merged in (`<<: *x`, `<<: [*x, *y]`): where it is written is kept.
    if (!stack_.empty() && stack_.back().merge_value)
      return Deliver(a.value, Merge{a.value, {}, std::string(name), {}});
    if (MergedList()) {
      Frame& list = stack_.back();
      list.item_anchors.resize(list.items.size());
      list.item_anchors.emplace_back(name);
      return Deliver(a.value, std::nullopt);
    }
    aliases_.push_back(AliasUse{loc, a.loc, std::string(name)});
    Deliver(Relocated(a.value, loc), std::nullopt);
  }

  void Open(const NodeEvent& event, SourceLoc loc, bool is_map) {
    if (!AcceptValue(loc, is_map ? "a mapping as a key" : "a sequence as a key", true)) {
      if (!stopped_) Dropped(event.anchor);
      return;
    }
    if (stack_.size() + 1 > max_depth_) return Stop(loc, DepthMessage(max_depth_));
    if (!Count(loc, 1)) return;
    CheckCollectionTag(event.tag_loc.value_or(loc), event.tag, is_map);
    Frame& f = stack_.emplace_back();
    f.is_map = is_map;
    f.loc = loc;
    f.anchor = std::string(event.anchor);
    f.first_node = nodes_ - 1;
  }

  void Close() {
    if (stopped_) return;
    if (skip_depth_ > 0) {
      if (--skip_depth_ == 0 && !stack_.empty()) Skipped();
      return;
    }
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    if (f.is_map) ApplyMerges(&f);
    Value value = f.is_map ? Value::Map(std::move(f.entries)) : Value::List(std::move(f.items));
    value.set_loc(f.loc);
    value = Remember(f.anchor, std::move(value), nodes_ - f.first_node, f.height);
    std::optional<Merge> merge;
    if (!f.item_anchors.empty()) merge = Merge{{}, {}, {}, std::move(f.item_anchors)};
    Deliver(std::move(value), std::move(merge), f.height);
  }

  // The collection open is a list that is the value of a `<<`.
  bool MergedList() const {
    return stack_.size() >= 2 && !stack_.back().is_map && stack_[stack_.size() - 2].merge_value;
  }

  // `<<` entries add the keys of the maps they name that the map does not
  // have: explicit keys win, then earlier merges over later ones. A merged
  // value keeps its place; each is listed with its `<<` entry.
  void ApplyMerges(Frame* f) {
    for (const Merge& merge : f->merges) {
      std::vector<Value> maps;
      std::vector<std::string> names;
      if (merge.value.is(ValueKind::kMap)) {
        maps.push_back(merge.value);
        names.push_back(merge.anchor);
      } else if (merge.value.is(ValueKind::kList)) {
        for (const Value& item : merge.value.items()) maps.push_back(item);
        names = merge.anchors;
        names.resize(maps.size());
      }
      bool all_maps = !maps.empty() || merge.value.is(ValueKind::kList);
      for (const Value& m : maps) all_maps = all_maps && m.is(ValueKind::kMap);
      if (!all_maps) {
        Report(&diags_, merge.key, "`<<` must name a mapping or a list of mappings", "yaml").help =
            "write `<<: *anchor` where `&anchor` is on a mapping";
        continue;
      }
      for (size_t i = 0; i < maps.size(); ++i) {
        merges_.push_back({merge.key, f->loc, maps[i].loc(), names[i]});
        for (const auto& [key, value] : maps[i].entries()) {
          if (!f->keys.Insert(key, merge.key).second) continue;
          f->entries.emplace_back(key, value);
          ForEachValue(value, [&](const Value& v) {
            if (v.loc().valid()) merged_.push_back({v.loc(), merges_.size() - 1});
          });
        }
      }
    }
  }

  void AcceptKey(SourceLoc loc, std::string_view text, bool plain, std::string_view anchor) {
    if (text.size() > max_string_length_) {
      return Stop(loc, "a key longer than " + std::to_string(max_string_length_) +
                           " bytes (raise it with `--max-string-length`)");
    }
    Frame& f = stack_.back();
    f.expect_key = false;
    // An anchored key may be aliased as a value: its text.
    if (!anchor.empty())
      anchors_[std::string(anchor)] = Anchored{Value::String(text).set_loc(loc), 1, 0, loc};
    if (plain && text == kMergeKey) {
      f.merge_value = true;
      f.key_loc = loc;
      return;
    }
    Key key = Interned(text);
    auto [first, inserted] = f.keys.Insert(key, loc);
    if (!inserted) {
      Diagnostic& d = Report(&diags_, loc, "duplicate key `" + key + "`", "yaml");
      d.help = "the first `" + key + "` is at line " + std::to_string(first.line);
      d.related.push_back({first, "the first `" + key + "` is here"});
      if (plain) d.length = CharCount(text);  // a quoted key's text is not its source
      f.drop_value = true;
      return;
    }
    f.key = key;
    f.key_loc = loc;
  }

  // True when the value about to arrive is its map's `id`.
  bool NamesItsMap() const {
    static const Key kId("id");
    return !stack_.empty() && stack_.back().is_map && stack_.back().key == kId;
  }

  // A tag on a collection is never silently dropped: only the core tag of
  // its own kind (`!!map`, `!!seq`) means what the collection already is.
  void CheckCollectionTag(SourceLoc loc, std::string_view tag, bool is_map) {
    if (tag.empty() || tag == "!") return;
    if (tag == std::string(kCoreTagPrefix) + (is_map ? "map" : "seq")) return;
    Unsupported(&diags_, loc,
                "tag `" + TagName(tag) + "` on a " + (is_map ? "mapping" : "sequence"))
        .help = "remove the tag; facts hold plain mappings and sequences";
  }

  // A scalar's value: plain ones keep their text (fact documents) or are
  // typed by it, quoted ones are strings, and the core schema's tags
  // (`!!str`, `!!int` …) are obeyed.
  Value TypeScalar(SourceLoc loc, SourceLoc tag_loc, std::string_view tag, std::string_view text,
                   bool plain, bool own_id) {
    Value value;
    std::string error;
    if (tag.empty() || tag == "!" || tag == std::string(kCoreTagPrefix) + "str") {
      value = ScalarValue(text, plain && tag.empty(), keep_text_, &error);
      if (!error.empty()) Report(&diags_, loc, std::move(error), "yaml").length = CharCount(text);
    } else {
      value = TypeTagged(tag_loc, tag, text);
    }
    bool kept_text = value.plain();
    if (value.is(ValueKind::kString) && !own_id) value = Shared(std::move(value));
    value.set_plain(kept_text);  // the shared text may have been read quoted first
    value.set_loc(loc);
    return value;
  }

  // `!!null`, `!!bool`, `!!int` and `!!float` type the text by the core
  // schema, whatever its style; any other tag has no meaning in facts.
  Value TypeTagged(SourceLoc loc, std::string_view tag, std::string_view text) {
    static const std::pair<std::string_view, ValueKind> kCore[] = {{"null", ValueKind::kNull},
                                                                   {"bool", ValueKind::kBool},
                                                                   {"int", ValueKind::kInt},
                                                                   {"float", ValueKind::kDouble}};
    bool core = tag.substr(0, kCoreTagPrefix.size()) == kCoreTagPrefix;
    for (const auto& [name, kind] : kCore) {
      if (!core || tag.substr(kCoreTagPrefix.size()) != name) continue;
      std::string error;
      Value value = TypePlainScalar(text, &error);
      if (kind == ValueKind::kDouble && value.is(ValueKind::kInt))
        value = Value::Double(static_cast<double>(value.int_value()));
      if (kind == ValueKind::kNull && text.empty()) value = Value();
      if (error.empty() && value.is(kind)) return value;
      Report(&diags_, loc, "`" + std::string(text) + "` is not a valid `" + TagName(tag) + "`",
             "yaml")
          .length = CharCount(text);
      return Value::String(text);
    }
    Unsupported(&diags_, loc, "tag `" + TagName(tag) + "`").help =
        "remove the tag; plain values are typed by their text";
    return Value::String(text);
  }

  // Keys are interned process-wide (Key); this cache saves the shared lock
  // for the few field names a file repeats.
  Key Interned(std::string_view text) {
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
    if (value.string_value().size() > kLongest) return value;
    return strings_.Share(std::move(value));  // the caller gives it this scalar's location
  }

  // A copy of `value` in which it and everything under it is located at
  // `loc`: the use of an alias or a merge. Scalars are shared handles, so
  // only maps and lists are rebuilt; their number is bounded by max_nodes.
  static Value Relocated(const Value& value, SourceLoc loc) {
    Value copy;
    if (value.is(ValueKind::kMap)) {
      MapEntries entries;
      entries.reserve(value.entries().size());
      for (const auto& [key, item] : value.entries())
        entries.emplace_back(key, Relocated(item, loc));
      copy = Value::Map(std::move(entries));
    } else if (value.is(ValueKind::kList)) {
      std::vector<Value> items;
      items.reserve(value.items().size());
      for (const Value& item : value.items()) items.push_back(Relocated(item, loc));
      copy = Value::List(std::move(items));
    } else {
      copy = value;
    }
    copy.set_loc(loc);
    return copy;
  }

  // Hands a finished value to the collection that holds it, or makes it the
  // root. A `<<` entry's value is kept for ApplyMerges.
  void Deliver(Value value, std::optional<Merge> merge, size_t height = 0) {
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
    f.expect_key = true;
    if (f.merge_value) {
      f.merge_value = false;
      Merge m = merge.value_or(Merge{});
      m.value = std::move(value);
      m.key = f.key_loc;
      f.merges.push_back(std::move(m));
      return;
    }
    f.entries.emplace_back(std::move(f.key), std::move(value));
  }

  Value Remember(std::string_view anchor, Value value, size_t count, size_t height) {
    if (!anchor.empty())
      anchors_[std::string(anchor)] = Anchored{value, count, height, value.loc()};
    return value;
  }

  // An anchor on a dropped value: aliases to it are not errors of their own.
  void Dropped(std::string_view anchor) {
    if (anchor.empty()) return;
    anchors_.erase(std::string(anchor));
    dropped_anchors_.insert(std::string(anchor));
  }

  bool IsOpen(std::string_view anchor) const {
    return std::any_of(stack_.begin(), stack_.end(),
                       [&](const Frame& f) { return f.anchor == anchor; });
  }

  // Adds `n` values to the document's count; false (and stops) past the limit.
  bool Count(SourceLoc loc, size_t n) {
    if (n > max_nodes_ - std::min(nodes_, max_nodes_)) {
      Stop(loc,
           "document expands to more than " + std::to_string(max_nodes_) + " values (aliases?)");
      return false;
    }
    nodes_ += n;
    return true;
  }

  // Ends the document with `message` (none when already reported).
  void Stop(SourceLoc loc, std::string message) {
    if (!message.empty()) Report(&diags_, loc, std::move(message), "yaml");
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
  Value root_;
  std::vector<Frame> stack_;
  SharedStrings strings_;
  std::unordered_map<std::string_view, Key> keys_;  // by text, viewing the interned texts
  size_t skip_depth_ = 0;
  size_t nodes_ = 0;
  bool stopped_ = false;
  SourceLoc last_loc_;
  std::unordered_map<std::string, Anchored> anchors_;
  std::unordered_set<std::string> dropped_anchors_;
  std::vector<AliasUse> aliases_;
  std::vector<MergeSite> merges_;
  std::vector<MergedValue> merged_;
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

// libfyaml's node event as the builder takes it; its texts are valid until
// the parser's next event.
NodeEvent ToNodeEvent(const Locator& at, fy_event* event) {
  NodeEvent out;
  out.loc = NodeLoc(at, event);
  fy_token* tag = nullptr;
  switch (event->type) {
    case FYET_SCALAR:
      out.type = NodeEvent::Type::kScalar;
      out.text = TokenText(event->scalar.value);
      out.plain = fy_token_scalar_style(event->scalar.value) == FYSS_PLAIN;
      out.anchor = TokenText(event->scalar.anchor);
      tag = event->scalar.tag;
      break;
    case FYET_ALIAS:
      out.type = NodeEvent::Type::kAlias;
      out.text = TokenText(event->alias.anchor);
      break;
    case FYET_SEQUENCE_START:
      out.type = NodeEvent::Type::kSequenceStart;
      out.anchor = TokenText(event->sequence_start.anchor);
      tag = event->sequence_start.tag;
      break;
    case FYET_MAPPING_START:
      out.type = NodeEvent::Type::kMappingStart;
      out.anchor = TokenText(event->mapping_start.anchor);
      tag = event->mapping_start.tag;
      break;
    case FYET_SEQUENCE_END:
      out.type = NodeEvent::Type::kSequenceEnd;
      break;
    default:
      out.type = NodeEvent::Type::kMappingEnd;
      break;
  }
  out.tag = TokenText(tag);
  if (const fy_mark* mark = tag == nullptr ? nullptr : fy_token_start_mark(tag))
    out.tag_loc = at.At(mark);
  return out;
}

// A file's documents, each built by a DocumentBuilder from a reader's node
// events and kept as it ends (with `raw`, every non-empty root goes there
// unchecked instead of becoming a fact Document).
class DocumentLoop {
 public:
  DocumentLoop(const Locator& at, size_t max_depth, const LoadOptions& options, LoadResult* result,
               std::vector<Value>* raw)
      : at_(at), max_depth_(max_depth), options_(options), result_(result), raw_(raw) {}

  /// A document starts at `start`; false (diagnosed) past --max-documents.
  bool Start(SourceLoc start) {
    start_ = start;
    if (++documents_ > options_.max_documents) {
      Report(&result_->diagnostics, start,
             "more than " + std::to_string(options_.max_documents) + " documents in one file",
             "yaml")
          .help = "raise the limit with `--max-documents`";
      return false;
    }
    builder_.emplace(at_, max_depth_, options_, raw_ == nullptr);
    return true;
  }
  void Take(const NodeEvent& event) {
    if (builder_) builder_->Take(event);
  }
  void End() {
    if (!builder_) return;
    result_->diagnostics.Append(builder_->diagnostics());
    if (!builder_->stopped()) {
      std::vector<AliasUse>& uses = builder_->aliases();
      result_->aliases.insert(result_->aliases.end(), std::make_move_iterator(uses.begin()),
                              std::make_move_iterator(uses.end()));
      for (MergedValue& m : builder_->merged()) {
        m.site += result_->merges.size();
        result_->merged.push_back(m);
      }
      std::vector<MergeSite>& merges = builder_->merges();
      result_->merges.insert(result_->merges.end(), std::make_move_iterator(merges.begin()),
                             std::make_move_iterator(merges.end()));
      if (raw_ == nullptr) {
        AddDocument(builder_->root(), start_, result_);
      } else if (!builder_->root().is(ValueKind::kNull)) {
        raw_->push_back(builder_->root());
      }
    }
    builder_.reset();
  }
  /// Where the innermost collection of the document cut short starts.
  std::optional<SourceLoc> innermost_open() const {
    return builder_ ? builder_->innermost_open() : std::nullopt;
  }

 private:
  const Locator& at_;
  size_t max_depth_;
  const LoadOptions& options_;
  LoadResult* result_;
  std::vector<Value>* raw_;
  std::optional<DocumentBuilder> builder_;
  SourceLoc start_;
  size_t documents_ = 0;
};

// Feeds libfyaml's documents one by one to the loop. Documents before a
// syntax error are kept; the one it interrupts is not (its events may be
// half a construct), and only the error is reported.
void ParseDocuments(EventSource* events, const Locator& at, size_t max_depth,
                    const LoadOptions& options, LoadResult* result, std::vector<Value>* raw) {
  DocumentLoop loop(at, max_depth, options, result, raw);
  SourceLoc last = at.At(0, 0);  // the end of the last event, for an error that has no place
  while (fy_event* event = events->Next()) {
    if (const fy_mark* end = fy_event_end_mark(event)) last = at.At(end);
    switch (event->type) {
      case FYET_DOCUMENT_START:
        if (!loop.Start(at.At(fy_event_start_mark(event)))) return;
        break;
      case FYET_DOCUMENT_END:
        loop.End();
        break;
      case FYET_SCALAR:
      case FYET_ALIAS:
      case FYET_SEQUENCE_START:
      case FYET_MAPPING_START:
      case FYET_SEQUENCE_END:
      case FYET_MAPPING_END:
        loop.Take(ToNodeEvent(at, event));
        break;
      default:
        break;
    }
  }
  if (std::optional<EventSource::Error> error = events->error()) {
    if (error->message.empty()) {
      Report(&result->diagnostics, last, "invalid YAML: the text cannot be parsed from here",
             "yaml");
    } else {
      SourceLoc loc = at.At(error->line - 1, error->column - 1);
      Diagnostic& d = Report(&result->diagnostics, loc, ParserMessage(error->message), "yaml");
      // Cut short: say which collection the end of the text left open.
      std::optional<SourceLoc> open = loop.innermost_open();
      if (open && loc == at.End())
        d.related.push_back({*open, "the file ends before this is closed"});
    }
  }
}

// The document of a text read in halves: the first half's root mapping,
// whose last entry is `key`'s sequence, joined to the second half's, whose
// first entry is the rest of it. Nullopt when they do not join as one
// reading would have built them (a key in both: read whole, it is a
// duplicate to report).
std::optional<Value> JoinHalves(const Value& first, const Value& second, std::string_view key) {
  MapView a = first.entries(), b = second.entries();
  if (a.empty() || b.empty()) return std::nullopt;
  MapView::Entry a_last = a[a.size() - 1], b_first = b[0];
  if (a_last.first != key || b_first.first != key || !a_last.second.is(ValueKind::kList) ||
      !b_first.second.is(ValueKind::kList))
    return std::nullopt;
  for (size_t j = 1; j < b.size(); ++j) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].first == b[j].first) return std::nullopt;
    }
  }
  std::vector<Value> items;
  items.reserve(a_last.second.items().size() + b_first.second.items().size());
  for (const Value* list : {&a_last.second, &b_first.second}) {
    for (const Value& item : list->items()) items.push_back(item);
  }
  Value joined = Value::List(std::move(items));
  joined.set_loc(a_last.second.loc());
  MapEntries entries;
  entries.reserve(a.size() + b.size() - 1);
  for (size_t i = 0; i + 1 < a.size(); ++i) entries.emplace_back(a[i].first, a[i].second);
  entries.emplace_back(a_last.first, std::move(joined));
  for (size_t j = 1; j < b.size(); ++j) entries.emplace_back(b[j].first, b[j].second);
  Value root = Value::Map(std::move(entries));
  root.set_loc(first.loc());
  return root;
}

// Where a simple reader reads from: text in memory, or a file descriptor.
struct ReaderInput {
  std::string_view text;
  int fd = -1;
};

// A text of one document read by the simple reader in two halves at once,
// split at `split`: each half is built apart and the two roots joined. False
// when that is not exactly what one reading would give — a half outside
// the subset, the split not where the first half's reading ends, a
// diagnostic or a limit, a key in both — and `*result` is untouched: the
// caller reads the text whole.
bool ReadInHalves(ReaderInput first, ReaderInput second, const SimpleYamlSplit& split,
                  const Locator& at, size_t max_depth, const LoadOptions& options,
                  LoadResult* result) {
  struct Half {
    std::optional<DocumentBuilder> builder;
    bool ok = false;
  };
  Half halves[2];
  ReaderInput inputs[2] = {first, second};
  ParallelFor(2, 2, [&](size_t h) {
    Half& half = halves[h];
    const ReaderInput& in = inputs[h];
    SimpleYamlReader reader =
        in.fd >= 0 ? SimpleYamlReader(in.fd, at) : SimpleYamlReader(in.text, at);
    DocumentBuilder& builder = half.builder.emplace(at, max_depth, options, true);
    if (h == 0) {
      reader.StopAt(split);
    } else {
      reader.ResumeAt(split);
      builder.ResumeInSequence(split.key);
    }
    NodeEvent event;
    for (;;) {
      SimpleYamlReader::Step step = reader.Next(&event);
      if (step == SimpleYamlReader::Step::kNode) {
        builder.Take(event);
      } else if (step == SimpleYamlReader::Step::kEnd) {
        half.ok = h == 1 || reader.StoppedBetweenItems();
        break;
      } else if (step == SimpleYamlReader::Step::kUnsupported ||
                 (step == SimpleYamlReader::Step::kDocumentStart && h == 1)) {
        break;
      }
    }
    half.ok = half.ok && !builder.stopped() && builder.diagnostics().empty();
  });
  if (!halves[0].ok || !halves[1].ok) return false;
  if (halves[0].builder->nodes() + halves[1].builder->nodes() > options.max_nodes) return false;
  std::optional<Value> root =
      JoinHalves(halves[0].builder->root(), halves[1].builder->root(), split.key);
  if (!root) return false;
  AddDocument(*root, at.At(0, 0), result);
  result->reader = YamlReader::kSimple;
  result->halves = true;
  return true;
}

// The simple reader's documents, fed to the loop as libfyaml's are; false
// when the text is not in its subset (or has more documents than allowed),
// `*result` and `*raw` then emptied again: libfyaml reads the text.
bool ReadSimply(ReaderInput input, const Locator& at, size_t max_depth, const LoadOptions& options,
                LoadResult* result, std::vector<Value>* raw) {
  SimpleYamlReader reader =
      input.fd >= 0 ? SimpleYamlReader(input.fd, at) : SimpleYamlReader(input.text, at);
  DocumentLoop loop(at, max_depth, options, result, raw);
  NodeEvent event;
  for (;;) {
    switch (reader.Next(&event)) {
      case SimpleYamlReader::Step::kDocumentStart:
        if (loop.Start(at.At(0, 0))) break;
        *result = LoadResult();
        if (raw != nullptr) raw->clear();
        return false;
      case SimpleYamlReader::Step::kNode:
        loop.Take(event);
        break;
      case SimpleYamlReader::Step::kDocumentEnd:
        loop.End();
        break;
      case SimpleYamlReader::Step::kEnd:
        result->reader = YamlReader::kSimple;
        return true;
      case SimpleYamlReader::Step::kUnsupported:
        *result = LoadResult();
        if (raw != nullptr) raw->clear();
        return false;
    }
  }
}

}  // namespace

const char* DocumentKindName(DocumentKind kind) {
  switch (kind) {
    case DocumentKind::kCapacityPlan:
      return "CapacityPlan";
    case DocumentKind::kInventory:
      return "Inventory";
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
    Diagnostic& d =
        Report(&result.diagnostics, SourceLoc{file, 1, 1},
               "file is larger than " + std::to_string(options.max_file_bytes) + " bytes", "yaml");
    d.help = "raise the limit with `--max-file-size`";
    d.length = 1;
    return result;
  }
  bool release = releasing != nullptr && source.size() >= release_from;
  if (CheckText(source.text(), at, &result.diagnostics) &&
      CheckFlowDepth(source.text(), at, max_depth, &result.diagnostics)) {
    // A file that can be read back is parsed from disk, its text given back
    // first, so the text and the Values made from it are never held together.
    std::optional<SimpleYamlSplit> split;
    if (options.simple_reader && raw == nullptr && source.text().size() >= options.halves_from)
      split = FindSimpleSplit(source.text());
    int fd = release ? source.OpenUnchanged() : -1;
    if (fd >= 0 && releasing->ReleaseText(file)) {
      bool simple = false, rewound = true;
      if (options.simple_reader) {
        int second = split ? source.OpenUnchanged() : -1;
        if (second >= 0 && ::lseek(second, static_cast<off_t>(split->offset), SEEK_SET) >= 0)
          simple = ReadInHalves({{}, fd}, {{}, second}, *split, at, max_depth, options, &result);
        if (second >= 0) ::close(second);
        if (!simple) rewound = ::lseek(fd, 0, SEEK_SET) == 0;
        if (!simple && rewound) simple = ReadSimply({{}, fd}, at, max_depth, options, &result, raw);
        if (!simple && rewound) rewound = ::lseek(fd, 0, SEEK_SET) == 0;
      }
      EventSource from_disk(fd);
      if (!rewound) {
        Report(&result.diagnostics, SourceLoc{file, 1, 1},
               "the file cannot be read again from its start", "yaml")
            .help = "lint it again";
      } else if (!simple) {
        ParseDocuments(&from_disk, at, max_depth, options, &result, raw);
      }
      std::optional<FileStamp> now = from_disk.fd() >= 0 ? StampOf(from_disk.fd()) : std::nullopt;
      if (!now || now != source.stamp()) {
        result.documents.clear();
        Report(&result.diagnostics, SourceLoc{file, 1, 1}, "the file changed while it was read",
               "yaml")
            .help = "lint it again";
      }
    } else {
      if (fd >= 0) ::close(fd);
      bool simple = false;
      if (options.simple_reader) {
        ReaderInput text{source.text()};
        if (split) simple = ReadInHalves(text, text, *split, at, max_depth, options, &result);
        if (!simple) simple = ReadSimply(text, at, max_depth, options, &result, raw);
      }
      if (!simple) {
        EventSource in_memory(source.text());
        ParseDocuments(&in_memory, at, max_depth, options, &result, raw);
      }
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
