// SPDX-License-Identifier: Apache-2.0
// Value construction, keyed lookup, equality and printing.
#include "engine/common/value.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <unordered_map>

namespace capops {

static_assert(sizeof(Value) == 16, "a Value is a word of kind and location, and one of payload");

// The characters follow the header in the same allocation: an id of up to
// 11 characters takes a 32-byte block, one fewer than a std::string needs
// for its own header.
struct Value::StringData : Heap {
  uint32_t size = 0;

  std::string_view text() const { return {reinterpret_cast<const char*>(this + 1), size}; }

  static StringData* Make(std::string_view text) {
    if (text.size() >= UINT32_MAX) throw std::length_error("a string of 4 GiB or more");
    void* memory = ::operator new(sizeof(StringData) + text.size() + 1);
    auto* d = new (memory) StringData;
    d->size = static_cast<uint32_t>(text.size());
    char* chars = reinterpret_cast<char*>(d + 1);
    if (!text.empty())
      std::memcpy(chars, text.data(), text.size());  // an empty view may have no data
    chars[text.size()] = '\0';
    return d;
  }
  static void Free(StringData* d) {
    d->~StringData();
    ::operator delete(d);
  }
};

namespace {
// Every key's text, never freed: addresses stay valid for the process.
struct Interned {
  std::shared_mutex mutex;
  std::unordered_map<std::string_view, std::unique_ptr<const std::string>> texts;
};

Interned& Table() {
  static Interned* table = new Interned;  // outlives every static Value
  return *table;
}

// The interned text equal to `text`, or null.
const std::string* Lookup(std::string_view text) {
  Interned& t = Table();
  std::shared_lock lock(t.mutex);
  auto it = t.texts.find(text);
  return it == t.texts.end() ? nullptr : it->second.get();
}

const std::string* Intern(std::string_view text) {
  if (const std::string* found = Lookup(text)) return found;
  Interned& t = Table();
  std::unique_lock lock(t.mutex);
  auto it = t.texts.find(text);
  if (it != t.texts.end()) return it->second.get();
  auto owned = std::make_unique<const std::string>(text);
  const std::string* address = owned.get();
  t.texts.emplace(*address, std::move(owned));
  return address;
}

// Locations too large for a Value's word (Value::PackLoc), each kept once.
struct OverflowLocs {
  struct Hash {
    size_t operator()(const SourceLoc& l) const {
      return std::hash<uint64_t>()((static_cast<uint64_t>(l.file) << 32 | l.line) * 31 + l.column);
    }
  };
  std::mutex mutex;
  std::deque<SourceLoc> locs;
  std::unordered_map<SourceLoc, uint64_t, Hash> index;
};

OverflowLocs& Overflow() {
  static OverflowLocs* table = new OverflowLocs;  // outlives every static Value
  return *table;
}

const std::string* EmptyText() {
  static const std::string* empty = Intern("");
  return empty;
}

Key IdKey() {
  static const Key id("id");
  return id;
}
}  // namespace

Key::Key() : text_(EmptyText()) {}

Key::Key(std::string_view text) : text_(text.empty() ? EmptyText() : Intern(text)) {}

Key Key::Find(std::string_view text, bool* found) {
  Key key;
  const std::string* interned = Lookup(text);
  *found = interned != nullptr;
  if (*found) key.text_ = interned;
  return key;
}

// The keys of a large map by address: open addressing over positions, the
// key compared at its place in the layout (keys are interned: one pointer
// compare). A lookup costs a slot and a key, where a node-based map cost a
// bucket, a node and a division.
class KeyPositions {
 public:
  explicit KeyPositions(size_t n) {
    size_t capacity = 4;
    while (capacity < n * 2) capacity *= 2;
    slots_.assign(capacity, 0);
    mask_ = capacity - 1;
  }
  // Records `key` at `position` unless the keys before it already hold it.
  bool Insert(const Key* keys, Key key, uint32_t position) {
    size_t at = Probe(keys, key);
    if (slots_[at] != 0) return false;
    slots_[at] = position + 1;
    return true;
  }
  // The position of `key`, or `absent`.
  uint32_t Find(const Key* keys, Key key, uint32_t absent) const {
    size_t at = Probe(keys, key);
    return slots_[at] != 0 ? slots_[at] - 1 : absent;
  }

 private:
  // The slot holding `key`, else the empty slot where it would go.
  size_t Probe(const Key* keys, Key key) const {
    size_t at =
        static_cast<size_t>(
            (reinterpret_cast<uintptr_t>(key.address()) >> 4) * 0x9E3779B97F4A7C15ull >> 32) &
        mask_;
    while (slots_[at] != 0 && keys[slots_[at] - 1] != key) at = (at + 1) & mask_;
    return at;
  }
  std::vector<uint32_t> slots_;  // position + 1; 0: empty
  size_t mask_ = 0;
};

// The keys of a map, in order. Maps with the same keys share one layout
// (KeyLayouts), so a record's block holds only its values: a 12-field
// allocation takes 208 bytes, not 296, and finding a field, or learning
// that it is absent, reads keys that every other allocation keeps hot in
// the cache. A map whose keys no other map is likely to repeat — many keys,
// or past the table's bound — owns a layout of its own.
struct KeyLayout {
  // Small maps (records) are searched linearly; large ones get an index.
  static constexpr size_t kIndexFrom = 16;

  // The keys follow the header: reaching them costs no load of a pointer.
  static KeyLayout* Make(const MapEntry* entries, size_t n, bool shared) {
    static_assert(sizeof(KeyLayout) % alignof(Key) == 0, "keys follow the header");
    void* memory = ::operator new(sizeof(KeyLayout) + n * sizeof(Key));
    auto* layout = new (memory) KeyLayout;
    layout->size = static_cast<uint32_t>(n);
    layout->shared = shared;
    Key* keys = reinterpret_cast<Key*>(layout + 1);
    for (size_t i = 0; i < n; ++i) new (keys + i) Key(entries[i].first);
    if (n >= kIndexFrom) {
      layout->index = new KeyPositions(n);
      for (uint32_t i = 0; i < n; ++i) layout->index->Insert(keys, keys[i], i);
    }
    return layout;
  }
  static void Free(KeyLayout* layout) {
    delete layout->index;
    ::operator delete(layout);  // keys: trivially destroyed
  }

  const Key* keys() const { return reinterpret_cast<const Key*>(this + 1); }
  // The position of `name`, or `size` when it is not a key.
  uint32_t Position(Key name) const {
    if (index != nullptr) return index->Find(keys(), name, size);
    uint32_t i = 0;
    while (i < size && keys()[i] != name) ++i;
    return i;
  }

  KeyPositions* index = nullptr;
  uint32_t size = 0;
  bool shared = false;  // kept by KeyLayouts for the process, else by its one map
};

// Every shared layout, never freed (as keys are not): a process that reads
// facts of many shapes grows by each, up to the bound, after which new
// shapes get layouts of their own. Each thread remembers the layouts it
// used last, so building a document's thousands of records takes no lock.
class KeyLayouts {
 public:
  // The layout of the keys of `entries` (distinct): a shared one if it can
  // be, else a new one that the caller's map owns (`shared` false).
  static KeyLayout* Of(const MapEntry* entries, size_t n) {
    size_t hash = Hash(entries, n);
    thread_local std::array<KeyLayout*, 64> recent{};
    KeyLayout*& last = recent[hash % recent.size()];
    if (last != nullptr && Same(*last, entries, n)) return last;
    if (n > kSharedUpTo) return Own(entries, n);
    KeyLayouts& table = Table();
    {
      std::shared_lock lock(table.mutex_);
      if (KeyLayout* found = table.Find(hash, entries, n)) return last = found;
    }
    std::unique_lock lock(table.mutex_);
    if (KeyLayout* found = table.Find(hash, entries, n)) return last = found;
    if (table.keys_ + n > kSharedKeys) return Own(entries, n);
    table.keys_ += n;
    KeyLayout* layout = KeyLayout::Make(entries, n, true);
    table.layouts_.emplace(hash, layout);
    return last = layout;
  }

 private:
  static constexpr size_t kSharedUpTo = 64;        // keys of a shared layout
  static constexpr size_t kSharedKeys = 1u << 18;  // keys of all of them: 2 MB

  static KeyLayouts& Table() {
    static KeyLayouts* table = new KeyLayouts;  // outlives every static Value
    return *table;
  }
  static size_t Hash(const MapEntry* entries, size_t n) {
    uint64_t hash = n;
    for (size_t i = 0; i < n; ++i) {
      hash =
          (hash ^ reinterpret_cast<uintptr_t>(entries[i].first.address())) * 0x9E3779B97F4A7C15ull;
    }
    return static_cast<size_t>(hash ^ hash >> 29);
  }
  static bool Same(const KeyLayout& layout, const MapEntry* entries, size_t n) {
    if (layout.size != n) return false;
    for (size_t i = 0; i < n; ++i) {
      if (layout.keys()[i] != entries[i].first) return false;
    }
    return true;
  }
  static KeyLayout* Own(const MapEntry* entries, size_t n) {
    return KeyLayout::Make(entries, n, false);
  }

  KeyLayout* Find(size_t hash, const MapEntry* entries, size_t n) const {
    auto [from, to] = layouts_.equal_range(hash);
    for (auto it = from; it != to; ++it) {
      if (Same(*it->second, entries, n)) return it->second;
    }
    return nullptr;
  }

  std::shared_mutex mutex_;
  std::unordered_multimap<size_t, KeyLayout*> layouts_;
  size_t keys_ = 0;
};

// The items of a keyed list by id: open addressing over item positions, so
// a lookup costs one probe into a flat array and a look at the item found,
// which the caller reads next anyway (a node-based map cost two more cache
// misses per lookup over large fact lists).
class IdIndex {
 public:
  explicit IdIndex(ListView items) { keyed_ = !items.empty() && Build(items); }
  // False when an id repeats or an item has none: then Find finds nothing.
  bool keyed() const { return keyed_; }

  const Value* Find(ListView items, std::string_view id) const {
    if (!keyed_) return nullptr;
    size_t hash = std::hash<std::string_view>()(id);
    for (size_t at = hash & mask_; slots_[at].item != 0; at = (at + 1) & mask_) {
      if (slots_[at].tag != Tag(hash)) continue;
      const Value& item = items[slots_[at].item - 1];
      if (item.Id() == id) return &item;
    }
    return nullptr;
  }

 private:
  bool Build(ListView items) {
    size_t capacity = 4;
    while (capacity < items.size() * 2) capacity *= 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    for (uint32_t i = 0; i < items.size(); ++i) {
      std::string_view id = items[i].Id();
      if (id.empty()) return false;
      size_t hash = std::hash<std::string_view>()(id);
      size_t at = hash & mask_;
      for (; slots_[at].item != 0; at = (at + 1) & mask_) {
        if (slots_[at].tag == Tag(hash) && items[slots_[at].item - 1].Id() == id) return false;
      }
      slots_[at] = Slot{i + 1, Tag(hash)};
    }
    return true;
  }

  struct Slot {
    uint32_t item = 0;  // position + 1; 0: empty
    uint32_t tag = 0;   // high bits of the id's hash
  };
  static uint32_t Tag(size_t hash) { return static_cast<uint32_t>(hash >> 32) | 1; }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  bool keyed_ = false;
};

// A header (D) followed by its elements in the same allocation: reaching
// an item or a field costs one cache miss fewer than through a vector.
template <typename D, typename T>
struct Value::Trailing : Heap {
  uint32_t size = 0;

  T* data() { return reinterpret_cast<T*>(static_cast<D*>(this) + 1); }
  const T* data() const { return reinterpret_cast<const T*>(static_cast<const D*>(this) + 1); }
  View<T> view() const { return {data(), size}; }

  // A D holding the elements of `from`, moved in (each element's `take(e)`,
  // the element itself when not given).
  template <typename From, typename Take>
  static D* Make(std::vector<From>* from, Take take) {
    static_assert(sizeof(D) % alignof(T) == 0, "elements follow the header");
    void* memory = ::operator new(sizeof(D) + from->size() * sizeof(T));
    D* d = new (memory) D;
    for (From& e : *from) new (d->data() + d->size++) T(std::move(take(e)));
    return d;
  }
  static D* Make(std::vector<T>* from) {
    return Make(from, [](T& e) -> T& { return e; });
  }
  // Moves the elements out, leaving none.
  void TakeInto(std::vector<T>* out) {
    out->clear();
    out->reserve(size);
    for (uint32_t i = 0; i < size; ++i) out->push_back(std::move(data()[i]));
    DestroyElements();
  }
  void DestroyElements() {
    for (uint32_t i = 0; i < size; ++i) data()[i].~T();
    size = 0;
  }
  static void Free(D* d) {
    d->DestroyElements();
    d->~D();
    ::operator delete(d);
  }
};

// A list's id index is made the first time it is asked for, not when the
// list is made: most lists an evaluation makes (a filter's matches, a
// window in brackets) are never looked up, and indexing each cost a read of
// every item. It is a function of the items alone, which never change, so
// whichever thread asks first publishes it: threads that ask at once may
// each build one, the first published is kept, the others freed.
struct Value::ListData : Trailing<ListData, Value> {
  ~ListData() { delete index_.load(std::memory_order_relaxed); }

  // The id index (IdIndex::keyed() says whether the list is keyed).
  const IdIndex& Index() const {
    const IdIndex* index = index_.load(std::memory_order_acquire);
    if (index != nullptr) return *index;
    auto built = std::make_unique<const IdIndex>(view());
    if (index_.compare_exchange_strong(index, built.get(), std::memory_order_acq_rel))
      return *built.release();
    return *index;  // another thread's, published first
  }

  // The items moved out (the list has a single holder, so no other thread
  // reads it): the list is empty from now on, and so is its index.
  void TakeItems(std::vector<Value>* out) {
    TakeInto(out);
    delete index_.exchange(nullptr, std::memory_order_relaxed);
  }

 private:
  mutable std::atomic<const IdIndex*> index_{nullptr};  // published once, by Index()
};

// A map's values follow its header; its keys are in its layout.
struct Value::MapData : Trailing<MapData, Value> {
  // Shared by every map of the same keys, or this map's own (!shared):
  // then it goes with the map. Never written once made.
  KeyLayout* layout = nullptr;

  // A map of the (distinct) keys and values of `from`, whose values move in.
  static MapData* Make(MapEntries* from) {
    KeyLayout* layout = KeyLayouts::Of(from->data(), from->size());
    MapData* d = Trailing::Make(from, [](MapEntry& e) -> Value& { return e.second; });
    d->layout = layout;
    return d;
  }
  static void Free(MapData* d) {
    KeyLayout* layout = d->layout;
    Trailing::Free(d);
    if (!layout->shared) KeyLayout::Free(layout);
  }
  MapView view() const { return {layout->keys(), data(), size}; }
  // The position of `name`'s value, or `size` when there is none.
  uint32_t Position(Key name) const { return std::min(layout->Position(name), size); }
};

void Value::Destroy() {
  switch (kind()) {
    case ValueKind::kString:
    case ValueKind::kError:
      StringData::Free(static_cast<StringData*>(u_.heap));
      break;
    case ValueKind::kList:
      ListData::Free(static_cast<ListData*>(u_.heap));
      break;
    case ValueKind::kMap:
      MapData::Free(static_cast<MapData*>(u_.heap));
      break;
    case ValueKind::kNative:
      delete static_cast<Native*>(u_.heap);
      break;
    default:
      break;
  }
  u_.i = 0;
}

uint64_t Value::OverflowIndex(const SourceLoc& loc) {
  OverflowLocs& t = Overflow();
  std::lock_guard lock(t.mutex);
  auto [it, inserted] = t.index.try_emplace(loc, t.locs.size());
  if (inserted) t.locs.push_back(loc);
  return it->second;
}

SourceLoc Value::OverflowLoc(uint64_t index) {
  OverflowLocs& t = Overflow();
  std::lock_guard lock(t.mutex);
  return index < t.locs.size() ? t.locs[index] : SourceLoc{};
}

const char* KindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNull:
      return "null";
    case ValueKind::kBool:
      return "bool";
    case ValueKind::kInt:
      return "int";
    case ValueKind::kDouble:
      return "double";
    case ValueKind::kString:
      return "string";
    case ValueKind::kDate:
      return "date";
    case ValueKind::kDuration:
      return "duration";
    case ValueKind::kQuantity:
      return "quantity";
    case ValueKind::kList:
      return "list";
    case ValueKind::kMap:
      return "map";
    case ValueKind::kError:
      return "error";
    case ValueKind::kNative:
      return "native value";
  }
  return "value";
}

Value Value::Bool(bool b) {
  Value v;
  v.set_kind(ValueKind::kBool);
  v.u_.b = b;
  return v;
}

Value Value::Int(int64_t i) {
  Value v;
  v.set_kind(ValueKind::kInt);
  v.u_.i = i;
  return v;
}

Value Value::Double(double d) {
  Value v;
  v.set_kind(ValueKind::kDouble);
  v.u_.d = d;
  return v;
}

Value Value::String(std::string_view s) {
  Value v;
  v.u_.heap = StringData::Make(s);
  v.set_kind(ValueKind::kString);
  return v;
}

Value Value::PlainText(std::string_view text) {
  Value v = String(text);
  v.meta_ |= kPlain;
  return v;
}

Value Value::Date(const DateTime& t) {
  auto code = static_cast<uint16_t>(static_cast<uint16_t>(t.offset) ^ kDateFormFlip);
  int64_t seconds = std::clamp(t.seconds, DateTime::kMinSeconds, DateTime::kMaxSeconds);
  Value v = Int(seconds * kDateFormScale + code);
  v.set_kind(ValueKind::kDate);
  return v;
}

Value Value::Duration(int64_t seconds) {
  Value v = Int(seconds);
  v.set_kind(ValueKind::kDuration);
  return v;
}

Value Value::Quantity(capops::Quantity q) {
  Value v = Int(q.amount);
  v.set_kind(ValueKind::kQuantity);
  if (q.dimension == Dimension::kBytesPerSecond) v.meta_ |= kQuantityPerSecond;
  return v;
}

Value Value::List(std::vector<Value> items) {
  ListData* data = ListData::Make(&items);
  Value v;
  v.u_.heap = data;
  v.set_kind(ValueKind::kList);
  return v;
}

Value Value::Map(MapEntries entries) {
  return MapFrom(&entries);
}

Value Value::MapFrom(MapEntries* entries) {
  // A repeated key keeps its first value: repeats go before the entries
  // move. A record's keys are compared pairwise; a large map's through an
  // index of those kept so far.
  MapEntries& e = *entries;
  std::unique_ptr<KeyPositions> seen;
  std::vector<Key> keys;
  if (e.size() >= KeyLayout::kIndexFrom) {
    seen = std::make_unique<KeyPositions>(e.size());
    keys.reserve(e.size());
  }
  size_t kept = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    Key key = e[i].first;
    bool repeat = seen ? !seen->Insert(keys.data(), key, static_cast<uint32_t>(kept))
                       : std::any_of(e.begin(), e.begin() + static_cast<ptrdiff_t>(kept),
                                     [&](const MapEntry& entry) { return entry.first == key; });
    if (repeat) continue;
    if (seen) keys.push_back(key);
    if (kept != i) e[kept] = std::move(e[i]);
    ++kept;
  }
  e.resize(kept);
  MapData* data = MapData::Make(entries);
  e.clear();
  Value v;
  v.u_.heap = data;
  v.set_kind(ValueKind::kMap);
  return v;
}

Value Value::Error(std::string message, SourceLoc fact) {
  Value v = String(std::move(message));
  v.set_kind(ValueKind::kError);
  v.set_loc(fact);
  return v;
}

Value Value::Make(std::unique_ptr<Native> native) {
  Value v;
  v.set_kind(ValueKind::kNative);
  v.u_.heap = native.release();
  return v;
}

std::string_view Value::string_value() const {
  if (kind() != ValueKind::kString && kind() != ValueKind::kError) return {};
  return static_cast<const StringData*>(u_.heap)->text();
}

ListView Value::items() const {
  if (kind() != ValueKind::kList) return {};
  return static_cast<const ListData*>(u_.heap)->view();
}

// A record's entries past the two lines Prefetch() asked for, and its parts.
// A large map (not a record) is left alone: reading all of it ahead would
// push out more than it brings in.
void Value::PrefetchParts() const {
  constexpr uint32_t kRecordSize = 64;
  if (kind() != ValueKind::kMap) return;
  const auto* data = static_cast<const MapData*>(u_.heap);
  if (data->size > kRecordSize) return;
  const char* bytes = reinterpret_cast<const char*>(data);
  size_t size = sizeof(MapData) + data->size * sizeof(Value);
  for (size_t at = 128; at < size; at += 64) __builtin_prefetch(bytes + at);
  for (const Value& v : View<Value>(data->data(), data->size)) {
    if (v.on_heap()) __builtin_prefetch(v.u_.heap);
  }
}

void Value::PrefetchItem(const IdHint& hint) const {
  if (kind() != ValueKind::kList) return;
  const auto* data = static_cast<const ListData*>(u_.heap);
  constexpr int kRecordLines = 4;
  if (hint.at != 0 && hint.at <= data->size) data->data()[hint.at - 1].Prefetch(kRecordLines);
}

MapView Value::entries() const {
  if (kind() != ValueKind::kMap) return {};
  return static_cast<const MapData*>(u_.heap)->view();
}

bool Value::TakeEntries(MapEntries* out) {
  if (kind() != ValueKind::kMap || u_.heap->refs.load(std::memory_order_acquire) != 1) return false;
  auto* data = static_cast<MapData*>(u_.heap);
  out->clear();
  out->reserve(data->size);
  for (uint32_t i = 0; i < data->size; ++i)
    out->emplace_back(data->layout->keys()[i], std::move(data->data()[i]));
  data->DestroyElements();
  return true;
}

bool Value::TakeItems(std::vector<Value>* out) {
  if (kind() != ValueKind::kList || u_.heap->refs.load(std::memory_order_acquire) != 1)
    return false;
  static_cast<ListData*>(u_.heap)->TakeItems(out);
  return true;
}

const Value* Value::Field(Key name) const {
  if (kind() != ValueKind::kMap) return nullptr;
  const auto* data = static_cast<const MapData*>(u_.heap);
  uint32_t at = data->Position(name);
  return at < data->size ? &data->data()[at] : nullptr;
}

const Value* Value::Field(Key name, FieldHint* hint) const {
  if (kind() != ValueKind::kMap) return nullptr;
  const auto* data = static_cast<const MapData*>(u_.heap);
  uint32_t at = hint->at;
  if (at >= data->size || data->layout->keys()[at] != name) {
    at = data->Position(name);
    if (at == data->size) return nullptr;
    hint->at = at;
  }
  return &data->data()[at];
}

// A text no map was given as a key is a field of no map.
const Value* Value::Field(std::string_view name) const {
  if (kind() != ValueKind::kMap) return nullptr;
  bool found = false;
  Key key = Key::Find(name, &found);
  return found ? Field(key) : nullptr;
}

bool Value::SameKeys(const Value& other) const {
  if (kind() != ValueKind::kMap || other.kind() != ValueKind::kMap) return false;
  const auto* a = static_cast<const MapData*>(u_.heap);
  const auto* b = static_cast<const MapData*>(other.u_.heap);
  if (a->size != b->size) return false;
  if (a->layout == b->layout) return true;
  for (uint32_t i = 0; i < a->size; ++i) {
    if (a->layout->keys()[i] != b->layout->keys()[i]) return false;
  }
  return true;
}

bool Value::keyed() const {
  return kind() == ValueKind::kList && static_cast<const ListData*>(u_.heap)->Index().keyed();
}

// The item at the hint is checked first (ids are unique in a keyed list),
// which spares the index's probe and the hash of the text, each a cache
// miss over large facts.
const Value* Value::FindById(const Value& id, IdHint* hint) const {
  if (!id.is(ValueKind::kString)) return nullptr;
  if (kind() != ValueKind::kList) return nullptr;
  const auto* data = static_cast<const ListData*>(u_.heap);
  const IdIndex& index = data->Index();
  if (!index.keyed()) return nullptr;
  const auto* text = static_cast<const StringData*>(id.u_.heap);
  uint32_t at = hint->at;
  if (at != 0 && at <= data->size) {
    const Value& item = data->data()[at - 1];
    const Value* item_id = item.Field(IdKey());
    if (item_id != nullptr && item_id->is(ValueKind::kString) &&
        (item_id->u_.heap == text || item_id->string_value() == text->text())) {
      return &item;
    }
  }
  const Value* found = index.Find(data->view(), text->text());
  if (found != nullptr) hint->at = static_cast<uint32_t>(found - data->data()) + 1;
  return found;
}

const Value* Value::FindById(std::string_view id) const {
  if (kind() != ValueKind::kList) return nullptr;
  const auto* data = static_cast<const ListData*>(u_.heap);
  return data->Index().Find(data->view(), id);
}

std::string_view Value::Id() const {
  const Value* id = Field(IdKey());
  if (id == nullptr || !id->is(ValueKind::kString)) return {};
  return id->string_value();
}

namespace {
std::string FormatDouble(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+infinity" : "-infinity";
  char buf[64];
  if (d == std::floor(d) && std::fabs(d) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", d);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17g", d);
  // Prefer the shortest text that reads back as the same double.
  for (int precision = 1; precision <= 17; ++precision) {
    char shorter[64];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, d);
    if (std::strtod(shorter, nullptr) == d) return shorter;
  }
  return buf;
}

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}
}  // namespace

std::string Value::ToString() const {
  switch (kind()) {
    case ValueKind::kNull:
      return "null";
    case ValueKind::kBool:
      return u_.b ? "true" : "false";
    case ValueKind::kInt:
      return std::to_string(u_.i);
    case ValueKind::kDouble:
      return FormatDouble(u_.d);
    case ValueKind::kString:
    case ValueKind::kError:
      return std::string(string_value());
    case ValueKind::kDate:
      return FormatDateTime(date_value());
    case ValueKind::kDuration:
      return FormatDuration(u_.i);
    case ValueKind::kQuantity:
      return FormatQuantity(quantity_value());
    case ValueKind::kList: {
      std::string out = "[";
      for (size_t i = 0; i < items().size(); ++i) {
        if (i > 0) out += ", ";
        out += items()[i].ToString();
      }
      return out + "]";
    }
    case ValueKind::kNative:
      return native()->Plain().ToString();
    case ValueKind::kMap: {
      std::string_view id = Id();
      if (!id.empty()) return std::string(id);
      std::string out = "{";
      for (size_t i = 0; i < entries().size(); ++i) {
        if (i > 0) out += ", ";
        out += entries()[i].first.str() + ": " + entries()[i].second.ToLiteral();
      }
      return out + "}";
    }
  }
  return "";
}

namespace {
// Appends `v` as a literal, stopping soon after `out` passes `limit` chars.
void AppendLiteral(const Value& v, size_t limit, std::string* out) {
  if (out->size() > limit) return;
  switch (v.kind()) {
    case ValueKind::kString:
      *out += Quote(v.string_value());
      return;
    case ValueKind::kList:
      *out += "[";
      for (size_t i = 0; i < v.items().size() && out->size() <= limit; ++i) {
        if (i > 0) *out += ", ";
        AppendLiteral(v.items()[i], limit, out);
      }
      *out += "]";
      return;
    case ValueKind::kMap:
      *out += "{";
      for (size_t i = 0; i < v.entries().size() && out->size() <= limit; ++i) {
        if (i > 0) *out += ", ";
        *out += v.entries()[i].first.str() + ": ";
        AppendLiteral(v.entries()[i].second, limit, out);
      }
      *out += "}";
      return;
    case ValueKind::kNative:
      AppendLiteral(v.native()->Plain(), limit, out);
      return;
    default:
      *out += v.ToString();
  }
}
}  // namespace

std::string Value::ToLiteral() const {
  return ToLiteral(std::string::npos);
}

std::string Value::ToLiteral(size_t max_chars) const {
  std::string out;
  AppendLiteral(*this, max_chars, &out);
  if (out.size() > max_chars) out = out.substr(0, max_chars - 3) + "...";
  return out;
}

bool operator==(const Value& a, const Value& b) {
  bool a_num = a.kind() == ValueKind::kInt || a.kind() == ValueKind::kDouble;
  bool b_num = b.kind() == ValueKind::kInt || b.kind() == ValueKind::kDouble;
  if (a_num && b_num && a.kind() != b.kind()) {
    double x = a.kind() == ValueKind::kInt ? static_cast<double>(a.u_.i) : a.u_.d;
    double y = b.kind() == ValueKind::kInt ? static_cast<double>(b.u_.i) : b.u_.d;
    return x == y;
  }
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ValueKind::kNull:
      return true;
    case ValueKind::kBool:
      return a.u_.b == b.u_.b;
    case ValueKind::kInt:
    case ValueKind::kDuration:
      return a.u_.i == b.u_.i;
    case ValueKind::kDate:  // the same instant, however written
      return a.date_value().seconds == b.date_value().seconds;
    case ValueKind::kQuantity:
      return a.quantity_value() == b.quantity_value();
    case ValueKind::kDouble:
      return a.u_.d == b.u_.d;
    case ValueKind::kString:
    case ValueKind::kError:
      return a.string_value() == b.string_value();
    case ValueKind::kList:
      return std::equal(a.items().begin(), a.items().end(), b.items().begin(), b.items().end());
    case ValueKind::kNative:
      return a.u_.heap == b.u_.heap || a.native()->Plain() == b.native()->Plain();
    case ValueKind::kMap: {
      if (a.entries().size() != b.entries().size()) return false;
      if (a.SameKeys(b)) {
        MapView x = a.entries(), y = b.entries();
        for (size_t i = 0; i < x.size(); ++i) {
          if (!(x[i].second == y[i].second)) return false;
        }
        return true;
      }
      for (const auto& [key, value] : a.entries()) {
        const Value* other = b.Field(key);
        if (other == nullptr || !(*other == value)) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace capops
