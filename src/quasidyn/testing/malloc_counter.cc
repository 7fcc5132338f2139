#include "quasidyn/testing/malloc_counter.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {

std::atomic<long> g_allocations{0};  // allocations while at least one counter is alive
std::atomic<int> g_active_counters{0};

inline void Count() {
  if (g_active_counters.load(std::memory_order_relaxed) > 0)
    g_allocations.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

#ifndef QUASIDYN_NO_MALLOC_COUNTING
// glibc's own allocator entry points; the definitions below replace the public names for the
// whole process and forward to these.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* pointer);

void* malloc(std::size_t size) {
  Count();
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  Count();
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  Count();
  return __libc_realloc(pointer, size);
}
void* memalign(std::size_t alignment, std::size_t size) {
  Count();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  Count();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  Count();
  void* pointer = __libc_memalign(alignment, size);
  if (pointer == nullptr) return 12;  // ENOMEM
  *out = pointer;
  return 0;
}
void free(void* pointer) { __libc_free(pointer); }
}  // extern "C"
#endif

namespace quasidyn::testing {

bool MallocCountingAvailable() {
#ifdef QUASIDYN_NO_MALLOC_COUNTING
  return false;
#else
  return true;
#endif
}

MallocCounter::MallocCounter() {
  start_ = g_allocations.load();
  g_active_counters.fetch_add(1);
}

MallocCounter::~MallocCounter() { g_active_counters.fetch_sub(1); }

long MallocCounter::count() const { return g_allocations.load() - start_; }

}  // namespace quasidyn::testing
