// SPDX-License-Identifier: Apache-2.0
// ParallelFor: runs independent tasks on up to `jobs` threads.
//
// Tasks are numbered 0…n-1 and taken in that order by whichever thread is
// free; each must write only its own results (say, slot `i` of a vector
// sized beforehand), so that merging them afterwards in index order gives
// the same output whatever the number of threads. With `jobs` ≤ 1 or a
// single task everything runs on the calling thread.
//
//   std::vector<Result> results(n);
//   ParallelFor(n, jobs, [&](size_t i) { results[i] = Work(i); });
#pragma once

#include <cstddef>
#include <functional>

namespace capops {

/// The threads to use by default: the cores available to this process.
size_t DefaultJobs();

void ParallelFor(size_t n, size_t jobs, const std::function<void(size_t)>& task);

}  // namespace capops
