// SPDX-License-Identifier: Apache-2.0
// Sweeps over what supply holds and allocations take (repair.h): the
// earliest start a move fits at (EarliestFit), the least left free over a
// window (LeastFree). Both walk one sorted list of changes.
#include <algorithm>

#include "engine/repair/repair.h"

namespace capops::repair {

namespace {

int64_t Add(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

// Calls `step(from, to, free)` for each stretch [from, to) over which what
// `supply` holds minus what `taken` takes stays `free`, in time order from
// the far past to the far future, until it returns false. O(n log n).
template <typename Step>
void ForEachStep(const std::vector<Held>& supply, const std::vector<Held>& taken, Step step) {
  // The changes of what is free, by time; what holds from all time on is
  // free from the start.
  int64_t level = 0;
  std::vector<std::pair<int64_t, int64_t>> changes;
  auto add = [&](const Held& h, int64_t sign) {
    if (h.from >= h.to || h.gpus == 0) return;
    if (h.from == INT64_MIN) {
      level = Add(level, sign * h.gpus);
    } else {
      changes.push_back({h.from, sign * h.gpus});
    }
    if (h.to != INT64_MAX) changes.push_back({h.to, -sign * h.gpus});
  };
  for (const Held& h : supply) add(h, 1);
  for (const Held& h : taken) add(h, -1);
  std::sort(changes.begin(), changes.end());
  int64_t at = INT64_MIN;
  for (size_t i = 0;;) {
    int64_t next = i < changes.size() ? changes[i].first : INT64_MAX;
    if (next > at) {
      if (!step(at, next, level)) return;
      at = next;
    }
    if (i == changes.size()) return;
    // Saturated rather than wrapped: amounts past int64 are hostile input,
    // and what the sweep then says the relint judges.
    for (; i < changes.size() && changes[i].first == at; ++i) level = Add(level, changes[i].second);
  }
}

}  // namespace

std::optional<int64_t> EarliestFit(const std::vector<Held>& supply, const std::vector<Held>& taken,
                                   int64_t gpus, int64_t duration, int64_t earliest,
                                   int64_t latest) {
  if (duration <= 0 || earliest == INT64_MIN || earliest > latest - duration) return std::nullopt;
  // A run of steps with `gpus` free from `run` on fits at its first start
  // inside the window.
  std::optional<int64_t> fit;
  bool in_run = false;
  int64_t run = 0;
  ForEachStep(supply, taken, [&](int64_t at, int64_t next, int64_t level) {
    if (level < gpus) {
      in_run = false;
      return true;
    }
    if (!in_run) run = at;
    in_run = true;
    int64_t candidate = std::max(run, earliest);
    if (candidate > latest - duration) return false;
    if (next >= candidate + duration) fit = candidate;
    return !fit;
  });
  return fit;
}

int64_t LeastFree(const std::vector<Held>& supply, const std::vector<Held>& taken, int64_t from,
                  int64_t to) {
  int64_t least = INT64_MAX;
  ForEachStep(supply, taken, [&](int64_t at, int64_t next, int64_t level) {
    if (at >= to) return false;
    if (next > from) least = std::min(least, level);
    return true;
  });
  return least;
}

}  // namespace capops::repair
