// SPDX-License-Identifier: Apache-2.0
// eval::ParamValues — the values of a rule set's params as its rules read
// them: one list, one value per check::Program::params, and for a rule given
// values of its own (a config's per-rule params) the whole list that rule
// reads instead. Whatever a rule evaluates reads its list, the functions it
// calls included.
//
//   eval::ParamValues values(eval::EvaluateParams(program, sources, &diags));
//   std::vector<Value> own = values.values();
//   own[2] = Value::Double(0.95);
//   values.SetRule(4, std::move(own));   // rule 4 reads 0.95, the others the default
//   eval::Evaluate(program, values, facts, sources, {});
//
// Immutable while evaluations read it; any number may read it at once.
#pragma once

#include <map>
#include <vector>

#include "engine/common/value.h"

namespace capops::eval {

class ParamValues {
 public:
  ParamValues() = default;
  /// Every rule reads `values` (implicit: a plain list is a rule set's values).
  ParamValues(std::vector<Value> values) : values_(std::move(values)) {}  // NOLINT

  /// The values every rule without values of its own reads.
  const std::vector<Value>& values() const { return values_; }
  /// What rule `rule` (an index into check::Program::rules) reads.
  const std::vector<Value>& For(size_t rule) const {
    auto it = by_rule_.find(rule);
    return it == by_rule_.end() ? values_ : it->second;
  }
  /// Every rule reads `value` for param `param`, its own values too.
  void SetEverywhere(size_t param, const Value& value) {
    values_[param] = value;
    for (auto& [rule, values] : by_rule_) values[param] = value;
  }
  /// Rule `rule` reads `values` (a whole list) instead.
  void SetRule(size_t rule, std::vector<Value> values) { by_rule_[rule] = std::move(values); }

 private:
  std::vector<Value> values_;
  std::map<size_t, std::vector<Value>> by_rule_;
};

}  // namespace capops::eval
