// SPDX-License-Identifier: Apache-2.0
// Reading a loop's fact items ahead of the loop, so that their cache
// misses overlap: performance machinery of the evaluator.
#pragma once

#include <cstddef>

#include "engine/common/value.h"

namespace capops::eval {

/// Reads a loop's items ahead (Value::Prefetch). A loop over `items` (a
/// list's, or a join's candidates side by side) calls Step(k) before it
/// reads item k: the record of the item kFar places ahead starts
/// loading, and the parts of the one kNear places ahead, whose record has
/// arrived by then. Over facts larger than the processor's cache the loop
/// then waits for several items' cache misses at once instead of for each
/// in turn; over facts that fit the cache it costs a few instructions an
/// item (benchmarks/README.md has the figures).
class ReadAhead {
 public:
  explicit ReadAhead(ListView items) : items_(items) {
    for (size_t k = 0; k < kFar && k < items.size(); ++k) items_[k].Prefetch();
    for (size_t k = 0; k < kNear && k < items.size(); ++k) items_[k].PrefetchParts();
  }
  void Step(size_t k) const {
    if (k + kFar < items_.size()) items_[k + kFar].Prefetch();
    if (k + kNear < items_.size()) items_[k + kNear].PrefetchParts();
  }
  size_t count() const { return items_.size(); }
  /// The loop's item k (k < count()).
  const Value& Item(size_t k) const { return items_[k]; }

 private:
  // Chosen by measurement: nearer, the records have not arrived when their
  // parts are asked for; farther gained nothing.
  static constexpr size_t kFar = 6;
  static constexpr size_t kNear = 2;

  ListView items_;
};

}  // namespace capops::eval
