// The worker's heap accounting sees every allocation path, not only operator new.
#include "heap_counter.hpp"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdlib>
#include <vector>

namespace ladder {
namespace {

constexpr std::int64_t megabyte = 1 << 20;

TEST(HeapCounter, CountsEveryMemberOfTheMallocFamily) {
  heap::start();
  void* aligned = nullptr;
  ASSERT_EQ(posix_memalign(&aligned, 64, megabyte), 0);  // xsimd's aligned_allocator
  void* c11 = std::aligned_alloc(64, megabyte);
  void* zeroed = std::calloc(megabyte, 1);
  void* plain = std::malloc(megabyte);
  plain = std::realloc(plain, 2 * megabyte);
  const heap::Window window = heap::read();
  EXPECT_EQ(window.allocations, 5);
  EXPECT_GE(window.peak_bytes, 5 * megabyte);
  EXPECT_LT(window.peak_bytes, 5 * megabyte + 64 * 1024);
  for (void* pointer : {aligned, c11, zeroed, plain}) std::free(pointer);
}

TEST(HeapCounter, PeakIsTheHighestLevelNotTheTotal) {
  heap::start();
  const std::int64_t level = heap::live_bytes();
  for (int round = 0; round < 4; ++round) {
    std::vector<char> block(megabyte);
    block[0] = 1;
  }
  const heap::Window window = heap::read();
  EXPECT_EQ(window.allocations, 4);
  EXPECT_GE(window.peak_bytes, megabyte);
  EXPECT_LT(window.peak_bytes, 2 * megabyte) << "one block at a time";
  EXPECT_GE(window.allocated_bytes, 4 * megabyte);
  EXPECT_EQ(heap::live_bytes(), level) << "everything given back";
}

}  // namespace
}  // namespace ladder
