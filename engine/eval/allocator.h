// SPDX-License-Identifier: Apache-2.0
// The process's memory allocator, set for linting when it is glibc's
// malloc (a build with CAPOPS_MALLOC=system). capops-lint links jemalloc by
// default (CMakeLists.txt), whose threads' arenas and return of freed
// memory need no setting: there these calls change nothing.
//
// A lint builds one large tree of small blocks, takes it apart to build the
// validated one, then evaluates over it from several threads. Two settings
// keep the memory it gives back usable: one heap for all threads, so what
// the loading thread frees serves the evaluating ones; and large blocks
// (lists of thousands of items, index tables) mapped on their own and
// unmapped when freed, rather than carved from the heap where they would
// leave holes. benchmarks/README.md has the peak-memory figures.
#pragma once

namespace capops::eval {

/// Applies both settings. For a program's main(), before any thread starts;
/// a library embedding the engine leaves the allocator to its host.
void SetAllocatorForLint();

}  // namespace capops::eval
