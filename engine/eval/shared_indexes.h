// SPDX-License-Identifier: Apache-2.0
// SharedIndexes: the join indexes that the rules of one call share.
//
// A join whose key is a field of the item (`b.pool` in
// `plan.allocations.filter(b, b.pool == a.pool)`) gives the same index of
// a list in every rule that joins the list on that field, so the rules of
// one lint call build it once between them. The store belongs to the call
// (Engine::Lint, eval::Evaluate): the facts are never written, and the
// indexes go when the call ends.
//
//   eval::SharedIndexes indexes;
//   eval::EvaluateRules(program, rules, params, facts, sources, options, &indexes);
//
// Thread-safety: rules running on several threads may ask at once; each
// index is built by the first to ask, while the others wait for it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "engine/common/value.h"
#include "engine/eval/memo.h"

namespace capops::eval {

class SharedIndexes {
 public:
  SharedIndexes() = default;
  SharedIndexes(const SharedIndexes&) = delete;
  SharedIndexes& operator=(const SharedIndexes&) = delete;

  /// The index of `list` by `field` (a membership join's, by the strings
  /// of the field's list, when `membership`), built by `make` the first
  /// time it is asked for. The store holds `list` as long as the index.
  const JoinIndex& Get(const Value& list, Key field, bool membership,
                       const std::function<std::unique_ptr<JoinIndex>()>& make);
  /// How many indexes were built (once no Get is running).
  size_t size();

 private:
  struct Entry {
    std::once_flag built;
    Value list;  // what the index borrows its items from
    std::unique_ptr<JoinIndex> index;
  };
  using Id =
      std::tuple<uint64_t, uint64_t, const std::string*, bool>;  // list identity, field, kind

  std::mutex mutex_;  // guards the map, not the building of its entries
  std::map<Id, std::unique_ptr<Entry>> entries_;
};

}  // namespace capops::eval
