// SPDX-License-Identifier: Apache-2.0
// Memo: what one evaluation remembers for the plan (internal to engine/eval):
// the values of loop-invariant expressions and the join indexes of lists.
// Facts and params do not change during an evaluation, so neither goes stale;
// a Memo lives as long as one rule's run over one fact set.
#pragma once

#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/common/value.h"
#include "engine/eval/read_ahead.h"
#include "engine/plan/plan.h"

namespace capops::eval {

/// The items of a list grouped by the string a key expression gives each.
/// Items whose key is not a string (or not a list of strings, for a
/// membership join) are kept aside and are candidates for every probe.
class JoinIndex {
 public:
  /// `key_of(item)` evaluates the join's key for one item.
  template <typename KeyOf>
  JoinIndex(const Value& list, bool membership, KeyOf key_of) {
    ListView items = list.items();
    std::vector<std::pair<uint32_t, uint32_t>> placed;  // (item, group) in list order
    ReadAhead ahead(items);
    for (uint32_t i = 0; i < items.size(); ++i) {
      ahead.Step(i);
      Add(i, key_of(items[i]), membership, &placed);
    }
    LayOut(items, placed);
  }
  /// The items that may match `probe`, in list order: held by the index, or
  /// `*scratch` filled in. They borrow from the list (Value::Borrow), which
  /// must outlive them.
  ListView Candidates(std::string_view probe, std::vector<Value>* scratch) const;
  /// Every item's key was a string (or list of strings): a candidate's key
  /// matches the probe, none is kept aside.
  bool exact() const { return residual_.empty(); }

 private:
  // The items of one distinct key text: picked_[begin, begin + size).
  struct Group {
    size_t hash = 0;
    Value key;  // holds the text
    uint32_t begin = 0;
    uint32_t size = 0;
    uint32_t last_item = UINT32_MAX;  // a repeated element of one item counts once
  };
  void Add(uint32_t item, const Value& key, bool membership,
           std::vector<std::pair<uint32_t, uint32_t>>* placed);
  uint32_t GroupOf(const Value& key);
  const Group* Find(std::string_view text, size_t hash) const;
  size_t EmptySlot(size_t hash) const;  // where a new key of `hash` goes
  void LayOut(ListView items, const std::vector<std::pair<uint32_t, uint32_t>>& placed);

  std::vector<Group> groups_;
  std::vector<uint32_t> table_;  // open addressing: group + 1, 0 when empty
  // Each group's items side by side, borrowed: a probe's loop reads them in
  // a row rather than at their places in the list (over 100k allocations,
  // a cache miss each), and gets each record's address without waiting.
  std::vector<Value> picked_;
  // Parallel to picked_, when items are kept aside: their places in the
  // list, to merge the two in list order.
  std::vector<uint32_t> positions_;
  std::vector<uint32_t> residual_;
  ListView items_;
};

/// The values of the loop variables an expression reads, compared by
/// identity (Value::Identity); holding them keeps the identities unique.
struct VarsKey {
  std::vector<Value> values;
  friend bool operator==(const VarsKey& a, const VarsKey& b) {
    if (a.values.size() != b.values.size()) return false;
    for (size_t i = 0; i < a.values.size(); ++i) {
      if (a.values[i].Identity() != b.values[i].Identity()) return false;
    }
    return true;
  }
};
struct VarsKeyHash {
  size_t operator()(const VarsKey& k) const {
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (const Value& v : k.values) {
      auto [a, b] = v.Identity();
      h = (h ^ a) * 0x100000001b3u;
      h = (h ^ b) * 0x100000001b3u;
    }
    return static_cast<size_t>(h);
  }
};

struct Memo {
  /// Per expression remembered per loop values (plan::MemoKind::kPerVars).
  std::unordered_map<const syntax::Expr*, std::unordered_map<VarsKey, Value, VarsKeyHash>> per_vars;
  std::unordered_map<const syntax::Expr*, Value> values;  // by remembered expression
  /// By the join's key expression: in the call's SharedIndexes when the
  /// key is a field of the item and the call shares them, else in
  /// `own_indexes`.
  std::unordered_map<const syntax::Expr*, const JoinIndex*> indexes;
  std::vector<std::unique_ptr<JoinIndex>> own_indexes;
  Value scratch;  // a value not worth remembering (the budget ran out)
};

}  // namespace capops::eval
