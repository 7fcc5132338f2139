// What handing work to another thread costs on this machine, Google Benchmark: the floor under
// ParallelFor's batch calls (common/parallel_for.h; docs/performance.md, "Threads", the floor).
//
//   BM_ThreadWakeLatency/<partner>/gap_us:G
//       The calling thread (pinned to CPU 0) hands a request to a partner thread (pinned to CPU
//       1) and waits for its answer, then works alone (busy, on its own CPU) for G µs before the
//       next round trip: G is the time the partner's CPU has been idle before it is woken (a
//       caller's own work between two batch calls). Partners:
//         blocking   the partner parks on a condition variable (a futex) and is woken by
//                    notify_one; the caller blocks the same way for the answer (what a
//                    ParallelFor call pays when neither wait catches the other by spinning);
//         caller_spins  the partner parks and is woken as above; the caller spins for the
//                    answer (ParallelFor's caller waiting for a short last item);
//         spinning   the partner spins on an atomic (x86 PAUSE) and never parks; the caller
//                    spins for the answer: the latency of a pool that never sleeps, which
//                    burns the partner's CPU all the time between requests.
//       Counters, medians over the round trips (wall clock, steady_clock read on both CPUs):
//         wake_us_50, wake_us_90   from the request's publication to the partner running
//                                  (its first instruction after the wait): the delay before
//                                  the other worker starts its first item;
//         notify_us_50             the caller's own time in notify_one (the futex wake system
//                                  call, or nothing when nobody waits): added to its own work;
//         round_trip_us_50         request to answer seen by the caller;
//         cpu_us_per_round_trip    the CPU time of both threads per round trip (each thread's
//                                  own clock: the process clock counts a running thread only
//                                  up to its last tick), the caller's G µs of work excluded;
//                                  for `spinning` it includes the partner's spin during the gap
//                                  (the price of never parking). Kernel time on an idle CPU
//                                  (the interrupt that wakes it) is nobody's and not counted.
//   BM_CacheAfterIdle/gap_us:G
//       What a CPU keeps of a thread's cache while the thread sleeps (its CPU idle) for G µs: the
//       thread (pinned to CPU 1) walks its own 512 KiB buffer (half this machine's 1 MiB L2 per
//       core) in a random cyclic order of its 64-byte lines, each read depending on the one
//       before (a latency-bound walk, as a solver's scattered reads are, not one the prefetcher
//       hides), sleeps G µs, and times one more walk. Counters, medians over the rounds:
//         walk_us_50            the walk after the sleep [µs];
//         warm_walk_us_50       a walk right after a walk (no sleep) [µs];
//         after_idle_over_warm  their ratio: 1 when the lines stayed in the core's L2, about
//                               the L3-to-L2 latency ratio when the CPU's caches were handed to
//                               other work meanwhile (a virtual CPU that idles long enough is
//                               descheduled by its host), more when they come from memory.
//       The other worker of a ParallelFor call parks between calls: this is what its first
//       items pay for their data (and code) after a long gap, beyond the wake itself.
//   Pinning to two CPUs makes every wake cross from one CPU to the other, as a batch call's
//   does when both CPUs are free; with one CPU the benchmark skips itself. Needs an idle
//   machine for the wall figures (another process on CPU 1 delays the wake by its time slice).
//   Do not run it under a real-time policy (chrt): a spinning caller then starves its CPU's
//   kernel work, and the round trips take up to the kernel's real-time throttling period.
// Run: build/release/thread_wake_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <ctime>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

enum class Partner { kBlocking, kCallerSpins, kSpinning };

double Micro(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

double CpuSeconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

bool PinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

inline void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

void BusyFor(Clock::duration d) {
  const Clock::time_point end = Clock::now() + d;
  while (Clock::now() < end) {
  }
}

double Median(std::vector<double> v, double q = 0.5) {
  if (v.empty()) return 0.0;
  const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[static_cast<std::size_t>(k)];
}

// The partner thread and the two threads' shared state: request n is published by setting
// `request` to n; the partner records when it saw it and answers by setting `answer` to n.
struct Exchange {
  Partner partner = Partner::kBlocking;
  std::mutex mutex;
  std::condition_variable requested, answered;
  std::atomic<std::uint64_t> request{0}, answer{0};
  std::atomic<std::int64_t> woke_ns{0};  // steady_clock when the partner saw the request
  std::atomic<double> partner_cpu{0.0};  // the partner's thread CPU time [s] at its last answer
  std::atomic<bool> pinned{true};

  void Serve() {
    pinned.store(PinTo(1));
    for (std::uint64_t served = 0;;) {
      if (partner == Partner::kSpinning) {
        while (request.load(std::memory_order_acquire) == served) Pause();
      } else {
        std::unique_lock<std::mutex> lock(mutex);
        requested.wait(lock, [&] { return request.load() != served; });
      }
      woke_ns.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed);
      served = request.load();
      if (served == ~std::uint64_t{0}) return;  // stop
      partner_cpu.store(CpuSeconds(CLOCK_THREAD_CPUTIME_ID), std::memory_order_relaxed);
      if (partner == Partner::kBlocking) {
        {
          const std::lock_guard<std::mutex> lock(mutex);
          answer.store(served);
        }
        answered.notify_one();
      } else {
        answer.store(served, std::memory_order_release);
      }
    }
  }
};

void BM_ThreadWakeLatency(benchmark::State& state, Partner partner) {
  if (std::thread::hardware_concurrency() < 2 || !PinTo(0)) {
    state.SkipWithError("needs two CPUs to pin the threads to");
    return;
  }
  const auto gap = std::chrono::microseconds(state.range(0));
  Exchange x;
  x.partner = partner;
  std::thread server([&x] { x.Serve(); });
  std::vector<double> wake, notify, round_trip, cpu;
  std::uint64_t n = 0;
  double partner_cpu = -1.0;  // at the previous answer; none before the first
  for (auto _ : state) {
    BusyFor(gap);  // the caller's own work: the partner's CPU idles (or spins) meanwhile
    ++n;
    const double caller_cpu = CpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    const Clock::time_point start = Clock::now();
    Clock::time_point notified = start;
    if (partner == Partner::kSpinning) {
      x.request.store(n, std::memory_order_release);
    } else {
      {
        const std::lock_guard<std::mutex> lock(x.mutex);
        x.request.store(n);
      }
      const Clock::time_point before = Clock::now();
      x.requested.notify_one();
      notified = Clock::now();
      notify.push_back(Micro(notified - before));
    }
    if (partner == Partner::kBlocking) {
      std::unique_lock<std::mutex> lock(x.mutex);
      x.answered.wait(lock, [&] { return x.answer.load() == n; });
    } else {
      while (x.answer.load(std::memory_order_acquire) != n) Pause();
    }
    const Clock::time_point end = Clock::now();
    round_trip.push_back(Micro(end - start));
    wake.push_back(1e-3 * static_cast<double>(x.woke_ns.load() - start.time_since_epoch().count()));
    // The caller's CPU in this round trip, the partner's since its previous answer (its park,
    // or its spin through the gap, and its wake).
    const double partner_now = x.partner_cpu.load(std::memory_order_relaxed);
    if (partner_cpu >= 0.0) {
      cpu.push_back(1e6 *
                    (CpuSeconds(CLOCK_THREAD_CPUTIME_ID) - caller_cpu + partner_now - partner_cpu));
    }
    partner_cpu = partner_now;
  }
  {
    const std::lock_guard<std::mutex> lock(x.mutex);
    x.request.store(~std::uint64_t{0});
  }
  x.requested.notify_one();
  server.join();
  if (!x.pinned.load()) state.SkipWithError("could not pin the partner to CPU 1");
  state.counters["wake_us_50"] = Median(wake);
  state.counters["wake_us_90"] = Median(wake, 0.9);
  state.counters["notify_us_50"] = Median(notify);
  state.counters["round_trip_us_50"] = Median(round_trip);
  state.counters["cpu_us_per_round_trip"] = Median(cpu);
}

// One walk of `next` from line 0 back to it: each line holds the index of the next one.
std::size_t Walk(const std::vector<std::size_t>& next) {
  constexpr std::size_t kStride = 8;  // size_t per 64-byte line
  std::size_t line = 0, steps = 0;
  do {
    line = next[line * kStride];
    ++steps;
  } while (line != 0);
  return steps;
}

void BM_CacheAfterIdle(benchmark::State& state) {
  if (std::thread::hardware_concurrency() < 2 || !PinTo(1)) {
    state.SkipWithError("needs a second CPU to pin the thread to");
    return;
  }
  constexpr std::size_t kLines = 512 * 1024 / 64, kStride = 8;
  std::vector<std::size_t> order(kLines);
  for (std::size_t i = 0; i < kLines; ++i) order[i] = i;
  std::minstd_rand random(7);
  std::shuffle(order.begin() + 1, order.end(), random);  // one cycle through every line from 0
  std::vector<std::size_t> next(kLines * kStride, 0);
  for (std::size_t i = 0; i < kLines; ++i) next[order[i] * kStride] = order[(i + 1) % kLines];
  const auto gap = std::chrono::microseconds(state.range(0));
  const auto timed_walk = [&next] {
    const Clock::time_point start = Clock::now();
    benchmark::DoNotOptimize(Walk(next));
    return Micro(Clock::now() - start);
  };
  std::vector<double> after_idle, warm;
  for (auto _ : state) {
    Walk(next);
    warm.push_back(timed_walk());
    std::this_thread::sleep_for(gap);  // blocks: the CPU idles
    after_idle.push_back(timed_walk());
  }
  state.counters["walk_us_50"] = Median(after_idle);
  state.counters["warm_walk_us_50"] = Median(warm);
  state.counters["after_idle_over_warm"] = Median(after_idle) / Median(warm);
}
BENCHMARK(BM_CacheAfterIdle)
    ->ArgName("gap_us")
    ->Arg(200)
    ->Arg(1000)
    ->Arg(2500)
    ->Arg(5000)
    ->Arg(20000)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void Gaps(benchmark::internal::Benchmark* b) {
  b->ArgName("gap_us");
  for (int gap : {0, 20, 200, 1000}) b->Arg(gap);
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK_CAPTURE(BM_ThreadWakeLatency, blocking, Partner::kBlocking)->Apply(Gaps);
BENCHMARK_CAPTURE(BM_ThreadWakeLatency, caller_spins, Partner::kCallerSpins)->Apply(Gaps);
BENCHMARK_CAPTURE(BM_ThreadWakeLatency, spinning, Partner::kSpinning)->Apply(Gaps);

}  // namespace

BENCHMARK_MAIN();
