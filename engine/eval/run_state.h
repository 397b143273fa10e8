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

  Budget budget;
  PatternCache patterns;

 private:
  // Few modules run in one evaluation (the rule's and those of the
  // functions it calls): a short list, searched once per frame.
  struct ModuleHints {
    const check::ModuleTables* tables;
    std::vector<FieldHint> fields;  // its buffer stays put when the list grows
  };
  std::vector<ModuleHints> modules_;
};

}  // namespace capops::eval
