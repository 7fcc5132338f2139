#include "quasidyn/common/parallel_for.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

// One call's items: the next one not yet taken, the end (lowered to the lowest failed item),
// and that item's exception.
class ItemQueue {
 public:
  ItemQueue(std::size_t count,
            const std::function<void(std::size_t worker, std::size_t item)>& work)
      : work_(work), end_(count), failed_item_(count) {}

  // Runs items as worker w until none is left; returns how many it ran.
  std::size_t Drain(std::size_t w) {
    std::size_t ran = 0;
    for (std::size_t i = next_.fetch_add(1); i < end_.load(); i = next_.fetch_add(1), ++ran) {
      try {
        work_(w, i);
      } catch (...) {  // kept if it is the lowest so far; reported after every worker left
        const std::lock_guard<std::mutex> lock(failure_mutex_);
        if (i < failed_item_) {
          failed_item_ = i;
          failure_ = std::current_exception();
          end_.store(i);
        }
      }
    }
    return ran;
  }

  void StopTakingItems() { end_.store(0); }

  void RethrowFailure() const {
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  const std::function<void(std::size_t, std::size_t)>& work_;
  // next_ is written by every worker for every item; end_ and work_ are read as often but
  // written only on a failure: on cache lines of their own, a taken item does not also evict
  // the other worker's copy of end_ (64 bytes: the x86-64 line).
  alignas(64) std::atomic<std::size_t> next_{0};
  alignas(64) std::atomic<std::size_t> end_;
  std::mutex failure_mutex_;
  std::size_t failed_item_;
  std::exception_ptr failure_;
};

// Blocking on a condition variable and being woken from another CPU costs the process about
// 25–60 µs of CPU per round trip on the 2-vCPU KVM guest this was measured on, and the woken
// thread runs 12–28 µs after the wake (futex wait and wake, context switches, an
// inter-processor interrupt through the hypervisor; bench/thread_wake_bench.cc,
// docs/performance.md, "Threads"). A call blocks twice unless a wait catches the other
// thread by spinning: the other worker's wake and park, and the caller's wait for the other
// worker's last item. So a thread about to block spins for a while first, where the wait is
// likely to be short:
//
// * the caller, waiting for the other workers' last items, always (with items of equal cost
//   the other worker's last item ends about its start delay, 12–30 µs, after the caller's);
// * a parked thread, after a call, when the call came at most kIdleSpin after the previous
//   one left it (a caller making calls in a loop); it parks as before once a gap was longer.
//
// Each spin lasts at most about the cost of the block it may save, so a spin that catches
// nothing costs at most that block's cost again (and at most kTailSpin of CPU per call).
constexpr std::chrono::microseconds kTailSpin{50};
constexpr std::chrono::microseconds kIdleSpin{50};

// A pause in a spin-wait loop (x86 PAUSE): the core's other work goes first.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

using Clock = std::chrono::steady_clock;

// Spins while waiting() holds, until `deadline`.
template <typename Waiting>
void SpinWhile(const Waiting& waiting, Clock::time_point deadline) {
  for (;;) {
    for (int k = 0; k < 64; ++k) {  // the clock read once per 64 pauses (about 1 µs)
      if (!waiting()) return;
      CpuRelax();
    }
    if (Clock::now() > deadline) return;
  }
}

// Threads started once and parked (a condition variable) between calls. A call publishes its
// queue with a number of seats; parked threads that wake while seats are left take one (worker
// numbers 1, 2, …) and drain the queue. When the caller (worker 0) finds the queue empty it
// closes the call to threads that have not woken yet and waits only for those still running
// an item: a thread that the operating system has not run at all delays nothing. Both waits
// spin first (kTailSpin, kIdleSpin above).
class ParkedThreads {
 public:
  // Starts threads until there are `wanted`; throws std::system_error if one cannot start (the
  // ones started stay parked).
  void Grow(std::size_t wanted) {
    for (; started_ < wanted; ++started_) {
      std::thread([this] { Serve(); }).detach();  // parked until the process ends (SharedPool)
    }
  }

  // Drains `queue` on the calling thread and on up to `helpers` parked threads.
  void Run(ItemQueue& queue, std::size_t helpers) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      open_ = &queue;
      seats_ = helpers;
      joined_ = 0;
      published_.store(++call_);
    }
    wake_.notify_all();  // no system call when every thread is spinning, not waiting
    queue.Drain(0);
    const Clock::time_point drained = Clock::now();
    std::unique_lock<std::mutex> lock(mutex_);
    open_ = nullptr;  // no item is left: threads that wake from now on stay parked
    seats_ = 0;
    if (inside_.load() != 0) {
      lock.unlock();  // a worker leaves by decrementing inside_ after its last item: reading 0
      SpinWhile([this] { return inside_.load() != 0; }, drained + kTailSpin);  // sees its writes
      lock.lock();
    }
    left_.wait(lock, [this] { return inside_.load() == 0; });
  }

 private:
  void Serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    std::uint64_t served = 0;     // calls are numbered from 1: a new thread serves the open one
    bool calls_in_a_row = false;  // the last call came within kIdleSpin of the one before
    for (;;) {
      const auto open = [&] { return open_ != nullptr && seats_ > 0 && call_ != served; };
      const Clock::time_point left = Clock::now();
      if (calls_in_a_row && !open()) {
        lock.unlock();
        SpinWhile([&] { return published_.load() == served; }, left + kIdleSpin);
        lock.lock();
      }
      wake_.wait(lock, open);
      calls_in_a_row = served != 0 && Clock::now() - left <= kIdleSpin;
      served = call_;
      --seats_;
      const std::size_t worker = ++joined_;
      ++inside_;
      ItemQueue* queue = open_;
      lock.unlock();
      queue->Drain(worker);
      lock.lock();
      if (--inside_ == 0) left_.notify_one();  // no system call when the caller spins
    }
  }

  std::size_t started_ = 0;  // threads started (only the call using the pool starts them)
  std::mutex mutex_;
  std::condition_variable wake_;  // a call was published
  std::condition_variable left_;  // a thread left the call
  ItemQueue* open_ = nullptr;     // the call threads may join, or none
  std::size_t seats_ = 0;         // threads the open call still takes
  std::size_t joined_ = 0;        // threads that joined the open call
  std::uint64_t call_ = 0;        // calls published so far
  // Read by spinning threads without the mutex; changed under it.
  std::atomic<std::size_t> inside_{0};       // threads draining a call's queue
  std::atomic<std::uint64_t> published_{0};  // call_
};

// The process's parked threads, and whether a call is using them. One call at a time uses them;
// a call made meanwhile (from another thread, or from inside an item) starts threads of its own.
// A child process made by fork() has none of its parent's threads: it makes a pool of its own
// and leaves the parent's untouched. Pools are never destroyed, so a parked thread never
// outlives its pool; at exit the parked threads end with the process.
struct SharedPool {
  ParkedThreads threads;
  std::atomic<bool> busy{false};
};

SharedPool& ThisProcessPool() {
  static std::mutex mutex;
  static SharedPool* pool = nullptr;
  static pid_t owner = 0;
  const std::lock_guard<std::mutex> lock(mutex);
  if (pool == nullptr || owner != getpid()) {
    pool = new SharedPool;  // a forked child's inherited pool is left as it is
    owner = getpid();
  }
  return *pool;
}

// The call's own threads, started and joined here (the pool is in use).
void RunOnNewThreads(ItemQueue& queue, std::size_t helpers) {
  std::vector<std::thread> started;
  started.reserve(helpers);
  try {
    for (std::size_t w = 1; w <= helpers; ++w) {
      started.emplace_back([&queue, w] { queue.Drain(w); });
    }
  } catch (...) {  // a thread could not be started: finish the started ones, then report
    queue.StopTakingItems();
    for (std::thread& thread : started) thread.join();
    throw;
  }
  queue.Drain(0);
  for (std::thread& thread : started) thread.join();
}

}  // namespace

void ParallelFor(std::size_t count, int threads,
                 const std::function<void(std::size_t worker, std::size_t item)>& work) {
  QUASIDYN_CHECK_ARGUMENT(threads >= 1, "ParallelFor",
                          "threads must be >= 1 (got " + std::to_string(threads) + ")");
  const std::size_t workers = std::min(static_cast<std::size_t>(threads), count);
  ItemQueue queue(count, work);
  if (workers <= 1) {
    queue.Drain(0);
    queue.RethrowFailure();
    return;
  }
  const std::size_t helpers = workers - 1;
  SharedPool& pool = ThisProcessPool();
  if (pool.busy.exchange(true)) {
    RunOnNewThreads(queue, helpers);
  } else {
    struct Release {
      std::atomic<bool>& busy;
      ~Release() { busy.store(false); }
    } release{pool.busy};
    pool.threads.Grow(helpers);  // throws before any item ran if a thread cannot start
    pool.threads.Run(queue, helpers);
  }
  queue.RethrowFailure();
}

}  // namespace quasidyn
