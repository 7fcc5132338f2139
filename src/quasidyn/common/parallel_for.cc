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

// One call's items, cut into one share per worker (at most kMaxShares; worker w owns share
// w mod kMaxShares): share k is items [k·n/S, (k+1)·n/S) of n on S shares. A worker takes its
// own share's items from the front, one at a time; once its share is empty it takes the last
// item of the share with the most items left. With items of equal cost every worker keeps to
// its own share, so a caller that makes the same batch in a loop finds each item's outputs and
// state where the same worker left them in the last call (in its CPU's caches), and a late
// worker's share is eaten from the back by the others meanwhile. Each share's front and back
// are one 64-bit word (front in the low half, back in the high half) taken by compare and
// swap, so a front and a back taker never take the same item. The end is lowered to the lowest
// failed item; an item at or above it is taken and not run; the failed item's exception is kept.
class ItemQueue {
 public:
  static constexpr std::size_t kMaxShares = 8;  // kept in the queue: a call allocates nothing

  ItemQueue(std::size_t count, std::size_t workers,
            const std::function<void(std::size_t worker, std::size_t item)>& work)
      : work_(work),
        shares_(std::max<std::size_t>(1, std::min(workers, kMaxShares))),
        end_(count),
        failed_item_(count) {
    for (std::size_t k = 0; k < shares_; ++k) {
      share_[k].range.store(Pack(k * count / shares_, (k + 1) * count / shares_));
    }
  }

  // Runs items as worker w until none is left.
  void Drain(std::size_t w) {
    for (std::size_t i = 0; TakeOwn(w % shares_, &i) || TakeLast(&i);) {
      if (i >= end_.load()) continue;  // above a failed item: taken, not run
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
  }

  void StopTakingItems() { end_.store(0); }

  void RethrowFailure() const {
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  static std::uint64_t Pack(std::uint64_t front, std::uint64_t back) {
    return front | (back << 32);
  }
  static std::uint64_t Front(std::uint64_t range) { return range & 0xffffffffu; }
  static std::uint64_t Back(std::uint64_t range) { return range >> 32; }

  // The front item of share k into *i; false when the share is empty.
  bool TakeOwn(std::size_t k, std::size_t* i) {
    std::atomic<std::uint64_t>& range = share_[k].range;
    for (std::uint64_t r = range.load(); Front(r) < Back(r);) {
      if (range.compare_exchange_weak(r, Pack(Front(r) + 1, Back(r)))) {
        *i = Front(r);
        return true;
      }
    }
    return false;
  }

  // The last item of the share with the most items left into *i; false when all are empty.
  bool TakeLast(std::size_t* i) {
    for (;;) {
      std::size_t fullest = 0;
      std::uint64_t most = 0, seen = 0;
      for (std::size_t k = 0; k < shares_; ++k) {
        const std::uint64_t r = share_[k].range.load();
        if (Front(r) < Back(r) && Back(r) - Front(r) > most) {
          most = Back(r) - Front(r);
          fullest = k;
          seen = r;
        }
      }
      if (most == 0) return false;
      if (share_[fullest].range.compare_exchange_weak(seen, Pack(Front(seen), Back(seen) - 1))) {
        *i = Back(seen) - 1;
        return true;
      }  // another worker took from that share meanwhile: look again
    }
  }

  const std::function<void(std::size_t, std::size_t)>& work_;
  const std::size_t shares_;
  // Each share's word is written by its owner for every item; end_ and work_ are read as often
  // but written only on a failure: on cache lines of their own, a taken item does not also
  // evict the other workers' copies (64 bytes: the x86-64 line).
  struct alignas(64) Share {
    std::atomic<std::uint64_t> range{0};
  };
  Share share_[kMaxShares];
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
// Each of these spins lasts at most about the cost of the block it may save, so a spin that
// catches nothing costs at most that block's cost again (and at most kTailSpin of CPU per call).
// Beyond them a parked thread spins after a call for SetParkedThreadSpin's time (default
// kDefaultParkedThreadSpin, parallel_for.h) when the call came within that time after the one
// before (a spin would have caught it), unless the call had more workers than CPUs: a call
// that comes within it, a few milliseconds of serial work after the last, finds its workers
// running and their CPUs' caches warm instead of paying the wake above, and a caller whose calls
// come further apart pays one spin, not one per call.
constexpr std::chrono::microseconds kTailSpin{50};
constexpr std::chrono::microseconds kIdleSpin{50};

// SetParkedThreadSpin's value [µs]: a parked thread's spin after a call that came within it
// after the last one returned (0: kIdleSpin between calls in a loop only). Read by each call
// and by each thread after each call.
constexpr std::int64_t kMaxParkedSpinUs = 1000000;
std::atomic<std::int64_t> parked_spin_us{kDefaultParkedThreadSpin.count()};

// Whether a call of `workers` workers has more than the machine's CPUs (0 when unknown: taken as
// enough): its parked threads then keep to kIdleSpin after it, as libgomp spins 100 times
// instead of 300,000 with more threads than CPUs.
bool MoreWorkersThanCpus(std::size_t workers) {
  static const unsigned cpus = std::thread::hardware_concurrency();
  return cpus != 0 && workers > cpus;
}

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
      // The spin asked only after a call that came within it after the last one returned (a
      // spin would have caught it): a caller whose calls come further apart pays one spin that
      // catches nothing, not one per call (adaptive, as glibc's adaptive mutexes size their spin
      // by the waits before).
      const std::chrono::microseconds asked(parked_spin_us.load(std::memory_order_relaxed));
      spin_after_ = !MoreWorkersThanCpus(helpers + 1) &&
                    (!returned_once_ || Clock::now() - last_return_ <= asked);
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
    last_return_ = Clock::now();
    returned_once_ = true;
  }

 private:
  void Serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    std::uint64_t served = 0;     // calls are numbered from 1: a new thread serves the open one
    bool calls_in_a_row = false;  // the last call came within kIdleSpin of the one before
    bool spin_after = false;      // the last call's spin_after_
    for (;;) {
      const auto open = [&] { return open_ != nullptr && seats_ > 0 && call_ != served; };
      const Clock::time_point left = Clock::now();
      const std::int64_t asked_us = parked_spin_us.load(std::memory_order_relaxed);
      const std::chrono::microseconds spin =
          served == 0 ? std::chrono::microseconds(0)
                      : std::max(calls_in_a_row ? kIdleSpin : std::chrono::microseconds(0),
                                 std::chrono::microseconds(spin_after ? asked_us : 0));
      if (spin.count() > 0 && !open()) {
        lock.unlock();
        SpinWhile(
            [&] {  // until a call comes, or SetParkedThreadSpin changes the spin
              return published_.load() == served &&
                     parked_spin_us.load(std::memory_order_relaxed) == asked_us;
            },
            left + spin);
        lock.lock();
      }
      wake_.wait(lock, open);
      calls_in_a_row = served != 0 && Clock::now() - left <= kIdleSpin;
      served = call_;
      spin_after = spin_after_;
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
  bool spin_after_ = true;        // the open call's threads may spin after it (SetParkedThreadSpin)
  Clock::time_point last_return_;  // when the last call returned, if one did
  bool returned_once_ = false;
  std::uint64_t call_ = 0;  // calls published so far
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

// ItemQueue packs an item number into 32 bits.
constexpr std::size_t kMaxItems = 0xffffffffu;

void SetParkedThreadSpin(std::chrono::microseconds spin) {
  QUASIDYN_CHECK_ARGUMENT(spin.count() >= 0 && spin.count() <= kMaxParkedSpinUs,
                          "SetParkedThreadSpin",
                          "spin must be 0 to " + std::to_string(kMaxParkedSpinUs) + " µs (got " +
                              std::to_string(spin.count()) + " µs)");
  parked_spin_us.store(spin.count(), std::memory_order_relaxed);
}

std::chrono::microseconds ParkedThreadSpin() {
  return std::chrono::microseconds(parked_spin_us.load(std::memory_order_relaxed));
}

void ParallelFor(std::size_t count, int threads,
                 const std::function<void(std::size_t worker, std::size_t item)>& work) {
  QUASIDYN_CHECK_ARGUMENT(threads >= 1, "ParallelFor",
                          "threads must be >= 1 (got " + std::to_string(threads) + ")");
  QUASIDYN_CHECK_ARGUMENT(count <= kMaxItems, "ParallelFor",
                          "count must be at most 2^32 - 1 (got " + std::to_string(count) + ")");
  const std::size_t workers = std::min(static_cast<std::size_t>(threads), count);
  ItemQueue queue(count, workers, work);
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
