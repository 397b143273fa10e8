// SPDX-License-Identifier: Apache-2.0
// glibc's malloc settings for a lint. Entry point: SetAllocatorForLint.
#include "engine/eval/allocator.h"

#include <malloc.h>

namespace capops::eval {

void SetAllocatorForLint() {
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);  // blocks from 128 KiB are mapped on their own
}

}  // namespace capops::eval
