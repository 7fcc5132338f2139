// Batches on threads (stepping/batch_step.h, simulation/rollout.h), Google Benchmark:
//
//   BM_BatchAAndB/<scene>/T       N = 8 points (the state of bench_scenes.h with its command
//                                 moved by a few millimetres per point), Calc and CalcDiff (A and
//                                 B) of the exact QP model on T = 1 or 2 threads; real time,
//                                 items_per_second is the batch throughput.
//   BM_ThreadScaling/<work>       the issue-38 row "within 5 % of linear on 2 threads": each
//                                 iteration runs the same batch on 1 thread, then on 2, and
//                                 times both (wall clock, and the process's CPU time, which
//                                 counts every thread). Counters:
//                                   items_per_second_1, _2   wall-clock throughput at T = 1, 2;
//                                   linear_fraction          items/s(T = 2) / (2 · items/s(T = 1)):
//                                                            1 is linear; it needs an idle
//                                                            machine (the other load takes cores);
//                                   linear_fraction_median   the same ratio per iteration (its
//                                                            1-thread and its 2-thread calls,
//                                                            made one after the other), median
//                                                            over the iterations: a burst of the
//                                                            host's other work that takes one
//                                                            call does not move it;
//                                   cpu_us_per_item_1, _2    CPU time [µs] per item at T = 1, 2:
//                                                            independent of other load; equal
//                                                            values mean no work added by the
//                                                            threads (locks, cache traffic);
//                                   cpu_utilisation_2        CPU time / (2 · wall) at T = 2:
//                                                            below 1 on an idle machine means a
//                                                            serial section or idle workers;
//                                   allocations_per_item_1   heap allocations per item (T = 1).
//                                 The batches: rollouts of the planar hand (64 rollouts of 50
//                                 steps, random-walk commands, as bench/distributed_bench.py's),
//                                 of arm_cubes (8 rollouts of the schedule's first 10 steps),
//                                 and A and B of the QP step at 64 planar-hand points and 8
//                                 arm_cubes points (randomized smoothing's batch), each with
//                                 its results made anew per call (RolloutBatch, Run) and, rows
//                                 _reused, refilled in place (RolloutBatchInto with a
//                                 RolloutWorkspace, RunInPlace: no allocation once warm), and
//                                 first-order smoothing of A and B with 512 planar-hand samples
//                                 (the samples drawn, the batch, the estimate). Two controls
//                                 run by the same ParallelFor show what the machine itself gives
//                                 on 2 threads: control_compute (16 items of arithmetic on
//                                 registers only, ≈ 0.37 ms each) and control_stream (16 items
//                                 each summing its worker's own 64 MiB buffer: memory bandwidth).
//                                 Their linear_fraction and CPU per item are the floor for ours:
//                                 two virtual CPUs may share one physical core or its memory.
//                                 control_cache_l2 and _l3 (16 items each reading its worker's
//                                 own 768 KiB or 8 MiB buffer, line by line, several times):
//                                 cache-resident work, private L2 against the shared L3.
//                                 control_compute_short is the same arithmetic cut into the
//                                 planar gradient batch's shape (64 items of ≈ 13 µs): what one
//                                 call's hand-over to the other thread and back costs per item.
//                                 Rows *_8_in_a_row run 8 batches on 1 thread, then 8 on 2, per
//                                 iteration: a caller that makes batches in a loop, in its
//                                 steady state: each run of 8 starts with one untimed call at
//                                 its thread count, the call that wakes the other worker onto
//                                 a CPU that idled through the 1-thread calls (and whose caches
//                                 the virtual machine's host gave to other work meanwhile:
//                                 thread_wake_bench's BM_CacheAfterIdle). That first call's
//                                 cost is the single-call rows'.
//                                 Each iteration of a loop row then makes the same items as
//                                 two independent callers (IndependentCaller, below; 4 calls
//                                 each): independent_fraction_median is the machine's own
//                                 fraction for those items in the same minutes, and
//                                 over_independent_median the row's over it.
//                                 After each timed batch the caller sleeps 0.2 ms before reading
//                                 the CPU clock: the clock counts another thread's time only up
//                                 to its last switch or timer tick, and a worker that has left
//                                 the call is still on its way to its park. The single-call rows
//                                 run with the default spin (4 ms): after the gradient batches'
//                                 1-thread calls (0.8 and 2.7 ms) the other worker still spins,
//                                 after the rollouts' (18 ms) it has blocked. The 1-thread CPU is
//                                 the caller's own (the other worker may still spin then).
//   BM_SpinningWorker/<work>      a single call with the other worker spinning for it
//                                 (SetParkedThreadSpin) and the same call after it blocked,
//                                 paired in each iteration (below).
//   BM_IndependentCallers/<work>  two threads at once, each calling a batch of its own (nothing
//                                 of a batch shared) on 1 thread, against one alone: the CPU
//                                 per item that two busy CPUs of this machine cost our items
//                                 (growth = together / alone; below).
//   BM_ParallelForCall/T          one ParallelFor call of T empty items on T threads: the cost
//                                 of handing items to the other thread and waiting for it (real
//                                 time per call).
//   BM_ParkedPoolIdleCpu         the CPU a parked pool takes when no call comes (below).
//   BM_GradientItemCosts,
//   BM_BatchTimeline/<work>       each item's cost alone, and a 2-thread call's timeline
//                                 (below; for the gradient batches and the planar rollouts).
//   BM_ParallelForStart           2 items of 200 µs (busy, wall clock) on 2 threads: how late
//                                 worker 1 starts its item after the call began, median and
//                                 90th percentile over the calls [µs] (helper_start_us_50, _90),
//                                 and the call's wall time beyond one item (overhead_us_50).
// The machine has 2 cores; the wall-clock figures need it otherwise idle, the CPU ones do not.
// Run: build/release/batch_bench --benchmark_filter=ThreadScaling --benchmark_min_time=2
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_scenes.h"
#include "quasidyn/common/parallel_for.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/stepping/batch_step.h"
#include "quasidyn/stepping/randomized_smoothing.h"

namespace quasidyn::bench {
namespace {

constexpr int kBatchSize = 8;

std::vector<StepPoint> BatchPoints(const SceneState& at, int count) {
  std::vector<StepPoint> points;
  for (int i = 0; i < count; ++i) {
    Eigen::VectorXd u = at.u;
    // ±3.5 mm or mrad (8 points) per coordinate: near the nominal contact modes
    u[i % u.size()] += 1e-3 * ((i % kBatchSize) - 3.5);
    points.push_back({at.x, u});
  }
  return points;
}

void BM_BatchAAndB(benchmark::State& state, Example example) {
  const int threads = static_cast<int>(state.range(0));
  BatchStepper batch(ModelOf(example, "qp"), threads);
  const std::vector<StepPoint> points = BatchPoints(StateOf(example), kBatchSize);
  int failed = 0;
  for (const StepEvaluation& e : batch.Run(points, GradientMode::kAAndB)) failed += !e.ok();
  for (auto _ : state) {
    std::vector<StepEvaluation> results = batch.Run(points, GradientMode::kAAndB);
    benchmark::DoNotOptimize(results.data());
  }
  state.SetItemsProcessed(state.iterations() * kBatchSize);
  state.counters["failed_items"] = failed;
  state.counters["threads"] = threads;
}
BENCHMARK_CAPTURE(BM_BatchAAndB, arm_cubes, Example::kArmCubes)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BatchAAndB, planar_hand, Example::kPlanarHand)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// A batch of `items` items on T threads; the result is made and dropped inside the call (its
// destruction is part of what a caller waits for).
struct Batch {
  int items = 0;
  std::function<void(int threads)> run;
};

// The rollouts' initial states and commands: the planar hand from q0 with random-walk commands
// (5 mm / mrad steps), arm_cubes from q0 with the scene's schedule (no commands).
struct RolloutInputs {
  std::vector<State> x0s;
  std::vector<Eigen::MatrixXd> commands;
};

RolloutInputs RolloutInputsOf(Example example, const StepModel& model, int rollouts, int steps) {
  RolloutInputs inputs;
  const Scene& scene = model.scene();
  if (example != Example::kPlanarHand) {  // the schedule's commands
    inputs.x0s.assign(rollouts, InitialState(model));
    return inputs;
  }
  std::mt19937 random(0);
  std::normal_distribution<double> normal(0.0, 0.005);
  const Eigen::VectorXd u0 = InitialState(model).q.segment(scene.nq_u, scene.nq_a);
  for (int b = 0; b < rollouts; ++b) {
    inputs.x0s.push_back(InitialState(model));
    Eigen::MatrixXd u(steps, scene.nq_a);
    Eigen::VectorXd walk = u0;
    for (int k = 0; k < steps; ++k) {
      for (int j = 0; j < scene.nq_a; ++j) walk[j] += normal(random);
      u.row(k) = walk.transpose();
    }
    inputs.commands.push_back(u);
  }
  return inputs;
}

Batch RolloutBatchOf(Example example, int rollouts, int steps, bool reused) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, "qp");
  const RolloutInputs inputs = RolloutInputsOf(example, *model, rollouts, steps);
  const std::vector<State>& x0s = inputs.x0s;
  const std::vector<Eigen::MatrixXd>& commands = inputs.commands;
  RolloutOptions options;
  options.steps = steps;
  if (reused) {  // the trajectories and the workers' buffers of the last batch refilled
    // One workspace per thread count, each with a model of its own, as GradientBatchOf's
    // steppers: a 2-thread call finds its trajectories where its own workers left them in the
    // last 2-thread call, not where a 1-thread call of the same rows moved them (4 MB of
    // records for the planar hand's 64 × 50 steps, written by the caller's CPU alone).
    auto one = std::make_shared<RolloutWorkspace>(model);
    auto two = std::make_shared<RolloutWorkspace>(ModelOf(example, "qp"));
    return {rollouts, [one, two, x0s, commands, options](int threads) {
              const std::vector<Trajectory>& runs = RolloutBatchInto(
                  x0s, commands, options, threads, (threads == 1 ? one : two).get());
              benchmark::DoNotOptimize(runs.data());
            }};
  }
  return {rollouts, [model, x0s, commands, options](int threads) {
            std::vector<Trajectory> runs = RolloutBatch(*model, x0s, commands, options, threads);
            benchmark::DoNotOptimize(runs.data());
          }};
}

Batch GradientBatchOf(Example example, int points, bool reused) {
  auto one = std::make_shared<BatchStepper>(ModelOf(example, "qp"), 1);
  auto two = std::make_shared<BatchStepper>(ModelOf(example, "qp"), 2);
  const std::vector<StepPoint> at = BatchPoints(StateOf(example), points);
  if (reused) {  // the stepper's own evaluations refilled (RunInPlace)
    return {points, [one, two, at](int threads) {
              const std::vector<StepEvaluation>& results =
                  (threads == 1 ? one : two)->RunInPlace(at, GradientMode::kAAndB);
              benchmark::DoNotOptimize(results.data());
            }};
  }
  return {points, [one, two, at](int threads) {
            std::vector<StepEvaluation> results =
                (threads == 1 ? one : two)->Run(at, GradientMode::kAAndB);
            benchmark::DoNotOptimize(results.data());
          }};
}

// First-order randomized smoothing (stepping/randomized_smoothing.h) of A and B at the bench
// state: `samples` samples, σ_u = 0.02 (as bench/distributed_bench.py's), the estimate included.
Batch SmoothingBatchOf(Example example, int samples) {
  auto one = std::make_shared<BatchStepper>(ModelOf(example, "qp"), 1);
  auto two = std::make_shared<BatchStepper>(ModelOf(example, "qp"), 2);
  const SceneState at = StateOf(example);
  RandomizedSmoothingSettings settings;
  settings.samples = samples;
  settings.u_std = 0.02;
  return {samples, [one, two, at, settings](int threads) {
            const SmoothedLinearization s = FirstOrderSmoothing(
                (threads == 1 ? one : two).get(), at.x.q, at.u, GradientMode::kAAndB, settings);
            benchmark::DoNotOptimize(s.A.data());
          }};
}

// Control: arithmetic on 16 independent values held in registers (no memory traffic beyond
// L1), `steps` multiply-adds each per item; x ← 0.999 x + 0.001 stays near 1 (no denormals).
Batch ComputeControlOf(int items, long steps) {
  return {items, [items, steps](int threads) {
            std::vector<double> sums(items, 0.0);
            ParallelFor(items, threads, [&](std::size_t, std::size_t item) {
              double x[16];
              for (int k = 0; k < 16; ++k) x[k] = 1.0 + 1e-3 * static_cast<double>(k + item);
              for (long step = 0; step < steps; ++step) {
                for (double& v : x) v = 0.999 * v + 0.001;
                benchmark::DoNotOptimize(x);
              }
              double sum = 0.0;
              for (double v : x) sum += v;
              sums[item] = sum;
            });
            benchmark::DoNotOptimize(sums.data());
          }};
}

// Control: each item sums its worker's own buffer of `mebibytes` MiB (larger than the last-level
// cache, so every item streams it from memory).
Batch StreamControlOf(int items, int mebibytes) {
  const std::size_t length = static_cast<std::size_t>(mebibytes) * (1 << 20) / sizeof(double);
  auto buffers = std::make_shared<std::vector<std::vector<double>>>(2);
  for (std::vector<double>& buffer : *buffers) buffer.assign(length, 1.0);
  return {items, [items, buffers](int threads) {
            std::vector<double> sums(items, 0.0);
            ParallelFor(items, threads, [&](std::size_t worker, std::size_t item) {
              double sum = 0.0;
              for (double v : (*buffers)[worker]) sum += v;
              sums[item] = sum;
            });
            benchmark::DoNotOptimize(sums.data());
          }};
}

// Control: each item reads its worker's own buffer of `kibibytes` KiB `passes` times in a
// stride of one cache line (64 bytes; the buffers hold one double per line read): with 768 KiB
// the buffer stays in the core's own L2 cache (1 MiB here), with 8 MiB it is served from the
// shared L3. Whether two workers slow each other's cache-resident work, which neither the
// register-only nor the streaming control shows.
Batch CacheControlOf(int items, int kibibytes, int passes) {
  const std::size_t length = static_cast<std::size_t>(kibibytes) * 1024 / sizeof(double);
  auto buffers = std::make_shared<std::vector<std::vector<double>>>(2);
  for (std::vector<double>& buffer : *buffers) buffer.assign(length, 1.0);
  return {items, [items, buffers, passes](int threads) {
            std::vector<double> sums(items, 0.0);
            ParallelFor(items, threads, [&](std::size_t worker, std::size_t item) {
              const std::vector<double>& buffer = (*buffers)[worker];
              double sum[4] = {0, 0, 0, 0};
              for (int pass = 0; pass < passes; ++pass) {
                for (std::size_t i = 0; i + 24 < buffer.size(); i += 32) {  // 4 lines per step
                  sum[0] += buffer[i];
                  sum[1] += buffer[i + 8];
                  sum[2] += buffer[i + 16];
                  sum[3] += buffer[i + 24];
                }
              }
              sums[item] = sum[0] + sum[1] + sum[2] + sum[3];
            });
            benchmark::DoNotOptimize(sums.data());
          }};
}

// The q-quantile (0 <= q <= 1) of `values`, the lower of two middle values; 0 when empty.
double Quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  const std::size_t k = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

double ProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double WallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The machine's own linear fraction for a loop row's items, paired with it in each iteration:
// a second caller on a thread of its own, with a batch of its own (BM_IndependentCallers'
// make()), beside the benchmark's caller. Per request both make one untimed 1-thread call
// (each CPU's caches, as the loop rows' untimed first call), meet at a spinning barrier, and
// make `calls` timed 1-thread calls each; RunBeside returns the wall time from the meeting
// until both are done [s]. Nothing of a batch is shared and nothing is handed over, so
// T(1) / (2 T_both) for the same number of items is what two busy CPUs of this machine give
// such items in that minute: the floor of the row's fraction but for its last item's
// imbalance and its hand-overs. Blocked between requests: it takes no CPU from the other
// phases.
class IndependentCaller {
 public:
  explicit IndependentCaller(Batch batch)
      : batch_(std::move(batch)), thread_([this] { Serve(); }) {}
  IndependentCaller(const IndependentCaller&) = delete;
  IndependentCaller& operator=(const IndependentCaller&) = delete;
  ~IndependentCaller() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

  double RunBeside(const Batch& mine, int calls) {
    arrived_.store(0);
    finished_.store(false);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      calls_ = calls;
      ++requests_;
    }
    wake_.notify_one();
    mine.run(1);  // untimed, while the other caller wakes
    Meet();
    const double start = WallSeconds();
    for (int call = 0; call < calls; ++call) mine.run(1);
    const double mine_end = WallSeconds();
    while (!finished_.load()) {  // the other caller is running its last calls
    }
    return std::max(mine_end, their_end_) - start;
  }

 private:
  void Meet() {
    arrived_.fetch_add(1);
    while (arrived_.load() < 2) {
    }
  }

  void Serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (long served = 0;;) {
      wake_.wait(lock, [&] { return stop_ || requests_ != served; });
      if (stop_) return;
      served = requests_;
      const int calls = calls_;
      lock.unlock();
      batch_.run(1);
      Meet();
      for (int call = 0; call < calls; ++call) batch_.run(1);
      their_end_ = WallSeconds();
      finished_.store(true);  // publishes their_end_
      lock.lock();
    }
  }

  const Batch batch_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  long requests_ = 0;
  int calls_ = 0;
  std::atomic<int> arrived_{0};
  std::atomic<bool> finished_{false};
  double their_end_ = 0.0;
  std::thread thread_;  // last: started once the members it reads are made
};

// `in_a_row` calls on 1 thread, then as many on 2, per iteration: 1 for batches made one at a
// time with other work between them, more for a caller that makes them in a loop. A loop row
// (even in_a_row > 1) then makes the same items as two independent callers, in_a_row / 2 calls
// each (IndependentCaller): counters independent_fraction_median (that pair's T(1) / (2 T)) and
// over_independent_median (the row's fraction over it, iteration by iteration: what the batch
// itself loses, its hand-overs and last items, with the host's minute taken out).
void BM_ThreadScaling(benchmark::State& state, const std::function<Batch()>& make,
                      int in_a_row = 1) {
  const Batch batch = make();
  batch.run(1);  // warm-up: the scene's caches, the workers' buffers
  batch.run(2);
  const bool paired = in_a_row > 1 && in_a_row % 2 == 0;
  std::unique_ptr<IndependentCaller> beside;
  if (paired) beside = std::make_unique<IndependentCaller>(make());
  long allocations = 0;
  {
    testing::MallocCounter counter;
    batch.run(1);
    allocations = counter.count();
  }
  double wall[3] = {0, 0, 0}, cpu[3] = {0, 0, 0};  // [T], summed over the iterations
  std::vector<double> fractions;                   // each iteration's own linear fraction
  std::vector<double> independent_fractions, over_independent;  // the paired control's (above)
  for (auto _ : state) {
    double iteration_wall[3] = {0, 0, 0};
    for (int threads = 1; threads <= 2; ++threads) {
      if (in_a_row > 1) batch.run(threads);  // the steady state of calls in a loop (above)
      // CPU: the caller's own for 1 thread (the other worker may still spin after the last
      // 2-thread call: SetParkedThreadSpin's default), the process's for 2.
      const auto cpu_now = [threads] {
        return threads == 1 ? ThreadCpuSeconds() : ProcessCpuSeconds();
      };
      const double wall_start = WallSeconds(), cpu_start = cpu_now();
      for (int call = 0; call < in_a_row; ++call) batch.run(threads);
      iteration_wall[threads] = WallSeconds() - wall_start;
      wall[threads] += iteration_wall[threads];
      // The other workers' way to their park or spin counted in this batch, not in the next
      // (both thread counts pay the sleep's own CPU, ≈ 15 µs in the 2-vCPU VM).
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      cpu[threads] += cpu_now() - cpu_start;
    }
    fractions.push_back(iteration_wall[1] / (2 * iteration_wall[2]));
    if (paired) {
      const double independent = iteration_wall[1] / (2 * beside->RunBeside(batch, in_a_row / 2));
      independent_fractions.push_back(independent);
      over_independent.push_back(fractions.back() / independent);
    }
  }
  const double items = static_cast<double>(state.iterations()) * batch.items * in_a_row;
  state.counters["items_per_second_1"] = items / wall[1];
  state.counters["items_per_second_2"] = items / wall[2];
  state.counters["linear_fraction"] = wall[1] / (2 * wall[2]);
  state.counters["linear_fraction_median"] = Quantile(fractions, 0.5);
  state.counters["cpu_us_per_item_1"] = 1e6 * cpu[1] / items;
  state.counters["cpu_us_per_item_2"] = 1e6 * cpu[2] / items;
  state.counters["cpu_utilisation_2"] = cpu[2] / (2 * wall[2]);
  state.counters["allocations_per_item_1"] = static_cast<double>(allocations) / batch.items;
  if (paired) {
    state.counters["independent_fraction_median"] = Quantile(independent_fractions, 0.5);
    state.counters["over_independent_median"] = Quantile(over_independent, 0.5);
  }
}
BENCHMARK_CAPTURE(BM_ThreadScaling, rollouts_planar_hand, [] {
  return RolloutBatchOf(Example::kPlanarHand, 64, 50, false);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, rollouts_planar_hand_reused, [] {
  return RolloutBatchOf(Example::kPlanarHand, 64, 50, true);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, rollouts_arm_cubes, [] {
  return RolloutBatchOf(Example::kArmCubes, 8, 10, false);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, rollouts_arm_cubes_reused, [] {
  return RolloutBatchOf(Example::kArmCubes, 8, 10, true);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, gradients_planar_hand, [] {
  return GradientBatchOf(Example::kPlanarHand, 64, false);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, gradients_planar_hand_reused, [] {
  return GradientBatchOf(Example::kPlanarHand, 64, true);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(
    BM_ThreadScaling, gradients_planar_hand_reused_8_in_a_row,
    [] { return GradientBatchOf(Example::kPlanarHand, 64, true); }, 8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(
    BM_ThreadScaling, rollouts_planar_hand_reused_8_in_a_row,
    [] { return RolloutBatchOf(Example::kPlanarHand, 64, 50, true); }, 8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, gradients_arm_cubes, [] {
  return GradientBatchOf(Example::kArmCubes, 8, false);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, gradients_arm_cubes_reused, [] {
  return GradientBatchOf(Example::kArmCubes, 8, true);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(
    BM_ThreadScaling, gradients_arm_cubes_reused_8_in_a_row,
    [] { return GradientBatchOf(Example::kArmCubes, 8, true); }, 8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, smoothing_planar_hand, [] {
  return SmoothingBatchOf(Example::kPlanarHand, 512);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, control_compute, [] {
  return ComputeControlOf(16, 100000);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, control_compute_short, [] {
  return ComputeControlOf(64, 3500);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(
    BM_ThreadScaling, control_compute_short_8_in_a_row, [] { return ComputeControlOf(64, 3500); },
    8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, control_cache_l2, [] {
  return CacheControlOf(16, 768, 24);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, control_cache_l3, [] {
  return CacheControlOf(16, 8192, 3);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ThreadScaling, control_stream, [] {
  return StreamControlOf(16, 64);
})->Unit(benchmark::kMillisecond);

// A single call with the other worker spinning for it (SetParkedThreadSpin) against the same
// call after the other worker blocked, paired in each iteration: a 1-thread call with the other
// CPU idle (the reference), the 2-thread call after it (no spin asked: the other worker blocked
// through it, as in BM_ThreadScaling's single calls before the default spin), then with the
// spin asked: an untimed 2-thread call (the other worker serves it and spins), the 1-thread
// call again as the caller's serial work, and the timed 2-thread call. A burst of the host's work
// that takes a second or more moves both fractions of the iterations it hits, not one row's run.
// Counters:
//   linear_fraction_median           T(1) / (2 T(2)) with the other worker spinning, median
//                                    over the iterations;
//   linear_fraction_median_blocking  the same with the other worker blocked;
//   serial_time_with_spin            the caller's 1-thread call with the other worker spinning
//                                    beside it over the same call alone (median): what the
//                                    spin costs the caller's own work;
//   items_per_second_1               the 1-thread throughput.
// The spin asked, 50 ms, is longer than the 1-thread call and the sleep before the 2-thread
// call: the planar rollouts' 1-thread call takes 15 ms on a quiet host, 20–26 ms on a slow one.
constexpr int kSpinLongerThanTheGapUs = 50000;

void BM_SpinningWorker(benchmark::State& state, const std::function<Batch()>& make) {
  struct Restore {  // back to the default after the run
    ~Restore() { SetParkedThreadSpin(kDefaultParkedThreadSpin); }
  } restore;
  const Batch batch = make();
  batch.run(1);  // warm-up: the scene's caches, the workers' buffers
  batch.run(2);
  const auto timed = [&](int threads) {
    const double start = WallSeconds();
    batch.run(threads);
    const double seconds = WallSeconds() - start;
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // as BM_ThreadScaling's
    return seconds;
  };
  std::vector<double> spinning, blocking, serial;
  double one = 0;  // summed 1-thread time
  for (auto _ : state) {
    SetParkedThreadSpin(std::chrono::microseconds(0));  // a spinning worker blocks at once
    const double t1 = timed(1);
    blocking.push_back(t1 / (2 * timed(2)));
    SetParkedThreadSpin(std::chrono::microseconds(kSpinLongerThanTheGapUs));
    batch.run(2);  // the other worker serves a call, then spins for the next
    serial.push_back(timed(1) / t1);
    spinning.push_back(t1 / (2 * timed(2)));
    one += t1;
  }
  state.counters["linear_fraction_median"] = Quantile(spinning, 0.5);
  state.counters["linear_fraction_median_blocking"] = Quantile(blocking, 0.5);
  state.counters["serial_time_with_spin"] = Quantile(serial, 0.5);
  state.counters["items_per_second_1"] =
      static_cast<double>(state.iterations()) * batch.items / one;
}
BENCHMARK_CAPTURE(BM_SpinningWorker, gradients_planar_hand_reused, [] {
  return GradientBatchOf(Example::kPlanarHand, 64, true);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SpinningWorker, gradients_arm_cubes_reused, [] {
  return GradientBatchOf(Example::kArmCubes, 8, true);
})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SpinningWorker, rollouts_planar_hand_reused, [] {
  return RolloutBatchOf(Example::kPlanarHand, 64, 50, true);
})->Unit(benchmark::kMillisecond);

// Two callers, each with a batch of its own (its own model, stepper or workspace; the scene
// shared) on 1 thread, `calls` calls each: first one caller alone, then both at once (started
// together), each timed by its own thread clock. What two CPUs busy at once cost our items
// when nothing of a batch is shared: the CPU per item of BM_ThreadScaling at T = 2 beyond this
// is what one call's sharing (its hand-over, its items on two CPUs) adds.
void BM_IndependentCallers(benchmark::State& state, const std::function<Batch()>& make, int calls) {
  const Batch mine = make(), theirs = make();
  mine.run(1);
  theirs.run(1);
  const auto timed = [calls](const Batch& batch) {
    const double start = ThreadCpuSeconds();
    for (int call = 0; call < calls; ++call) batch.run(1);
    return ThreadCpuSeconds() - start;
  };
  double alone = 0.0, together = 0.0;
  for (auto _ : state) {
    alone += timed(mine);
    std::atomic<int> ready{0};
    double other = 0.0;
    std::thread caller([&] {
      ready.fetch_add(1);
      while (ready.load() < 2) {
      }
      other = timed(theirs);
    });
    ready.fetch_add(1);
    while (ready.load() < 2) {
    }
    together += timed(mine);
    caller.join();
    together += other;
  }
  const double items =
      static_cast<double>(state.iterations()) * static_cast<double>(mine.items) * calls;
  state.counters["cpu_us_per_item_alone"] = 1e6 * alone / items;
  state.counters["cpu_us_per_item_together"] = 1e6 * together / (2 * items);
  state.counters["growth"] = together / (2 * alone);
}
BENCHMARK_CAPTURE(
    BM_IndependentCallers, rollouts_planar_hand_reused,
    [] { return RolloutBatchOf(Example::kPlanarHand, 64, 50, true); }, 2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(
    BM_IndependentCallers, gradients_planar_hand_reused,
    [] { return GradientBatchOf(Example::kPlanarHand, 64, true); }, 40)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(
    BM_IndependentCallers, gradients_arm_cubes_reused,
    [] { return GradientBatchOf(Example::kArmCubes, 8, true); }, 10)
    ->Unit(benchmark::kMillisecond);

void BM_ParallelForCall(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  std::vector<int> done(threads, 0);
  for (auto _ : state) {
    ParallelFor(threads, threads, [&](std::size_t, std::size_t item) { done[item] = 1; });
    benchmark::DoNotOptimize(done.data());
  }
}
BENCHMARK(BM_ParallelForCall)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);

// The CPU time of each item of a gradient batch on its own (1 thread, each point's Calc and
// CalcDiff A and B alone, thread CPU clock): whether the batch's items cost the same. With
// items handed out one at a time, the 2-thread call ends at most one item after the ideal
// half, so the spread of the items' costs bounds its tail. Counters: item_us_min, _max, _mean
// (medians over the iterations of each item's time) and last_item_share = the last item's
// time over the mean.
void BM_GradientItemCosts(benchmark::State& state, Example example, int count) {
  BatchStepper batch(ModelOf(example, "qp"), 1);
  const std::vector<StepPoint> all = BatchPoints(StateOf(example), count);
  std::vector<std::vector<double>> times(all.size());
  for (const StepPoint& p : all) batch.RunInPlace({p}, GradientMode::kAAndB);  // warm-up
  for (auto _ : state) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      const std::vector<StepPoint> one{all[i]};
      timespec a{}, b{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
      benchmark::DoNotOptimize(batch.RunInPlace(one, GradientMode::kAAndB).data());
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
      times[i].push_back(1e6 * static_cast<double>(b.tv_sec - a.tv_sec) +
                         1e-3 * static_cast<double>(b.tv_nsec - a.tv_nsec));
    }
  }
  std::vector<double> medians;
  for (const std::vector<double>& t : times) medians.push_back(Quantile(t, 0.5));
  double sum = 0.0;
  for (double m : medians) sum += m;
  const double mean = sum / static_cast<double>(medians.size());
  state.counters["item_us_min"] = *std::min_element(medians.begin(), medians.end());
  state.counters["item_us_max"] = *std::max_element(medians.begin(), medians.end());
  state.counters["item_us_mean"] = mean;
  state.counters["last_item_share"] = medians.back() / mean;
  for (std::size_t i = 0; i < medians.size() && i < 8; ++i) {
    state.counters["item_us_" + std::to_string(i)] = medians[i];
  }
}
BENCHMARK_CAPTURE(BM_GradientItemCosts, arm_cubes, Example::kArmCubes, 8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GradientItemCosts, planar_hand, Example::kPlanarHand, 64)
    ->Unit(benchmark::kMillisecond);

// The items of a batch for a timeline (below), run through ParallelFor directly so that each
// item can be timed: run(w, i) runs item i on worker w's own buffers (w < 2), as the library's
// batch does; warm() runs every item once on each worker's buffers.
struct TimelineItems {
  std::size_t count = 0;
  std::function<void(std::size_t worker, std::size_t item)> run;
  void warm() const {
    for (std::size_t w = 0; w < 2; ++w) {
      for (std::size_t i = 0; i < count; ++i) run(w, i);
    }
  }
};

// BatchStepper's items: Calc and CalcDiff A and B of one point with the worker's own data, its
// warm start cleared.
TimelineItems GradientItemsOf(Example example, int count) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, "qp");
  auto points = std::make_shared<std::vector<StepPoint>>(BatchPoints(StateOf(example), count));
  auto data = std::make_shared<std::vector<std::unique_ptr<StepData>>>();
  data->push_back(model->CreateData());
  data->push_back(model->CreateData());
  return {points->size(), [model, points, data](std::size_t worker, std::size_t i) {
            StepData* own = (*data)[worker].get();
            model->ClearWarmStart(own);
            model->Calc((*points)[i].x, (*points)[i].u, own);
            model->CalcDiff(GradientMode::kAAndB, own);
          }};
}

// RolloutBatchInto's items: one rollout of RolloutBatchOf's batch, on the worker's own workspace
// (its step data and its trajectory, overwritten in place).
TimelineItems RolloutItemsOf(Example example, int rollouts, int steps) {
  const std::shared_ptr<const StepModel> model = ModelOf(example, "qp");
  const RolloutInputs inputs = RolloutInputsOf(example, *model, rollouts, steps);
  struct Single {  // rollout b as a batch of one, made here: no allocation per item
    std::vector<State> x0;
    std::vector<Eigen::MatrixXd> commands;
  };
  auto singles = std::make_shared<std::vector<Single>>();
  for (int b = 0; b < rollouts; ++b) {
    singles->push_back({{inputs.x0s[b]}, {}});
    if (!inputs.commands.empty()) singles->back().commands.push_back(inputs.commands[b]);
  }
  auto workspaces = std::make_shared<std::vector<std::unique_ptr<RolloutWorkspace>>>();
  workspaces->push_back(std::make_unique<RolloutWorkspace>(model));
  workspaces->push_back(std::make_unique<RolloutWorkspace>(model));
  RolloutOptions options;
  options.steps = steps;
  return {singles->size(), [singles, workspaces, options](std::size_t worker, std::size_t b) {
            const Single& one = (*singles)[b];
            RolloutBatchInto(one.x0, one.commands, options, 1, (*workspaces)[worker].get());
          }};
}

// A batch's timeline on T = 1 or 2 threads (the first argument), the calls gap_us apart (the
// second): the caller works alone (busy, on its CPU) for the gap before each call, as a caller
// does between batches, while the other worker spins (SetParkedThreadSpin's default, 4 ms), then
// parks and its CPU idles.
// With the gap of the batch's 1-thread call, a 2-thread call finds the other CPU as the
// single-call rows of BM_ThreadScaling find it. Each item's start and end (wall clock from the
// call's start) and its thread CPU time are recorded. Medians over the calls [µs]:
// worker1_start_us (how late the other worker began its first item), caller_end_us /
// worker1_end_us (when each worker finished its last item), call_us (the call's wall time), and
// items_1 (items the other worker ran); per item CPU time on the caller and on the other worker
// (item_cpu_us_0, _1): a worker whose items cost more than the caller's shows there (its CPU's
// caches emptied while it idled: thread_wake_bench's BM_CacheAfterIdle), a late start in
// worker1_start_us; worker1_first_item_extra_us, how much longer the other worker's first item
// of a call took (wall clock) than the same item alone (the caller's, warm, the other CPU idle).
// With the same gap, call_us at T = 1 over twice call_us at T = 2 is the call's linear fraction.
void BM_BatchTimeline(benchmark::State& state, const std::function<TimelineItems()>& make) {
  const int threads = static_cast<int>(state.range(0));
  const double gap_seconds = 1e-6 * static_cast<double>(state.range(1));
  const TimelineItems batch = make();
  struct Item {
    double start = 0, end = 0, cpu = 0;
    std::size_t worker = 0;
  };
  std::vector<Item> items(batch.count);
  std::vector<double> worker1_start, caller_end, worker1_end, call, items_1, cpu[2];
  std::vector<double> first_extra;  // per call: the other worker's first item beyond its alone
  const auto thread_cpu = [] { return 1e6 * ThreadCpuSeconds(); };  // [µs]
  batch.warm();
  batch.warm();
  // Each item's wall time alone [µs]: on the caller, warm, the other CPU idle (median of 5).
  std::vector<double> alone(batch.count);
  for (std::size_t i = 0; i < batch.count; ++i) {
    std::vector<double> walls;
    for (int pass = 0; pass < 5; ++pass) {
      const double begun = WallSeconds();
      batch.run(0, i);
      walls.push_back(1e6 * (WallSeconds() - begun));
    }
    alone[i] = Quantile(walls, 0.5);
  }
  for (auto _ : state) {
    for (const double resume = WallSeconds() + gap_seconds; WallSeconds() < resume;) {
    }
    const double start = WallSeconds();
    ParallelFor(batch.count, threads, [&](std::size_t worker, std::size_t i) {
      Item& item = items[i];
      item.worker = worker;
      item.start = 1e6 * (WallSeconds() - start);
      const double cpu_start = thread_cpu();
      batch.run(worker, i);
      item.cpu = thread_cpu() - cpu_start;
      item.end = 1e6 * (WallSeconds() - start);
    });
    call.push_back(1e6 * (WallSeconds() - start));
    // The other worker's first item is its earliest started, not its lowest numbered: once its
    // share is empty it takes the caller's last items.
    double first1 = -1, end0 = 0, end1 = 0, n1 = 0;
    std::size_t first_item = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& item = items[i];
      cpu[item.worker].push_back(item.cpu);
      if (item.worker == 1) {
        if (first1 < 0 || item.start < first1) {
          first1 = item.start;
          first_item = i;
        }
        end1 = std::max(end1, item.end);
        ++n1;
      } else {
        end0 = std::max(end0, item.end);
      }
    }
    if (first1 >= 0) {
      worker1_start.push_back(first1);
      first_extra.push_back(items[first_item].end - first1 - alone[first_item]);
    }
    caller_end.push_back(end0);
    worker1_end.push_back(end1);
    items_1.push_back(n1);
  }
  state.counters["worker1_start_us"] = Quantile(worker1_start, 0.5);
  state.counters["worker1_first_item_extra_us"] = Quantile(first_extra, 0.5);
  state.counters["caller_end_us"] = Quantile(caller_end, 0.5);
  state.counters["worker1_end_us"] = Quantile(worker1_end, 0.5);
  state.counters["call_us"] = Quantile(call, 0.5);
  state.counters["items_1"] = Quantile(items_1, 0.5);
  state.counters["item_cpu_us_0"] = Quantile(cpu[0], 0.5);
  state.counters["item_cpu_us_1"] = Quantile(cpu[1], 0.5);
}
// The gaps: none, 0.2 ms, and each batch's 1-thread call (about 2.5 ms for the arm's 8 points,
// 0.65 ms for the planar hand's 64, 15 ms for the 64 planar rollouts: the single-call rows).
BENCHMARK_CAPTURE(BM_BatchTimeline, gradients_arm_cubes,
                  [] { return GradientItemsOf(Example::kArmCubes, 8); })
    ->ArgNames({"threads", "gap_us"})
    ->ArgsProduct({{1, 2}, {0, 200, 2500}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BatchTimeline, gradients_planar_hand,
                  [] { return GradientItemsOf(Example::kPlanarHand, 64); })
    ->ArgNames({"threads", "gap_us"})
    ->ArgsProduct({{1, 2}, {0, 200, 650, 2500}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BatchTimeline, rollouts_planar_hand,
                  [] { return RolloutItemsOf(Example::kPlanarHand, 64, 50); })
    ->ArgNames({"threads", "gap_us"})
    ->ArgsProduct({{1, 2}, {0, 15000}})
    ->Unit(benchmark::kMillisecond);

// What a parked pool costs while no call comes: 8 calls of 2 short items in a row (so that the
// other worker spins for the next call, kIdleSpin in parallel_for.cc), then 20 ms with no call;
// idle_cpu_us is the process's CPU time in those 20 ms beyond the sleep's own (a sleep of the
// same length without the pool's calls before it), median over the iterations.
void BM_ParkedPoolIdleCpu(benchmark::State& state) {
  std::vector<double> idle;
  const auto quiet_cpu = [] {
    const double start = ProcessCpuSeconds();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return ProcessCpuSeconds() - start;
  };
  for (auto _ : state) {
    const double alone = quiet_cpu();
    for (int call = 0; call < 8; ++call) {
      ParallelFor(2, 2, [](std::size_t, std::size_t) {});
    }
    idle.push_back(1e6 * (quiet_cpu() - alone));
  }
  state.counters["idle_cpu_us"] = Quantile(idle, 0.5);
}
BENCHMARK(BM_ParkedPoolIdleCpu)->Iterations(25)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_ParallelForStart(benchmark::State& state) {
  const double item_seconds = 200e-6;
  std::vector<double> helper_start, overhead;
  for (auto _ : state) {
    const double start = WallSeconds();
    double helper = -1.0;
    ParallelFor(2, 2, [&](std::size_t worker, std::size_t) {
      const double begun = WallSeconds();
      if (worker == 1) helper = begun - start;
      while (WallSeconds() - begun < item_seconds) {
      }
    });
    const double call = WallSeconds() - start;
    if (helper >= 0.0) helper_start.push_back(1e6 * helper);
    overhead.push_back(1e6 * (call - item_seconds));
  }
  state.counters["helper_start_us_50"] = Quantile(helper_start, 0.5);
  state.counters["helper_start_us_90"] = Quantile(helper_start, 0.9);
  state.counters["overhead_us_50"] = Quantile(overhead, 0.5);
  state.counters["calls_without_helper"] =
      static_cast<double>(overhead.size() - helper_start.size());
}
BENCHMARK(BM_ParallelForStart)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
