// Tiers that misbehave on purpose, linked only into the test binary `ladder_with_fault_tiers`: the harness
// must record each failure as that cell's status, with its reason, and carry on with the other cells.
#include <sys/mman.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tier.hpp"

namespace {

double midpoint_sum(auto f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  double sum = 0;
  for (std::int64_t i = 0; i < n; ++i) sum += f(ab.a + (static_cast<double>(i) + 0.5) * step);
  return sum * step;
}

ladder::TierCard card(const char* id, int rung, const char* summary) {
  return {.id = id,
          .rung = rung,
          .summary = summary,
          .summation = "one accumulator, in order",
          .summation_depth = ladder::sequential_depth};
}

const ladder::Registration crashes{card("crashes", 100, "test only: dies of SIGSEGV"),
                                   [](auto, ladder::Interval, std::int64_t, const ladder::RunOptions&) {
                                     std::raise(SIGSEGV);
                                     return 0.0;
                                   }};

// Asks for 1 GiB after 1 GiB and never gives any back (without touching it, so the test cannot push the
// machine into swapping): the worker's memory limit stops it.
const ladder::Registration unbounded{card("unbounded", 101, "test only: allocates without bound"),
                                     [](auto, ladder::Interval, std::int64_t, const ladder::RunOptions&) {
                                       std::vector<std::unique_ptr<char[]>> hoard;
                                       for (;;) hoard.emplace_back(new char[std::size_t{1} << 30]);
                                       return 0.0;
                                     }};

const ladder::Registration hangs{card("hangs", 102, "test only: never returns"),
                                 [](auto, ladder::Interval, std::int64_t, const ladder::RunOptions&) {
                                   for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
                                   return 0.0;
                                 }};

// Correct, but 20 ms a call whatever n is: a run of these takes a predictable while.
const ladder::Registration slow{card("slow", 103, "test only: correct, 20 ms a call"),
                                [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
                                  std::this_thread::sleep_for(std::chrono::milliseconds(20));
                                  return midpoint_sum(f, ab, n);
                                }};

// Correct, and as slow as $LADDER_TEST_DELAY_US microseconds a call: scripts/bench-compare-slowdown runs it
// at two delays to show `ladder compare` finds a real slowdown end to end (a timing, so outside ctest).
const ladder::Registration delayed{
    card("delayed", 106, "test only: sleeps $LADDER_TEST_DELAY_US a call"),
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      const char* delay = std::getenv("LADDER_TEST_DELAY_US");
      std::this_thread::sleep_for(std::chrono::microseconds(delay ? std::atoi(delay) : 1000));
      return midpoint_sum(f, ab, n);
    }};

// The worker's two ways to report a failure: the kernel throws (the worker writes the cell as failed, with
// the exception's words), or the worker exits without writing a result.
const ladder::Registration throws{
    card("throws", 107, "test only: the kernel throws"),
    [](auto, ladder::Interval, std::int64_t, const ladder::RunOptions&) -> double {
      throw std::runtime_error("a test tier that always throws");
    }};
const ladder::Registration exits{
    card("exits", 108, "test only: the worker exits with code 3"),
    [](auto, ladder::Interval, std::int64_t, const ladder::RunOptions&) -> double { std::_Exit(3); }};

// Correct, and touches 64 MiB of pages it maps afresh each call (small pages: no transparent huge page
// folds 512 faults into one), then gives them back: a call that must show at least one minor fault a page.
constexpr std::size_t fresh_bytes = std::size_t{64} << 20;
const ladder::Registration fresh_pages{
    card("fresh-pages", 109, "test only: touches 64 MiB of fresh pages a call"),
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      void* pages = mmap(nullptr, fresh_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (pages == MAP_FAILED) throw std::bad_alloc();
      madvise(pages, fresh_bytes, MADV_NOHUGEPAGE);
      std::memset(pages, 1, fresh_bytes);
      munmap(pages, fresh_bytes);
      return midpoint_sum(f, ab, n);
    }};

std::string nowhere_reason() { return "a test tier that runs nowhere"; }

ladder::TierCard nowhere_card() {
  auto result = card("nowhere", 104, "test only: never available");
  result.unavailable = nowhere_reason;
  return result;
}
const ladder::Registration nowhere{
    nowhere_card(), [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return midpoint_sum(f, ab, n);
    }};

// Parallel, and its last bit depends on the thread count, as an unordered reduction's may.
ladder::TierCard thread_dependent_card() {
  auto result = card("thread-dependent", 105, "test only: the last bit depends on the thread count");
  result.parallel = true;
  result.reproducible = ladder::Reproducible::never;
  result.summation_depth = [](std::int64_t n, int threads) { return static_cast<double>(n + 8 * threads); };
  return result;
}
const ladder::Registration thread_dependent{
    thread_dependent_card(),
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions& options) {
      const double sum = midpoint_sum(f, ab, n);
      return sum * (1 + options.threads * 0x1p-52);
    }};

}  // namespace
