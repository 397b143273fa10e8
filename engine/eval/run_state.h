// SPDX-License-Identifier: Apache-2.0
// RunState: what one evaluation keeps while it runs (internal to
// engine/eval). The program, its plan and the facts are shared by every
// evaluation and never written; what an evaluation learns as it goes —
// its budget, the patterns it compiled, where it found fields — is kept
// here, by the evaluation that owns it, and goes with it.
//
// One RunState per rule and fact set (or per expression or param), made
// by the evaluation and shared with the frames of the functions it calls:
// one thread's alone, so nothing in it is atomic.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/check/checker.h"
#include "engine/common/value.h"
#include "engine/eval/budget.h"
#include "engine/eval/builtins.h"

namespace capops::eval {

class SharedIndexes;

/// Where lookups by id last found their items, per list and id string. The
/// facts that refer to an item (every allocation's `demand:`) mostly share
/// one string per text — the loader keeps one per file — so a lookup of the
/// same reference finds its hint again. A few hundred are kept, a newer one
/// taking an older one's place: what one item's rules look up is looked up
/// again while it is still there. A hint is checked where it points, so
/// one left by a list or string since freed costs a lookup, never a wrong
/// item. One thread's alone.
class IdHints {
 public:
  IdHint* For(const Value& list, const Value& id) {
    if (slots_.empty()) slots_.resize(kSlots);
    uint64_t l = list.Identity().second;
    uint64_t i = id.Identity().second;
    uint64_t mixed = (l * 0x9E3779B97F4A7C15ull ^ i) * 0xC2B2AE3D27D4EB4Full;
    Slot& slot = slots_[static_cast<size_t>(mixed >> 40) & (kSlots - 1)];
    if (slot.list != l || slot.id != i) slot = Slot{l, i, IdHint{}};
    return &slot.hint;
  }

 private:
  static constexpr size_t kSlots = 512;
  struct Slot {
    uint64_t list = 0;  // the identities of the list and of the id string
    uint64_t id = 0;
    IdHint hint;
  };
  std::vector<Slot> slots_;  // made on the first lookup
};

class RunState {
 public:
  RunState(uint64_t max_steps, uint64_t max_bytes) : budget(max_steps, max_bytes) {}
  RunState(const RunState&) = delete;
  RunState& operator=(const RunState&) = delete;

  /// One field hint per node of the module whose tables are `tables`
  /// (indexed by node id), made the first time that module is evaluated.
  FieldHint* FieldHints(const check::ModuleTables& tables) {
    for (ModuleHints& m : modules_) {
      if (m.tables == &tables) return m.fields.data();
    }
    modules_.push_back(ModuleHints{&tables, std::vector<FieldHint>(tables.symbols.size())});
    return modules_.back().fields.data();
  }

  /// Where the run last found the item of `list` whose id is the string
  /// `id`: Value::FindById's hint (see IdHints).
  IdHint* IdHintFor(const Value& list, const Value& id) { return id_hints_->For(list, id); }
  /// Shares `*hints` (one thread's, outliving this run) instead of its own:
  /// rules that visit the same items in one pass look up the same ids.
  void ShareIdHints(IdHints* hints) { id_hints_ = hints; }

  Budget budget;
  PatternCache patterns;
  /// The join indexes the call's rules share (null: each run builds its
  /// own). Not the run's: shared with the other rules of the call.
  SharedIndexes* shared_indexes = nullptr;
  /// What the run read (EvalResult::visited, index_probes, index_picked).
  uint64_t visited = 0;
  uint64_t index_probes = 0;
  uint64_t index_picked = 0;

 private:
  // Few modules run in one evaluation (the rule's and those of the
  // functions it calls): a short list, searched once per frame.
  struct ModuleHints {
    const check::ModuleTables* tables;
    std::vector<FieldHint> fields;  // its buffer stays put when the list grows
  };
  std::vector<ModuleHints> modules_;
  IdHints own_id_hints_;
  IdHints* id_hints_ = &own_id_hints_;
};

}  // namespace capops::eval
