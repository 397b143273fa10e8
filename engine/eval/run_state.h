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
  /// `id`: Value::FindById's hint. The facts that refer to an item (every
  /// allocation's `demand:`) mostly share one string per text — the loader
  /// keeps one per file — so a lookup of the same reference finds its hint
  /// again. Hints are kept per list and string, a few thousand at most, a
  /// newer one taking an older one's place. A hint is checked where it
  /// points, so one left by a list or string since freed costs a lookup,
  /// never a wrong item.
  IdHint* IdHintFor(const Value& list, const Value& id) {
    if (id_hints_.empty()) id_hints_.resize(kIdHints);
    uint64_t l = list.Identity().second;
    uint64_t i = id.Identity().second;
    uint64_t mixed = (l * 0x9E3779B97F4A7C15ull ^ i) * 0xC2B2AE3D27D4EB4Full;
    IdHintSlot& slot = id_hints_[static_cast<size_t>(mixed >> 40) & (kIdHints - 1)];
    if (slot.list != l || slot.id != i) slot = IdHintSlot{l, i, IdHint{}};
    return &slot.hint;
  }

  Budget budget;
  PatternCache patterns;

 private:
  static constexpr size_t kIdHints = 4096;
  struct IdHintSlot {
    uint64_t list = 0;  // the identities of the list and of the id string
    uint64_t id = 0;
    IdHint hint;
  };

  // Few modules run in one evaluation (the rule's and those of the
  // functions it calls): a short list, searched once per frame.
  struct ModuleHints {
    const check::ModuleTables* tables;
    std::vector<FieldHint> fields;  // its buffer stays put when the list grows
  };
  std::vector<ModuleHints> modules_;
  std::vector<IdHintSlot> id_hints_;  // made on the first lookup by id
};

}  // namespace capops::eval
