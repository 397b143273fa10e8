// SPDX-License-Identifier: Apache-2.0
// SharedIndexes: one index per list, field and kind of join, built once per call.
#include "engine/eval/shared_indexes.h"

namespace capops::eval {

const JoinIndex& SharedIndexes::Get(const Value& list, Key field, bool membership,
                                    const std::function<std::unique_ptr<JoinIndex>()>& make) {
  auto [kind, bits] = list.Identity();
  Entry* entry;
  {
    std::lock_guard lock(mutex_);
    std::unique_ptr<Entry>& slot = entries_[Id{kind, bits, field.address(), membership}];
    if (slot == nullptr) {
      slot = std::make_unique<Entry>();
      slot->list = list;  // held: its identity stays its own while the entry lives
    }
    entry = slot.get();
  }
  // Built outside the map's lock: another index may be built meanwhile,
  // and a rule waiting for this one waits only for it.
  std::call_once(entry->built, [&] { entry->index = make(); });
  return *entry->index;
}

size_t SharedIndexes::size() {
  std::lock_guard lock(mutex_);
  size_t built = 0;
  for (const auto& [id, entry] : entries_) built += entry->index != nullptr;
  return built;
}

}  // namespace capops::eval
