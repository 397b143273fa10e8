// SPDX-License-Identifier: Apache-2.0
// Memo: what one evaluation remembers for the plan (internal to engine/eval):
// the values of loop-invariant expressions and the join indexes of lists.
// Facts and params do not change during an evaluation, so neither goes stale;
// a Memo lives as long as one rule's run over one fact set.
#pragma once

#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
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
  /// must outlive them. The items kept aside that go with them are
  /// `residual` (some of residual(), in list order), else all of them.
  ListView Candidates(std::string_view probe, std::vector<Value>* scratch) const {
    return Candidates(probe, scratch, residual_);
  }
  ListView Candidates(std::string_view probe, std::vector<Value>* scratch,
                      const std::vector<uint32_t>& residual) const;
  /// Every item's key was a string (or list of strings): a candidate's key
  /// matches the probe, none is kept aside.
  bool exact() const { return residual_.empty(); }
  /// Appends the places in the list of the items whose key is `probe`, in order.
  void Positions(std::string_view probe, std::vector<uint32_t>* out) const;
  /// The places of the items kept aside (their key was not a string), in order.
  const std::vector<uint32_t>& residual() const { return residual_; }

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
  // Parallel to picked_: their places in the list, to merge groups (and
  // the items kept aside) in list order.
  std::vector<uint32_t> positions_;
  std::vector<uint32_t> residual_;
  ListView items_;
};

/// The values of the loop variables an expression reads, compared by
/// identity (Value::Identity); holding them keeps the identities unique.
struct VarsKey {
  /// The longest list AddItems keys by its items.
  static constexpr size_t kMaxItems = 64;
  std::vector<Value> values;
  /// Appends `v` borrowed (a key to probe with; a key kept is a copy).
  void Add(const Value& v) { values.emplace_back().Borrow(v); }
  /// Appends a list of at most `short_list` (<= kMaxItems) items by its
  /// items, after a marker of their count, anything else as itself: a list
  /// built afresh, or another record's, may hold the same items. The marker
  /// is an error value of its own, which no value keyed is.
  void AddItems(const Value& v, size_t short_list);
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

/// A list a join reads, and its index: shared or the memo's own, with the
/// items kept aside that the join's item conditions do not rule out.
struct JoinedList {
  Value list;  // held: its identity stays its own while the entry lives
  const JoinIndex* index = nullptr;
  std::vector<uint32_t> residual;
  /// No item kept aside: a candidate's key matches the probe.
  bool exact() const { return residual.empty(); }
};

/// A join and the identity of a list it reads.
struct JoinedKey {
  const plan::Join* join = nullptr;
  uint64_t list = 0;
  friend bool operator==(const JoinedKey& a, const JoinedKey& b) {
    return a.join == b.join && a.list == b.list;
  }
};
struct JoinedKeyHash {
  size_t operator()(const JoinedKey& k) const {
    return std::hash<const void*>()(k.join) ^ (static_cast<size_t>(k.list) * 0x9e3779b97f4a7c15u);
  }
};

struct Memo {
  /// Per expression remembered per loop values (plan::MemoKind::kPerVars).
  std::unordered_map<const syntax::Expr*, std::unordered_map<VarsKey, Value, VarsKeyHash>> per_vars;
  std::unordered_map<const syntax::Expr*, Value> values;  // by remembered expression
  /// The key a kPerVars expression or a costly call is looked up by, built
  /// anew for each probe in this one buffer of borrowed values (no
  /// references taken, no allocation once it has grown); a key kept is a copy.
  VarsKey probe;
  /// kPerItems: the expressions and hashes of the keys computed once and
  /// not remembered (a collision only remembers a value early).
  struct SeenHash {
    size_t operator()(const std::pair<const syntax::Expr*, size_t>& k) const {
      return std::hash<const void*>()(k.first) ^ k.second;
    }
  };
  std::unordered_set<std::pair<const syntax::Expr*, size_t>, SeenHash> items_seen_once;
  /// The calls of a costly CPL function (plan::ProgramPlan::costly_functions)
  /// remembered by their arguments (ExprEvaluator::CallUser); their keys seen
  /// once are in `items_seen_once`, under the function's body. A function
  /// whose first calls seldom repeat their arguments (`is_service(d, …)`
  /// for each demand once) is called directly from then on.
  struct Calls {
    std::unordered_map<VarsKey, Value, VarsKeyHash> values;
    uint32_t probes = 0, hits = 0;
    bool off = false;
  };
  std::unordered_map<uint32_t, Calls> calls;  // by function index
  /// By join and list: the index is in the call's SharedIndexes when the
  /// key is a field of the item and the call shares them, else in
  /// `own_indexes`.
  std::unordered_map<JoinedKey, JoinedList, JoinedKeyHash> joined;
  std::vector<std::unique_ptr<JoinIndex>> own_indexes;
  /// Lists a per-list join (plan::Join::per_list) was asked about once and
  /// scanned: by identity only, not held. A list asked about again is
  /// indexed; one passed once is scanned, which costs no more.
  std::unordered_set<JoinedKey, JoinedKeyHash> seen_once;
  Value scratch;  // a value not worth remembering (the budget ran out)
};

}  // namespace capops::eval
