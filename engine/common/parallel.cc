// SPDX-License-Identifier: Apache-2.0
// ParallelFor over std::thread: a shared counter hands out task indexes.
#include "engine/common/parallel.h"

#include <atomic>
#include <thread>
#include <vector>

namespace capops {

size_t DefaultJobs() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

void ParallelFor(size_t n, size_t jobs, const std::function<void(size_t)>& task) {
  if (jobs <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) task(i);
    return;
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) task(i);
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < jobs && t < n; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
}

}  // namespace capops
