// Memo: what one evaluation remembers for the plan (internal to engine/eval):
// the values of loop-invariant expressions and the join indexes of lists.
// Facts and params do not change during an evaluation, so neither goes stale;
// a Memo lives as long as one rule's run over one fact set.
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/common/value.h"
#include "engine/plan/plan.h"

namespace capops::eval {

/// The items of a list grouped by the string a key expression gives each.
/// Items whose key is not a string (or not a list of strings, for a
/// membership join) are kept aside and are candidates for every probe.
class JoinIndex {
 public:
  /// `key_of(item)` evaluates the join's key for one item.
  template <typename KeyOf>
  JoinIndex(const Value& list, bool membership, KeyOf key_of) : list_(list) {
    ListView items = list_.items();
    for (uint32_t i = 0; i < items.size(); ++i) Add(i, key_of(items[i]), membership);
  }
  /// The positions of the items that may match `probe`, in list order: a
  /// list held by the index, or `*scratch` filled in.
  const std::vector<uint32_t>& Candidates(std::string_view probe,
                                          std::vector<uint32_t>* scratch) const;
  /// Every item's key was a string (or list of strings): a candidate's key
  /// matches the probe, none is kept aside.
  bool exact() const { return residual_.empty(); }

 private:
  void Add(uint32_t item, const Value& key, bool membership);
  std::vector<uint32_t>& Slot(const Value& key);

  Value list_;
  std::vector<Value> keys_;  // own the strings `by_key_` views: one per distinct key
  std::unordered_map<std::string_view, std::vector<uint32_t>> by_key_;
  std::vector<uint32_t> residual_;
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
  std::unordered_map<const syntax::Expr*, Value> values;       // by remembered expression
  std::unordered_map<const syntax::Expr*, JoinIndex> indexes;  // by the join's key expression
  Value scratch;  // a value not worth remembering (the budget ran out)
};

}  // namespace capops::eval
