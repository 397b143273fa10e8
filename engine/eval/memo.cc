// SPDX-License-Identifier: Apache-2.0
// JoinIndex: the hash side of the planner's joins (see plan.h).
#include "engine/eval/memo.h"

#include <algorithm>
#include <array>
#include <string>

namespace capops::eval {

const JoinIndex::Group* JoinIndex::Find(std::string_view text, size_t hash) const {
  if (table_.empty()) return nullptr;
  size_t mask = table_.size() - 1;
  for (size_t at = hash & mask; table_[at] != 0; at = (at + 1) & mask) {
    const Group& g = groups_[table_[at] - 1];
    if (g.hash == hash && g.key.string_value() == text) return &g;
  }
  return nullptr;
}

uint32_t JoinIndex::GroupOf(const Value& key) {
  std::string_view text = key.string_value();
  size_t hash = std::hash<std::string_view>()(text);
  if (const Group* g = Find(text, hash)) return static_cast<uint32_t>(g - groups_.data());
  if ((groups_.size() + 1) * 2 > table_.size()) {  // at most half full
    table_.assign(std::max<size_t>(16, table_.size() * 2), 0);
    for (uint32_t i = 0; i < groups_.size(); ++i) table_[EmptySlot(groups_[i].hash)] = i + 1;
  }
  groups_.push_back(Group{hash, key});
  table_[EmptySlot(hash)] = static_cast<uint32_t>(groups_.size());
  return static_cast<uint32_t>(groups_.size() - 1);
}

size_t JoinIndex::EmptySlot(size_t hash) const {
  size_t mask = table_.size() - 1;
  size_t at = hash & mask;
  while (table_[at] != 0) at = (at + 1) & mask;
  return at;
}

void JoinIndex::Add(uint32_t item, const Value& key, bool membership,
                    std::vector<std::pair<uint32_t, uint32_t>>* placed) {
  auto place = [&](const Value& text) {
    uint32_t group = GroupOf(text);
    Group& g = groups_[group];
    if (g.last_item == item) return;
    g.last_item = item;
    ++g.size;
    placed->emplace_back(item, group);
  };
  if (key.is(ValueKind::kString) && !membership) return place(key);
  if (!membership || !key.is(ValueKind::kList) ||
      !std::all_of(key.items().begin(), key.items().end(),
                   [](const Value& v) { return v.is(ValueKind::kString); })) {
    residual_.push_back(item);  // compared the slow way, by the condition itself
    return;
  }
  for (const Value& element : key.items()) place(element);
}

// Each group's items follow the previous group's, in list order.
void JoinIndex::LayOut(ListView items, const std::vector<std::pair<uint32_t, uint32_t>>& placed) {
  items_ = items;
  uint32_t next = 0;
  for (Group& g : groups_) {
    g.begin = next;
    next += g.size;
    g.size = 0;
  }
  // Sized once: a borrowed Value that moves becomes a counted one.
  picked_.resize(placed.size());
  positions_.resize(placed.size());
  for (const auto& [item, group] : placed) {
    Group& g = groups_[group];
    uint32_t at = g.begin + g.size++;
    picked_[at].Borrow(items[item]);
    positions_[at] = item;
  }
}

ListView JoinIndex::Candidates(std::string_view probe, std::vector<Value>* scratch,
                               const std::vector<uint32_t>& aside) const {
  const Group* g = Find(probe, std::hash<std::string_view>()(probe));
  if (aside.empty())
    return g != nullptr ? ListView(picked_.data() + g->begin, g->size) : ListView();
  // An item is in a group or kept aside, never both: the two merge into
  // exactly their sizes' sum, borrowed in place (sized once, as above).
  View<uint32_t> hits =
      g != nullptr ? View<uint32_t>(positions_.data() + g->begin, g->size) : View<uint32_t>();
  scratch->clear();
  scratch->resize(hits.size() + aside.size());
  size_t h = 0, r = 0;
  for (Value& out : *scratch) {
    bool from_hits = r == aside.size() || (h < hits.size() && hits[h] < aside[r]);
    out.Borrow(items_[from_hits ? hits[h++] : aside[r++]]);
  }
  return *scratch;
}

void JoinIndex::Positions(std::string_view probe, std::vector<uint32_t>* out) const {
  if (const Group* g = Find(probe, std::hash<std::string_view>()(probe)))
    out->insert(out->end(), positions_.begin() + g->begin, positions_.begin() + g->begin + g->size);
}

void VarsKey::AddItems(const Value& v, size_t short_list) {
  static const std::array<Value, kMaxItems + 1> kItemsOf = [] {
    std::array<Value, kMaxItems + 1> markers;
    for (size_t n = 0; n <= kMaxItems; ++n)
      markers[n] = Value::Error("list of " + std::to_string(n));
    return markers;
  }();
  size_t n = v.is(ValueKind::kList) ? v.items().size() : SIZE_MAX;
  if (n > std::min(short_list, kMaxItems)) return Add(v);
  Add(kItemsOf[n]);
  for (const Value& item : v.items()) Add(item);
}

}  // namespace capops::eval
