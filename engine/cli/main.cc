// capops-lint: checks capacity plans against policy packs. See driver.h.
#include <malloc.h>

#include <iostream>

#include "engine/cli/driver.h"

int main(int argc, char** argv) {
  // A run builds one large tree of small blocks, takes it apart to build the
  // validated one, then evaluates over it from several threads. Two
  // allocator settings keep the memory it gives back usable (measured over
  // 22 MB of facts: peak RSS 93 MB without them, 89 MB with them, the same
  // time): one heap for all threads, so what the loading thread frees
  // serves the evaluating ones; and large blocks (lists of thousands of
  // items, index tables) mapped on their own from 128 KiB, and unmapped when
  // freed, rather than carved from the heap where they would leave holes.
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  return capops::cli::Run(argc, argv, std::cout, std::cerr);
}
