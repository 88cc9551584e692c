// Heap accounting for the worker: every allocation the process makes goes through here, because this
// file defines the whole malloc family (malloc, calloc, realloc, free, posix_memalign, aligned_alloc,
// memalign, valloc, pvalloc, reallocarray) and forwards to glibc's own entry points. Replacing operator
// new alone would miss xsimd's aligned allocator (posix_memalign), libgomp and C code.
//
// Sizes are what malloc_usable_size reports for each block (the request rounded up to glibc's chunk
// size), so a measured peak can exceed the bytes requested by a few bytes a block.
#pragma once

#include <cstdint>

namespace ladder::heap {

struct Window {
  std::int64_t peak_bytes;   // highest live heap above the level at start()
  std::int64_t allocations;  // allocation calls since start() (realloc counts as one)
  std::int64_t allocated_bytes;
};

// Starts a measurement window at the current live heap level.
void start();
// The window so far.
Window read();

// Live heap bytes right now (for tests).
std::int64_t live_bytes();

}  // namespace ladder::heap
