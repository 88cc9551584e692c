#include "heap_counter.hpp"

#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>

// glibc's own implementations, which stay reachable under these names when the program defines malloc.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* pointer);
}

namespace {

std::atomic<std::int64_t> live{0};
std::atomic<std::int64_t> peak{0};
std::atomic<std::int64_t> window_base{0};
std::atomic<std::int64_t> allocation_count{0};
std::atomic<std::int64_t> allocated{0};

void note_allocation(void* pointer) {
  if (!pointer) return;
  const auto size = static_cast<std::int64_t>(malloc_usable_size(pointer));
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  allocated.fetch_add(size, std::memory_order_relaxed);
  const std::int64_t now = live.fetch_add(size, std::memory_order_relaxed) + size;
  std::int64_t seen = peak.load(std::memory_order_relaxed);
  while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}

void note_release(void* pointer) {
  if (pointer)
    live.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(pointer)), std::memory_order_relaxed);
}

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

bool power_of_two(std::size_t value) { return value != 0 && (value & (value - 1)) == 0; }

}  // namespace

namespace ladder::heap {

void start() {
  const std::int64_t now = live.load();
  window_base.store(now);
  peak.store(now);
  allocation_count.store(0);
  allocated.store(0);
}

Window read() { return {peak.load() - window_base.load(), allocation_count.load(), allocated.load()}; }

std::int64_t live_bytes() { return live.load(); }

}  // namespace ladder::heap

extern "C" {

void* malloc(std::size_t size) noexcept {
  void* pointer = __libc_malloc(size);
  note_allocation(pointer);
  return pointer;
}

void* calloc(std::size_t count, std::size_t size) noexcept {
  void* pointer = __libc_calloc(count, size);
  note_allocation(pointer);
  return pointer;
}

void* realloc(void* old, std::size_t size) noexcept {
  const auto old_size = old ? static_cast<std::int64_t>(malloc_usable_size(old)) : 0;
  void* pointer = __libc_realloc(old, size);
  if (!pointer) return pointer;  // old is still allocated (or size was 0 and old was freed: rare, uncounted)
  live.fetch_sub(old_size, std::memory_order_relaxed);
  note_allocation(pointer);
  return pointer;
}

void* reallocarray(void* old, std::size_t count, std::size_t size) noexcept {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(old, bytes);
}

void free(void* pointer) noexcept {
  note_release(pointer);
  __libc_free(pointer);
}

void* memalign(std::size_t alignment, std::size_t size) noexcept {
  void* pointer = __libc_memalign(alignment, size);
  note_allocation(pointer);
  return pointer;
}

int posix_memalign(void** result, std::size_t alignment, std::size_t size) noexcept {
  if (!power_of_two(alignment) || alignment % sizeof(void*) != 0) return EINVAL;
  void* pointer = __libc_memalign(alignment, size);
  if (!pointer) return ENOMEM;
  note_allocation(pointer);
  *result = pointer;
  return 0;
}

void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept { return memalign(alignment, size); }

void* valloc(std::size_t size) noexcept { return memalign(page_size(), size); }

void* pvalloc(std::size_t size) noexcept {
  const std::size_t page = page_size();
  return memalign(page, (size + page - 1) / page * page);
}

}  // extern "C"
