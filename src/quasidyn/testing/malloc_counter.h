#pragma once
// Counts the heap allocations made while an object of this class is alive (Drake's
// LimitMalloc, for tests): the hot paths of quasidyn (a solver's Solve, a step model's Calc
// after warm-up) must not allocate, and a test asserts it:
//
//   {
//     MallocCounter counter;
//     model.Calc(state, u, data.get());
//     EXPECT_EQ(counter.count(), 0);
//   }
//
// Every call of malloc, calloc, realloc, aligned_alloc, posix_memalign, memalign and of the
// global operator new in this process (from any thread, any library) counts, so the counts
// include Eigen's and the standard library's allocations. The counting works by
// defining those functions in the test executable (they forward to glibc's __libc_* entry
// points). Under AddressSanitizer (QUASIDYN_NO_MALLOC_COUNTING) the sanitizer owns malloc, so
// counting is off: MallocCountingAvailable() is false and tests skip their allocation checks.

namespace quasidyn::testing {

// False in sanitizer builds (see above).
bool MallocCountingAvailable();

class MallocCounter {
 public:
  MallocCounter();   // starts counting (counters nest: each sees the allocations in its scope)
  ~MallocCounter();  // stops
  MallocCounter(const MallocCounter&) = delete;
  MallocCounter& operator=(const MallocCounter&) = delete;

  // Allocations since construction (always 0 when counting is unavailable).
  long count() const;

 private:
  long start_;
};

}  // namespace quasidyn::testing
