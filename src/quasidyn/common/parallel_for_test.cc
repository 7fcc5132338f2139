#include "quasidyn/common/parallel_for.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace quasidyn {
namespace {

// Every item once, on a worker below T. Each worker owns a contiguous share of the items
// (share w of S = min(T, n) is [w·n/S, (w+1)·n/S)) and takes it from the front, in increasing
// order; the others take a share's items from its back: so the items its owner ran are a
// prefix of the share, and every other worker takes one share's items in decreasing order.
TEST(ParallelFor, RunsEveryItemOnceEachOwnSharesFrontTheOthersFromTheBack) {
  for (int threads : {1, 2, 3, 8}) {
    for (int call = 0; call < 50; ++call) {
      const std::size_t count = 10;
      std::vector<int> runs(count, 0);
      std::vector<std::size_t> worker_of(count, 99);
      std::vector<std::vector<std::size_t>> sequence(threads);  // each worker's items in order
      ParallelFor(count, threads, [&](std::size_t worker, std::size_t item) {
        ++runs[item];  // each item and each worker has its own slot: no sharing
        worker_of[item] = worker;
        sequence[worker].push_back(item);
      });
      const std::size_t shares = std::min<std::size_t>(threads, count);
      for (std::size_t k = 0; k < shares; ++k) {
        const std::size_t begin = k * count / shares, end = (k + 1) * count / shares;
        std::size_t front = begin;  // the owner's items: begin, begin + 1, ... in its sequence
        for (const std::size_t i : sequence[k]) {
          if (i >= begin && i < end) {
            ASSERT_EQ(i, front++) << threads << " threads, share " << k;
          }
        }
        for (std::size_t i = front; i < end; ++i) {
          EXPECT_NE(worker_of[i], k) << "item " << i << " of share " << k << " after its owner's "
                                     << "prefix, " << threads << " threads";
        }
      }
      const auto share_of = [&](std::size_t i) {
        std::size_t k = 0;
        while ((k + 1) * count / shares <= i) ++k;
        return k;
      };
      for (std::size_t w = 0; w < sequence.size(); ++w) {  // others' items: from their backs
        std::vector<std::size_t> last(shares, count);
        for (const std::size_t i : sequence[w]) {
          const std::size_t k = share_of(i);
          if (k == w) continue;
          EXPECT_LT(i, last[k]) << "worker " << w << " took item " << i << " of share " << k
                                << " after item " << last[k] << ", " << threads << " threads";
          last[k] = i;
        }
      }
      for (std::size_t i = 0; i < count; ++i) {
        EXPECT_EQ(runs[i], 1) << "item " << i << ", threads " << threads;
        ASSERT_LT(worker_of[i], static_cast<std::size_t>(threads)) << "item " << i;
      }
    }
  }
}

// Two workers that run in lockstep (each item waits, up to 20 s, until the other worker has
// started as many items as this one) keep to their own halves: worker 0 items 0 … 3, worker 1
// items 4 … 7, in every call. Items handed out from one shared counter would go to whichever
// worker came first, and the halves would mix.
TEST(ParallelFor, WorkersInStepKeepTheirOwnShareCallAfterCall) {
  const std::size_t count = 8;
  for (int call = 0; call < 20; ++call) {
    std::vector<std::size_t> worker_of(count, 99);
    std::mutex mutex;
    std::condition_variable changed;
    std::size_t started[2] = {0, 0};
    bool in_step = true;
    ParallelFor(count, 2, [&](std::size_t worker, std::size_t item) {
      std::unique_lock<std::mutex> lock(mutex);
      worker_of[item] = worker;
      const std::size_t mine = ++started[worker];
      changed.notify_all();
      in_step = changed.wait_for(lock, std::chrono::seconds(20), [&] {
        return started[1 - worker] >= mine;
      }) && in_step;
    });
    ASSERT_TRUE(in_step) << "call " << call;
    for (std::size_t i = 0; i < count; ++i) {
      EXPECT_EQ(worker_of[i], i < count / 2 ? 0u : 1u) << "call " << call << ", item " << i;
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

// Two items on 2 threads, each waiting (up to 20 s) until the other has started: true if they
// ran at the same time, on two threads; `helper` is the kernel's id of the thread that was
// worker 1 (unlike std::thread::id, not reused soon after a thread ends).
bool TwoItemsRanTogether(pid_t* helper) {
  std::mutex mutex;
  std::condition_variable changed;
  int started = 0;
  bool both = true;
  ParallelFor(2, 2, [&](std::size_t worker, std::size_t) {
    std::unique_lock<std::mutex> lock(mutex);
    if (worker == 1) *helper = gettid();
    ++started;
    changed.notify_all();
    both = changed.wait_for(lock, std::chrono::seconds(20), [&] { return started == 2; }) && both;
  });
  return both;
}

// Threads started per call would give every call a new worker 1; parked ones are reused (as many
// as the most threads asked for so far in this process: at most 7 in this file, or the CPUs + 1).
TEST(ParallelFor, TheOtherWorkersThreadsAreKeptBetweenCalls) {
  const int calls = 20;
  std::set<pid_t> helpers;
  for (int call = 0; call < calls; ++call) {
    pid_t helper = 0;
    ASSERT_TRUE(TwoItemsRanTogether(&helper));
    EXPECT_NE(helper, gettid());
    helpers.insert(helper);
  }
  EXPECT_LT(helpers.size(), static_cast<std::size_t>(calls));
}

// The caller waits for the other worker's last item by spinning for a while and then by
// blocking, and a parked thread spins between calls made in a loop: whichever way the wait
// ends, a call returns only once every item is done and its writes are seen. Worker 0 takes no
// item before worker 1 has started one (up to 20 s); worker 1's items sleep 0, 0.1 ms or 2 ms
// (shorter and longer than the spins) before writing a plain int: a call that returned early
// would leave a slot unwritten.
TEST(ParallelFor, ACallReturnsAfterTheOtherWorkersLastItemWhetherItWasShortOrLong) {
  const std::size_t count = 8;
  const int delays_us[] = {0, 100, 2000};
  int calls_with_both_workers = 0;
  for (int call = 0; call < 60; ++call) {
    std::vector<int> written(count, 0);
    std::atomic<bool> worker1_started{false};
    ParallelFor(count, 2, [&](std::size_t worker, std::size_t item) {
      if (worker == 1) {
        worker1_started.store(true);
        std::this_thread::sleep_for(std::chrono::microseconds(delays_us[call % 3]));
      } else {
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (!worker1_started.load() && std::chrono::steady_clock::now() < give_up) {
          std::this_thread::yield();
        }
      }
      written[item] = call + 1;
    });
    calls_with_both_workers += worker1_started.load();
    for (std::size_t i = 0; i < count; ++i) {
      ASSERT_EQ(written[i], call + 1) << "call " << call << ", item " << i;
    }
  }
  EXPECT_EQ(calls_with_both_workers, 60);
}

TEST(ParallelFor, ACallFromInsideAnItemRunsOnThreadsOfItsOwn) {
  std::vector<std::vector<int>> runs(4, std::vector<int>(5, 0));
  ParallelFor(4, 2, [&](std::size_t, std::size_t outer) {
    ParallelFor(5, 2, [&](std::size_t, std::size_t inner) { ++runs[outer][inner]; });
  });
  for (const std::vector<int>& inner : runs) {
    for (int count : inner) EXPECT_EQ(count, 1);
  }
}

TEST(ParallelFor, CallsFromTwoThreadsAtOnceEachRunTheirItems) {
  std::vector<std::atomic<int>> runs(2 * 200);
  auto call = [&](std::size_t first) {
    for (int repeat = 0; repeat < 20; ++repeat) {
      ParallelFor(10, 2, [&](std::size_t, std::size_t i) { ++runs[first + 10 * repeat + i]; });
    }
  };
  std::thread other(call, 200);
  call(0);
  other.join();
  for (const std::atomic<int>& count : runs) EXPECT_EQ(count.load(), 1);
}

// The parked threads of the parent do not exist in a fork()ed child: its call uses two threads
// all the same (the child exits 1 if its two items did not run at the same time).
TEST(ParallelFor, AForkedChildRunsItemsOnTwoThreads) {
  pid_t helper = 0;
  ASSERT_TRUE(TwoItemsRanTogether(&helper));  // the parent's thread is parked
  const pid_t child = fork();
  ASSERT_NE(child, -1);
  if (child == 0) {
    alarm(60);  // never hang the test run
    pid_t child_helper = 0;
    _exit(TwoItemsRanTogether(&child_helper) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
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

TEST(ParallelFor, RefusesFewerThanOneThreadAndTwoToThe32Items) {
  bool ran = false;
  const auto work = [&](std::size_t, std::size_t) { ran = true; };
  EXPECT_THROW(ParallelFor(3, 0, work), std::invalid_argument);
  try {
    ParallelFor(std::size_t{1} << 32, 2, work);
    ADD_FAILURE() << "2^32 items were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("count must be at most 2^32 - 1 (got 4294967296)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(ran);
}

double ProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// The tests of the parked threads' spin sleep kSleep and compare the process's CPU meanwhile
// with a tenth of it: a blocked thread's CPU is microseconds, a spinning one's most of the sleep.
constexpr std::chrono::milliseconds kSleep(100);
constexpr double kTenthOfTheSleep = 0.1 * std::chrono::duration<double>(kSleep).count();  // [s]

// Sets the spin back to the default when a test that changed it ends.
struct RestoreTheDefaultSpin {
  ~RestoreTheDefaultSpin() { SetParkedThreadSpin(kDefaultParkedThreadSpin); }
};

// The process's CPU time [s] while the caller sleeps for `sleep` (its parked threads' spins).
double CpuWhileTheCallerSleeps(std::chrono::milliseconds sleep) {
  const double start = ProcessCpuSeconds();
  std::this_thread::sleep_for(sleep);
  return ProcessCpuSeconds() - start;
}

// After a call a parked thread spins for the spin asked, then blocks. Measured by the process's
// CPU while its caller sleeps 100 ms: with no spin asked next to none; with a spin of 1 s asked,
// more than a tenth of the sleep (a CPU of its own, or a share of one on a loaded machine);
// asking for another spin stops it at once. The bound, a tenth of the sleep, is far from both: a
// blocked thread's CPU is microseconds, a spinning one's most of the sleep. (A spin of a few
// milliseconds is not measured so: in a KVM guest a spin of PAUSE instructions can make the host
// deschedule the virtual CPU, and that time is counted as stolen, not as the thread's CPU.)
TEST(ParallelFor, AParkedThreadSpinsAsLongAsAskedAndStopsWhenTheSpinChanges) {
  using std::chrono::microseconds;
  const RestoreTheDefaultSpin restore;
  pid_t helper = 0;
  SetParkedThreadSpin(microseconds(0));
  ASSERT_TRUE(TwoItemsRanTogether(&helper));
  EXPECT_LT(CpuWhileTheCallerSleeps(kSleep), kTenthOfTheSleep);
  SetParkedThreadSpin(std::chrono::seconds(1));
  EXPECT_EQ(ParkedThreadSpin().count(), 1000000);
  ASSERT_TRUE(TwoItemsRanTogether(&helper));
  EXPECT_GT(CpuWhileTheCallerSleeps(kSleep), kTenthOfTheSleep);
  SetParkedThreadSpin(microseconds(0));  // the spinning thread blocks, 0.9 s before its deadline
  EXPECT_LT(CpuWhileTheCallerSleeps(kSleep), kTenthOfTheSleep);
}

// The state of thread `tid` of this process from /proc (R running or runnable, S sleeping, ...);
// '?' when it cannot be read.
char ThreadState(pid_t tid) {
  std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return '?';
  const std::size_t end_of_name = line.rfind(')');  // "tid (name) S ..."
  return end_of_name == std::string::npos || end_of_name + 2 >= line.size() ? '?'
                                                                            : line[end_of_name + 2];
}

// By default a parked thread spins 4 ms after a call that came within 4 ms of the one before
// (kDefaultParkedThreadSpin), then blocks: right after the second of two calls made one after
// the other it is running, not asleep (the caller reads its state within microseconds of the
// call's end, far inside the 4 ms), and it sleeps within 1 s. With no spin it would be on its
// way to its block or asleep; SetParkedThreadSpin(0) is the other test's. On a loaded machine
// the caller itself can be descheduled for longer than the spin between the call and the read:
// such a try (call and read together longer than half the spin) says nothing and is repeated.
TEST(ParallelFor, ByDefaultAParkedThreadSpinsAfterACallThenBlocks) {
  ASSERT_EQ(ParkedThreadSpin(), kDefaultParkedThreadSpin);
  ASSERT_EQ(kDefaultParkedThreadSpin.count(), 4000);  // the value parallel_for.h documents
  pid_t helper = 0;
  bool read_within_the_spin = false;
  for (int attempt = 0; attempt < 100 && !read_within_the_spin; ++attempt) {
    ASSERT_TRUE(TwoItemsRanTogether(&helper));  // whatever came before it
    const auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(TwoItemsRanTogether(&helper));  // within 4 ms of the last
    const char state = ThreadState(helper);
    if (std::chrono::steady_clock::now() - start > kDefaultParkedThreadSpin / 2) continue;
    read_within_the_spin = true;
    EXPECT_EQ(state, 'R');
  }
  ASSERT_TRUE(read_within_the_spin) << "no call and read within 2 ms in 100 tries";
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (ThreadState(helper) != 'S' && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(ThreadState(helper), 'S');
}

// A parked thread spins after a call only when that call came within the spin after the one
// before: with a spin of 200 ms asked, a call 400 ms after the last (the thread spun 200 ms and
// blocked) is followed by no spin, and the next call, made at once, by a spin again. Measured as
// in the test above, by the process's CPU while the caller sleeps 100 ms, with its bound.
TEST(ParallelFor, AParkedThreadSpinsOnlyAfterACallItsSpinWouldHaveCaught) {
  const RestoreTheDefaultSpin restore;
  pid_t helper = 0;
  SetParkedThreadSpin(std::chrono::milliseconds(200));
  ASSERT_TRUE(TwoItemsRanTogether(&helper));
  std::this_thread::sleep_for(std::chrono::milliseconds(400));  // longer than the spin
  ASSERT_TRUE(TwoItemsRanTogether(&helper));                    // came after the spin ended
  EXPECT_LT(CpuWhileTheCallerSleeps(kSleep), kTenthOfTheSleep);
  ASSERT_TRUE(TwoItemsRanTogether(&helper));  // 100 ms after the last: within the spin
  EXPECT_GT(CpuWhileTheCallerSleeps(kSleep), kTenthOfTheSleep);
}

// A call with more workers than the machine has CPUs leaves its threads no spin after it (they
// would take CPUs the other workers need), whatever spin is asked: every worker of a call of
// hardware_concurrency() + 1 items, each waiting (up to 20 s) until all have started, joins it,
// and with a spin of 1 s asked the process then takes less CPU while its caller sleeps 100 ms
// than a tenth of the sleep (the other test's bound: one spinning thread takes most of it).
TEST(ParallelFor, ACallWithMoreWorkersThanCpusLeavesNoSpinAfterIt) {
  const RestoreTheDefaultSpin restore;
  const unsigned cpus = std::thread::hardware_concurrency();
  if (cpus == 0) GTEST_SKIP() << "the number of CPUs is unknown here";
  const std::size_t workers = cpus + 1;
  SetParkedThreadSpin(std::chrono::seconds(1));
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t started = 0;
  bool all = true;
  ParallelFor(workers, static_cast<int>(workers), [&](std::size_t, std::size_t) {
    std::unique_lock<std::mutex> lock(mutex);
    ++started;
    changed.notify_all();
    all =
        changed.wait_for(lock, std::chrono::seconds(20), [&] { return started == workers; }) && all;
  });
  ASSERT_TRUE(all) << "the " << workers << " workers did not all join the call";
  EXPECT_LT(CpuWhileTheCallerSleeps(kSleep), kTenthOfTheSleep);
}

TEST(ParallelFor, RefusesASpinOutsideZeroToOneSecond) {
  for (const long long us : {-1LL, 1000001LL}) {
    try {
      SetParkedThreadSpin(std::chrono::microseconds(us));
      ADD_FAILURE() << us << " µs was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("SetParkedThreadSpin"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("(got " + std::to_string(us) + " µs)"),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(ParkedThreadSpin(), kDefaultParkedThreadSpin);  // unchanged
  }
}

}  // namespace
}  // namespace quasidyn
