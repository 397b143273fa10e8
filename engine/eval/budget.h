// SPDX-License-Identifier: Apache-2.0
// Budget: what one evaluation may spend, in steps (time) and in bytes
// (memory). Internal to engine/eval.
//
// A step is one expression evaluated. Work that grows with the length of
// its operands — scanning a string for `contains` or `matches`, copying
// strings into a concatenation, comparing or searching lists — costs one
// step more per kBytesPerStep bytes it reads or writes, so a rule's time is
// bounded by its steps whatever its strings hold.
//
// Bytes count every string, list and map the evaluation builds, never the
// facts it reads. They are charged before the value is built: a
// concatenation that would pass the budget is refused, not allocated.
// Values freed are not given back, so the count bounds both what the
// evaluation can hold at once and what it copies in all.
//
// Once either limit is reached the budget stays spent: every later Step()
// fails, so a rule stops at its next expression even where an error would
// be absorbed (`e || true`).
//
//   Budget budget(20'000'000, 256 << 20);
//   if (!budget.Allocate(StringBytes(a.size() + b.size()))) return budget.Error();
#pragma once

#include <algorithm>
#include <cstdint>

#include "engine/common/value.h"

namespace capops::eval {

class Budget {
 public:
  /// Bytes read or written that cost one step.
  static constexpr uint64_t kBytesPerStep = 64;

  Budget(uint64_t max_steps, uint64_t max_bytes)
      : limit_(max_steps), max_steps_(max_steps), max_bytes_(max_bytes) {}

  /// One expression evaluated; false once the budget is spent.
  bool Step() { return ++steps_ <= limit_; }
  /// `n` steps at once: false, and the budget spent, when they would pass it.
  bool Steps(uint64_t n) {
    if (n > limit_ - std::min(steps_, limit_)) return Spend();
    steps_ += n;
    return true;
  }
  /// Reading or writing `bytes` (a string scanned, items compared).
  bool Scan(uint64_t bytes) { return Steps(bytes / kBytesPerStep); }
  /// A value of `bytes` (StringBytes, ListBytes, MapBytes) is about to be
  /// built, and written: false, and the budget spent, when it would pass a
  /// limit. The value must then not be built.
  bool Allocate(uint64_t bytes) {
    if (bytes > max_bytes_ - bytes_) {
      memory_ = true;
      limit_ = 0;  // every later Step() fails
      return false;
    }
    bytes_ += bytes;
    return Scan(bytes);
  }
  /// Bytes that may still be allocated.
  uint64_t bytes_left() const { return max_bytes_ - bytes_; }
  /// Steps that may still be taken.
  uint64_t steps_left() const { return limit_ - std::min(steps_, limit_); }

  bool spent() const { return memory_ || steps_ > limit_; }
  /// Spent by bytes (`--max-memory`) rather than by steps (`--max-steps`).
  bool memory_spent() const { return memory_; }
  /// The error value an expression gives once the budget is spent.
  Value Error() const;
  /// What a rule error says to do about it.
  const char* Help() const;

  uint64_t steps() const { return steps_; }
  uint64_t bytes() const { return bytes_; }

 private:
  bool Spend() {
    if (limit_ != UINT64_MAX) steps_ = limit_ + 1;
    return limit_ == UINT64_MAX;
  }

  uint64_t steps_ = 0;
  uint64_t limit_;  // max_steps_, or 0 once the bytes are spent
  uint64_t max_steps_;
  uint64_t bytes_ = 0;
  uint64_t max_bytes_;
  bool memory_ = false;
};

/// What building a value costs, in bytes: about its heap block.
inline uint64_t StringBytes(uint64_t chars) {
  return 16 + chars;
}
inline uint64_t ListBytes(uint64_t items) {
  return 16 + 16 * items;
}
inline uint64_t MapBytes(uint64_t entries) {
  return 16 + 24 * entries;
}

/// An upper bound on the bytes of `v.ToString()` and on the work of
/// comparing `v` with another value, found without rendering it: every
/// string, key and item it holds, counted once per place it appears (a
/// list may hold one string many times). Stops counting past `limit` and
/// then returns more than `limit`; its own work is at most about that.
uint64_t Extent(const Value& v, uint64_t limit);

/// `v.ToString()`, charged to `budget` before it is built; false (and
/// `*out` untouched) when it would pass the budget.
bool Render(const Value& v, Budget* budget, std::string* out);

/// ChargeEquality of two lists or two maps.
bool ChargeDeepEquality(const Value& a, const Value& b, Budget* budget);

/// Charges the work of `a == b` (or of ordering them); false when the
/// budget is spent. Inline: every comparison of a rule passes here.
inline bool ChargeEquality(const Value& a, const Value& b, Budget* budget) {
  if (a.kind() != b.kind()) return true;
  if (a.is(ValueKind::kString)) {
    size_t n = a.string_value().size();  // at least the work
    return n < Budget::kBytesPerStep || budget->Scan(n);
  }
  if (!a.is(ValueKind::kList) && !a.is(ValueKind::kMap)) return true;
  return ChargeDeepEquality(a, b, budget);
}

/// `text` as a message quotes it: whole when short, else its first bytes
/// (cut on a character boundary) and "…", so an error about a string of
/// megabytes stays a line.
std::string Shown(std::string_view text);

}  // namespace capops::eval
