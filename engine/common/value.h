// SPDX-License-Identifier: Apache-2.0
// Value: the engine's one representation of data, for facts and results.
//
// A Value is a small handle (16 bytes): scalars are held inline, strings,
// lists and maps are shared immutable heap data with an intrusive reference
// count, so copying a Value never copies a tree. A map keeps its values in
// its own block and its keys in a layout that maps with the same keys in the
// same order share (every allocation of a plan, say): a field is found among
// keys that stay in the cache, and reading it costs one line of the record.
// Values read from YAML carry the location of their text; computed values
// have none. A list whose items are all maps with a string `id` is *keyed*:
// FindById() looks an item up in O(1).
//
// Errors are values too (kind kError), as in CEL: evaluation carries them
// through `&&`, `||` and the macros, and the evaluator reports them with the
// rule that produced them instead of treating them as false.
//
//   Value pools = Value::List({pool_a, pool_b});      // keyed if both have ids
//   const Value* p = pools.FindById("train-eu");
//   std::string s = Value::Int(4).ToString();         // "4"
#pragma once

#include <atomic>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/common/source.h"
#include "engine/common/units.h"

namespace capops {

enum class ValueKind : uint8_t {
  kNull,
  kBool,
  kInt,
  kDouble,
  kString,
  kDate,      // an instant to the second, and how it was written: see DateTime
  kDuration,  // seconds
  kQuantity,  // amount in base units + dimension
  kList,
  kMap,
  kError,
  kNative,  // kept in a form of the evaluator's own: see Value::Native
};

/// A user-facing name of a kind: "int", "string", "list", "bytes" …
const char* KindName(ValueKind kind);

/// A map key: one string per distinct text for the whole process, so keys
/// are a pointer wide and compare by address. Record fields, enum members
/// and the keys of fact maps are few; interning them costs a lookup where
/// a map is built, and saves a string per field of every fact. Texts are
/// never freed: a process that reads an unbounded number of distinct keys
/// grows by each (they are bounded by --max-string-length apiece).
///
///   Key k("pool");                // interned
///   k == Key("pool");             // same address
///   k.str() == "pool";
class Key {
 public:
  Key();  // ""
  explicit Key(std::string_view text);
  Key(const char* text) : Key(std::string_view(text)) {}  // NOLINT: literals as keys
  /// The key of `text` if it was ever interned (`*found` true), else the
  /// empty key with `*found` false. Never interns.
  static Key Find(std::string_view text, bool* found);

  const std::string& str() const { return *text_; }
  operator const std::string&() const { return *text_; }  // NOLINT: a key reads as its text
  operator std::string_view() const { return *text_; }    // NOLINT
  bool empty() const { return text_->empty(); }
  const std::string* address() const { return text_; }

  friend bool operator==(Key a, Key b) { return a.text_ == b.text_; }
  friend bool operator==(Key a, std::string_view b) { return *a.text_ == b; }
  friend bool operator==(Key a, const char* b) { return *a.text_ == b; }
  friend bool operator<(Key a, Key b) { return *a.text_ < *b.text_; }
  friend std::string operator+(const std::string& a, Key b) { return a + *b.text_; }
  friend std::string operator+(Key a, const std::string& b) { return *a.text_ + b; }
  friend std::string operator+(const char* a, Key b) { return a + *b.text_; }
  friend std::string operator+(Key a, const char* b) { return *a.text_ + b; }

 private:
  const std::string* text_;
};

/// Where a field was last found, for Value::Field: the maps one place of a
/// rule reads (every allocation's `pool`, say) mostly keep their fields in
/// the same order, so the position found last is tried first. A plain
/// record of one evaluation (eval::RunState keeps one per expression): it
/// is never shared between threads, and nothing in the maps changes.
struct FieldHint {
  uint32_t at = 0;
};

/// Where FindById last found an item, for FindById(id, hint): its
/// position + 1, 0 for none. Like FieldHint, one evaluation's own record
/// (eval::RunState keeps one per list and id string it looks up).
struct IdHint {
  uint32_t at = 0;
};

class Value;
using MapEntry = std::pair<Key, Value>;
/// What Value::Map() is built from.
using MapEntries = std::vector<MapEntry>;

template <typename T>
class View;
using ListView = View<Value>;
class MapView;

class Value {
 public:
  Value() = default;  // null
  // A copy always holds its own reference, also a copy of a borrowed value.
  Value(const Value& other) : meta_(other.meta_ & ~kBorrowed), u_(other.u_) { Retain(); }
  Value(Value&& other) noexcept : meta_(other.meta_ & ~kBorrowed), u_(other.u_) {
    if (other.borrowed()) Retain();
    other.meta_ &= ~(kKindBits | kBorrowed | kPlain);  // null, with its location
    other.u_.i = 0;
  }
  // Through a temporary: the value assigned may live inside this one's tree.
  Value& operator=(const Value& other) {
    Value copy(other);
    Swap(copy);
    return *this;
  }
  Value& operator=(Value&& other) noexcept {
    Value taken(std::move(other));
    Swap(taken);
    return *this;
  }
  ~Value() { Release(); }

  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Int(int64_t i);
  static Value Double(double d);
  static Value String(std::string_view s);
  /// A string that is the text of a plain (unquoted) YAML scalar of a fact
  /// file, not yet typed: the loader keeps the text the user wrote until
  /// validation types it by the schema (`007` stays "007" in a string
  /// field and is 7 in an int field). It is a kString in every other
  /// respect (equality, text, identity); copies keep the mark. Validation
  /// leaves none in the trees it returns, so nothing evaluated sees one.
  static Value PlainText(std::string_view text);
  /// A date: an instant, and the form it prints in. `t.seconds` must be
  /// within DateTime::kMinSeconds and kMaxSeconds (operators check).
  static Value Date(const DateTime& t);
  static Value Duration(int64_t seconds);
  static Value Quantity(capops::Quantity q);
  /// A list is keyed when every item is a map with a string `id` and no id
  /// repeats; it is indexed by id the first time keyed() or FindById() asks
  /// (safe from several threads at once).
  static Value List(std::vector<Value> items);
  /// Keys keep their order; a repeated key keeps its first value.
  static Value Map(MapEntries entries);
  /// The same, moving the entries out of `*entries`, which is left empty
  /// with its capacity: a loop that builds many maps reuses one buffer.
  static Value MapFrom(MapEntries* entries);
  /// An evaluation error; `fact` is where in the facts it arose, if anywhere.
  static Value Error(std::string message, SourceLoc fact = {});
  /// A value the evaluator keeps in its own form (a timeline as an array of
  /// steps), which stands for an ordinary one (the list of its steps as
  /// maps). Only the functions that know the form read it; everything else
  /// (text, JSON, equality) sees the ordinary value.
  class Native;
  static Value Make(std::unique_ptr<Native> native);
  /// Makes this value `v` without a reference of its own, for a loop
  /// variable bound to each item of a list the loop holds: no atomic count
  /// per item, and no write to facts that other threads read. It must not
  /// be read after `v`'s data is gone; copies of it (and moves from it) are
  /// ordinary, counted Values.
  void Borrow(const Value& v) {
    Release();
    meta_ = v.meta_ | kBorrowed;
    u_ = v.u_;
  }

  ValueKind kind() const { return static_cast<ValueKind>(meta_ & kKindBits); }
  bool is(ValueKind k) const { return kind() == k; }
  bool is_error() const { return is(ValueKind::kError); }
  /// A PlainText: a plain scalar's text, not yet typed.
  bool plain() const { return (meta_ & kPlain) != 0; }
  /// Marks (or unmarks) a string as a PlainText; other kinds never are.
  /// Only the handle changes: the text stays shared with other holders.
  Value& set_plain(bool plain) {
    meta_ = plain && is(ValueKind::kString) ? meta_ | kPlain : meta_ & ~kPlain;
    return *this;
  }
  /// Where the value was read from; invalid for computed values.
  SourceLoc loc() const {
    uint64_t file = meta_ >> kFileShift & kFileBits;
    if (file == kFileBits) return OverflowLoc(meta_ >> kLineShift);
    return SourceLoc{file == 0 ? kNoFile : static_cast<FileId>(file - 1),
                     static_cast<uint32_t>(meta_ >> kLineShift & kLineBits),
                     static_cast<uint32_t>(meta_ >> kColumnShift)};
  }
  Value& set_loc(const SourceLoc& loc) {
    meta_ = (meta_ & kLowBits) | PackLoc(loc);
    return *this;
  }

  bool bool_value() const { return u_.b; }
  int64_t int_value() const { return u_.i; }  // also a duration's seconds
  /// kDate: the instant, and how it was written (its instant is
  /// date_value().seconds, by which dates compare).
  DateTime date_value() const {
    auto code = static_cast<uint16_t>(static_cast<uint64_t>(u_.i) & kDateFormBits);
    return {(u_.i - code) / kDateFormScale, static_cast<int16_t>(code ^ kDateFormFlip)};
  }
  double double_value() const { return u_.d; }
  capops::Quantity quantity_value() const { return {u_.i, dimension()}; }
  std::string_view string_value() const;  // kString and kError (the message)
  ListView items() const;                 // kList
  MapView entries() const;                // kMap
  const Native* native() const;           // kNative, else nullptr

  /// Moves the entries of a map (the items of a list) into `*out` when this
  /// Value is their only holder, leaving it empty; false, and nothing moved,
  /// when they are shared. For a one-pass rewrite of a tree that is being
  /// replaced (validation): the old tree is freed as the new one grows.
  bool TakeEntries(MapEntries* out);
  bool TakeItems(std::vector<Value>* out);

  /// Reading ahead, for loops over facts larger than the cache. Prefetch()
  /// starts reading the first lines of this value's heap data (a record's
  /// header and first entries) and returns at once. PrefetchParts() reads a
  /// map's header, so it waits for it unless Prefetch() was called a while
  /// before, then starts reading the rest of its entries and the first line
  /// of each part kept on the heap (a nested record, a list, a string).
  /// Both are hints: nothing changes, and the CPU may drop them.
  void Prefetch(int lines = 2) const {
    if (!on_heap()) return;
    const char* at = reinterpret_cast<const char*>(u_.heap);
    for (int line = 0; line < lines; ++line) __builtin_prefetch(at + 64 * line);
  }
  void PrefetchParts() const;
  /// On a list: starts reading the item `hint` says FindById found last
  /// (where it will look first), if it names one: its first four lines, a
  /// record of a dozen fields, read whole by a `has()` of a field it lacks.
  void PrefetchItem(const IdHint& hint) const;

  /// Whether two maps have the same keys in the same order, known without
  /// reading them when both share a layout (false for non-maps).
  bool SameKeys(const Value& other) const;

  /// Map field by name, or nullptr.
  const Value* Field(Key name) const;
  /// The same, trying first where `*hint` says the field was last found,
  /// and recording there where it was found.
  const Value* Field(Key name, FieldHint* hint) const;
  const Value* Field(std::string_view name) const;
  const Value* Field(const char* name) const { return Field(std::string_view(name)); }
  /// Keyed list item by id, or nullptr (also for a list that is not keyed).
  const Value* FindById(std::string_view id) const;
  /// The same for a string value, trying first the item at `*hint` and
  /// recording there where the item was found: a lookup made again for the
  /// same id reads neither the index nor the hash of the text.
  const Value* FindById(const Value& id, IdHint* hint) const;
  bool keyed() const;
  /// The `id` of a map, or "".
  std::string_view Id() const;

  /// Text for messages: strings bare, quantities with units, lists as [a, b].
  std::string ToString() const;
  /// Like ToString, but strings quoted (for evidence and traces).
  std::string ToLiteral() const;
  /// At most `max_chars` (> 3) of it, cut with "..." and without rendering
  /// the rest, so a list of 100k facts costs no more than a short one.
  std::string ToLiteral(size_t max_chars) const;

  /// Same identity means same value (not conversely): the shared heap
  /// object of a string, list or map, else the kind and the bits. Valid
  /// while the value lives.
  std::pair<uint64_t, uint64_t> Identity() const {
    if (on_heap()) return {static_cast<uint64_t>(kind()), reinterpret_cast<uintptr_t>(u_.heap)};
    return {static_cast<uint64_t>(kind()) | static_cast<uint64_t>(dimension()) << 8,
            static_cast<uint64_t>(u_.i)};
  }

  /// Structural equality across kinds of the same family (int == double
  /// compares numerically); locations are ignored.
  friend bool operator==(const Value& a, const Value& b);

 private:
  struct Heap {
    std::atomic<uint32_t> refs{1};
  };
  template <typename D, typename T>
  struct Trailing;
  struct StringData;  // kString and kError
  struct ListData;
  struct MapData;

  bool on_heap() const {
    ValueKind k = kind();
    return k == ValueKind::kString || k == ValueKind::kError || k == ValueKind::kList ||
           k == ValueKind::kMap || k == ValueKind::kNative;
  }
  void Retain() const {
    if (on_heap()) u_.heap->refs.fetch_add(1, std::memory_order_relaxed);
  }
  void Release() {
    if (!borrowed() && on_heap() && u_.heap->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      Destroy();
  }
  void Destroy();
  void Swap(Value& other) noexcept {
    std::swap(meta_, other.meta_);
    std::swap(u_, other.u_);
  }

  // The kind, the dimension, whether the value is borrowed (Borrow(): it
  // holds no reference), whether a string is a PlainText and the location
  // share one word. A location takes
  // 56 bits: the file (14), line (26) and column (16). One that does not
  // fit — the 16383rd file of a run, a line past 67 million, a column past
  // 65535 (a long flow-style line) — is kept in a process-wide table, once
  // per distinct location and never freed, and the word holds its index.
  static constexpr uint64_t kKindBits = 0xF;
  static constexpr uint64_t kQuantityPerSecond = 1 << 4;  // else bytes
  static constexpr uint64_t kBorrowed = 1 << 5;
  static constexpr uint64_t kPlain = 1 << 6;  // PlainText: a kString not yet typed
  static constexpr uint64_t kLowBits = 0xFF;
  static constexpr int kFileShift = 8;
  static constexpr uint64_t kFileBits = (1 << 14) - 1;  // all set: the table
  static constexpr int kLineShift = 22;
  static constexpr uint64_t kLineBits = (1 << 26) - 1;
  static constexpr int kColumnShift = 48;
  static constexpr uint64_t kColumnBits = 0xFFFF;
  // A date's payload: its seconds times 2^16, plus its offset as 16 bits
  // with the sign bit flipped (DateTime::kDateOnly is 0).
  static constexpr uint64_t kDateFormBits = 0xFFFF;
  static constexpr int64_t kDateFormScale = int64_t{1} << 16;
  static constexpr uint16_t kDateFormFlip = 0x8000;

  Dimension dimension() const {
    return (meta_ & kQuantityPerSecond) != 0 ? Dimension::kBytesPerSecond : Dimension::kBytes;
  }
  bool borrowed() const { return (meta_ & kBorrowed) != 0; }
  void set_kind(ValueKind k) { meta_ = (meta_ & ~kKindBits) | static_cast<uint64_t>(k); }
  static uint64_t PackLoc(const SourceLoc& loc) {
    uint64_t file = loc.file == kNoFile ? 0 : static_cast<uint64_t>(loc.file) + 1;
    bool fits = file < kFileBits && loc.line <= kLineBits && loc.column <= kColumnBits &&
                (file != 0 || (loc.line == 0 && loc.column == 0));
    if (!fits) return OverflowIndex(loc) << kLineShift | kFileBits << kFileShift;
    return file << kFileShift | static_cast<uint64_t>(loc.line) << kLineShift |
           static_cast<uint64_t>(loc.column) << kColumnShift;
  }
  static uint64_t OverflowIndex(const SourceLoc& loc);
  static SourceLoc OverflowLoc(uint64_t index);

  uint64_t meta_ = 0;  // null, bytes, not borrowed, no location
  union Payload {
    bool b;
    int64_t i;
    double d;
    Heap* heap;  // never null when on_heap()
  } u_{.i = 0};
};

class Value::Native : public Value::Heap {
 public:
  Native() = default;
  Native(const Native&) = delete;
  Native& operator=(const Native&) = delete;
  virtual ~Native() = default;
  /// The ordinary value this one stands for.
  virtual Value Plain() const = 0;
  /// What it is, for messages: "timeline".
  virtual const char* name() const = 0;
};

inline const Value::Native* Value::native() const {
  return is(ValueKind::kNative) ? static_cast<const Native*>(u_.heap) : nullptr;
}

/// The items of a list, as Value::items() gives them: they are stored in the
/// list's own allocation (one cache miss fewer to reach them than through a
/// vector).
template <typename T>
class View {
 public:
  View() = default;
  View(const T* data, size_t size) : data_(data), size_(size) {}
  View(const std::vector<T>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT: a vector is a view
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  std::reverse_iterator<const T*> rbegin() const { return std::reverse_iterator<const T*>(end()); }
  std::reverse_iterator<const T*> rend() const { return std::reverse_iterator<const T*>(begin()); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return data_[i]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

/// The entries of a map, as Value::entries() gives them, or of MapEntries
/// being built: each is a key and a reference to its value.
///
///   for (const auto& [key, value] : map.entries()) ...
class MapView {
 public:
  struct Entry {
    Key first;
    const Value& second;
  };
  class Iterator;

  MapView() = default;
  MapView(const MapEntries& pairs)
      : pairs_(pairs.data()), size_(pairs.size()) {}  // NOLINT: entries are a view
  MapView(const Key* keys, const Value* values, size_t size)
      : keys_(keys), values_(values), size_(size) {}
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Entry operator[](size_t i) const {
    if (pairs_ != nullptr) return {pairs_[i].first, pairs_[i].second};
    return {keys_[i], values_[i]};
  }
  Iterator begin() const;
  Iterator end() const;

 private:
  const MapEntry* pairs_ = nullptr;  // or keys_ and values_
  const Key* keys_ = nullptr;
  const Value* values_ = nullptr;
  size_t size_ = 0;
};

class MapView::Iterator {
 public:
  Iterator(const MapView& view, size_t at) : view_(view), at_(at) {}
  Entry operator*() const { return view_[at_]; }
  Iterator& operator++() {
    ++at_;
    return *this;
  }
  friend bool operator==(const Iterator& a, const Iterator& b) { return a.at_ == b.at_; }
  friend bool operator!=(const Iterator& a, const Iterator& b) { return a.at_ != b.at_; }

 private:
  MapView view_;  // a copy: an iterator outlives the view it came from
  size_t at_;
};

inline MapView::Iterator MapView::begin() const {
  return {*this, 0};
}
inline MapView::Iterator MapView::end() const {
  return {*this, size_};
}

}  // namespace capops
