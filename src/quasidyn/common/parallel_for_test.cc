#include "quasidyn/common/parallel_for.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace quasidyn {
namespace {

TEST(ParallelFor, RunsEveryItemOnceOnWorkerItemModThreads) {
  for (int threads : {1, 2, 3, 8}) {
    const std::size_t count = 10;
    std::vector<int> runs(count, 0);
    std::vector<std::size_t> worker_of(count, 99);
    ParallelFor(count, threads, [&](std::size_t worker, std::size_t item) {
      ++runs[item];  // each item has its own slot: no sharing between workers
      worker_of[item] = worker;
    });
    for (std::size_t i = 0; i < count; ++i) {
      EXPECT_EQ(runs[i], 1) << "item " << i << ", threads " << threads;
      EXPECT_EQ(worker_of[i], i % threads) << "item " << i << ", threads " << threads;
    }
  }
}

TEST(ParallelFor, NoItemsRunNothing) {
  int calls = 0;
  ParallelFor(0, 4, [&](std::size_t, std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(ParallelFor, RethrowsTheLowestWorkersErrorAfterAllFinished) {
  std::vector<int> done(6, 0);
  try {
    ParallelFor(6, 2, [&](std::size_t, std::size_t item) {
      if (item == 3) throw std::runtime_error("item 3");
      if (item == 2) throw std::runtime_error("item 2");
      done[item] = 1;
    });
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "item 2");  // worker 0's, rethrown before worker 1's
  }
  EXPECT_EQ(done[0], 1);
  EXPECT_EQ(done[1], 1);
}

TEST(ParallelFor, RefusesFewerThanOneThread) {
  EXPECT_THROW(ParallelFor(3, 0, [](std::size_t, std::size_t) {}), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
