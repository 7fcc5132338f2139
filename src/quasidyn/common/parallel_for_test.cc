#include "quasidyn/common/parallel_for.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace quasidyn {
namespace {

TEST(ParallelFor, RunsEveryItemOnceEachWorkerInIncreasingOrder) {
  for (int threads : {1, 2, 3, 8}) {
    const std::size_t count = 10;
    std::vector<int> runs(count, 0);
    std::vector<std::size_t> worker_of(count, 99);
    ParallelFor(count, threads, [&](std::size_t worker, std::size_t item) {
      ++runs[item];  // each item has its own slot: no sharing between workers
      worker_of[item] = worker;
    });
    std::vector<std::size_t> last_item_of(threads, count);
    for (std::size_t i = 0; i < count; ++i) {
      EXPECT_EQ(runs[i], 1) << "item " << i << ", threads " << threads;
      ASSERT_LT(worker_of[i], static_cast<std::size_t>(threads)) << "item " << i;
      std::size_t& last = last_item_of[worker_of[i]];
      EXPECT_TRUE(last == count || last < i) << "item " << i << " after item " << last;
      last = i;
    }
  }
}

// Item 0 waits until every other item is done: only a worker that takes the next free item
// (not a fixed share of the items) lets the other worker run items 1 … 9 meanwhile. A fixed
// assignment would leave items 2, 4, … behind item 0 on worker 0: item 0 then gives up after
// its wait and the check fails (it does not hang).
TEST(ParallelFor, AnIdleWorkerTakesTheItemsABusyOneHasNotStarted) {
  const std::size_t count = 10;
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t others_done = 0;
  bool item0_saw_all = false;
  ParallelFor(count, 2, [&](std::size_t, std::size_t item) {
    std::unique_lock<std::mutex> lock(mutex);
    if (item == 0) {
      item0_saw_all = changed.wait_for(lock, std::chrono::seconds(20),
                                       [&] { return others_done == count - 1; });
    } else {
      ++others_done;
      changed.notify_all();
    }
  });
  EXPECT_TRUE(item0_saw_all);
}

TEST(ParallelFor, NoItemsRunNothing) {
  int calls = 0;
  ParallelFor(0, 4, [&](std::size_t, std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(ParallelFor, RethrowsTheLowestFailedItemsErrorAfterAllFinished) {
  for (int threads : {1, 2, 3}) {
    std::vector<int> done(6, 0);
    try {
      ParallelFor(6, threads, [&](std::size_t, std::size_t item) {
        if (item == 3) throw std::runtime_error("item 3");
        if (item == 2) throw std::runtime_error("item 2");
        done[item] = 1;
      });
      FAIL() << "expected an exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "item 2") << threads << " threads";  // the lowest, whatever ran first
    }
    EXPECT_EQ(done[0], 1);  // the items below a failed one all run
    EXPECT_EQ(done[1], 1);
  }
}

TEST(ParallelFor, RefusesFewerThanOneThread) {
  EXPECT_THROW(ParallelFor(3, 0, [](std::size_t, std::size_t) {}), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
