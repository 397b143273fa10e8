// JoinIndex: the hash side of the planner's joins (see plan.h).
#include "engine/eval/memo.h"

#include <algorithm>
#include <iterator>

namespace capops::eval {

// The index views the string of the first key of each text; keys_ holds
// that one (not every item's), so the view outlives the evaluation.
std::vector<uint32_t>& JoinIndex::Slot(const Value& key) {
  auto [it, inserted] = by_key_.try_emplace(key.string_value());
  if (inserted) keys_.push_back(key);
  return it->second;
}

void JoinIndex::Add(uint32_t item, const Value& key, bool membership) {
  if (key.is(ValueKind::kString) && !membership) {
    Slot(key).push_back(item);
    return;
  }
  if (!membership || !key.is(ValueKind::kList) ||
      !std::all_of(key.items().begin(), key.items().end(),
                   [](const Value& v) { return v.is(ValueKind::kString); })) {
    residual_.push_back(item);  // compared the slow way, by the condition itself
    return;
  }
  for (const Value& element : key.items()) {
    std::vector<uint32_t>& slot = Slot(element);
    if (slot.empty() || slot.back() != item)
      slot.push_back(item);  // a repeated element counts once
  }
}

const std::vector<uint32_t>& JoinIndex::Candidates(std::string_view probe,
                                                   std::vector<uint32_t>* scratch) const {
  static const std::vector<uint32_t> kNone;
  auto it = by_key_.find(probe);
  const std::vector<uint32_t>& hits = it == by_key_.end() ? kNone : it->second;
  if (residual_.empty()) return hits;
  scratch->clear();
  std::merge(hits.begin(), hits.end(), residual_.begin(), residual_.end(),
             std::back_inserter(*scratch));
  return *scratch;
}

}  // namespace capops::eval
