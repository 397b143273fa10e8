// JoinIndex: the hash side of the planner's joins (see plan.h).
#include "engine/eval/memo.h"

#include <algorithm>
#include <iterator>

namespace capops::eval {

void JoinIndex::Add(uint32_t item, const Value& key, bool membership) {
  if (key.is(ValueKind::kString) && !membership) {
    keys_.push_back(key);
    by_key_[key.string_value()].push_back(item);
    return;
  }
  if (!membership || !key.is(ValueKind::kList) ||
      !std::all_of(key.items().begin(), key.items().end(),
                   [](const Value& v) { return v.is(ValueKind::kString); })) {
    residual_.push_back(item);  // compared the slow way, by the condition itself
    return;
  }
  keys_.push_back(key);
  for (const Value& element : key.items()) {
    std::vector<uint32_t>& slot = by_key_[element.string_value()];
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
