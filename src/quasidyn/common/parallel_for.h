#pragma once
// Items 0 … n−1 on T threads. Each worker owns a share of the items, a contiguous run (share w
// of S = min(T, n, 8) is items [w·n/S, (w+1)·n/S); worker w owns share w mod S), and takes its
// items one at a time from the front of its share; a worker whose share is empty takes the
// last item of the share with the most items left. So items of unequal cost, and a worker
// that the operating system runs late (other load on the machine), leave no worker idle while
// items remain; and with items of equal cost each worker keeps to its own share, call after
// call: a caller that makes the same batch in a loop finds each item's data in the caches of
// the CPU that touched it last. The calling thread is worker 0. Which worker runs an item
// depends on timing; a caller whose items are independent of each other and of what their
// worker ran before (each writes its own output slot; per-worker state is reset before each
// item) gets results bitwise identical for every T: the batches of stepping/batch_step.h and
// simulation/rollout.h.
//
// Threads: the other T − 1 workers are threads of the process that are started on first use and
// parked between calls (a condition variable), not started and joined per call. A call returns
// once every item is done; a parked thread that the operating system has not run by then is not
// waited for (it stays parked). Blocking costs CPU (a futex wait and wake, context switches, an
// interrupt to the other CPU), so two waits spin briefly before they block: the caller's wait
// for the other workers' last items (for at most 50 µs), and a parked thread's wait for the
// next call when calls come in a loop (the last one within 50 µs of the one before, for at most
// 50 µs). After a call that came within SetParkedThreadSpin's time (below; 4 ms by default, as
// GCC's OpenMP runtime spins by default) after the one before, a parked thread also spins for
// that time before it blocks, unless the call had more workers than the machine has CPUs. One
// call at a time uses the parked threads; a call made while they are in use (from another
// thread, or from inside an item) starts and joins threads of its own, as a call did before. A
// child made by fork() starts threads of its own.
//
// Failures: an exception thrown by item f is kept; the workers run no item numbered above f
// from then on but finish the items below it, and once no worker runs an item the exception of
// the lowest-numbered failed item is rethrown (the same item for every T and every timing). A
// thread that cannot be started: the error (std::system_error) is rethrown, with no item run
// when the parked threads were to be used, after joining the started ones otherwise. Throws
// std::invalid_argument for T < 1 and for n ≥ 2³² (an item's number is kept in 32 bits).

#include <chrono>
#include <cstddef>
#include <functional>

namespace quasidyn {

// work(w, i) for every item i < count, on some worker w < T (T = threads >= 1); a worker runs
// its items one at a time, its own share's in increasing order, then others' last items. At
// most min(T, count) workers run; count = 0 runs nothing.
void ParallelFor(std::size_t count, int threads,
                 const std::function<void(std::size_t worker, std::size_t item)>& work);

// The parked threads' spin after a call unless the caller sets another: 4 ms, about what GCC's
// OpenMP runtime (libgomp) spins by default (GOMP_SPINCOUNT 300,000 with OMP_WAIT_POLICY unset:
// 4.3 ms of CPU after a parallel region on the machine this was measured on, docs/performance.md,
// "Threads").
inline constexpr std::chrono::microseconds kDefaultParkedThreadSpin{4000};

// How long a parked thread spins after a call before it blocks, when the next call does not come
// sooner [µs, 0 to 1 s; default kDefaultParkedThreadSpin; 0: only the 50 µs spin above, between
// calls in a loop]. The trade OpenMP offers as OMP_WAIT_POLICY and KMP_BLOCKTIME: a blocked
// thread started its first item 25–106 µs after the call began on the 2-vCPU virtual machine
// this was measured on (docs/performance.md, "Threads"), and its CPU may have lost its caches
// meanwhile (the host gave them to other work); a spinning thread takes its item at once, but
// holds a CPU busy for the whole spin, even when no call comes. So a thread spins after a call
// only when that call came within the spin after the one before (a spin would have caught it):
// calls further apart cost one spin that catches nothing, then none. A call with more workers
// than the machine has CPUs (std::thread::hardware_concurrency) leaves its threads no spin
// beyond the 50 µs, as libgomp spins 100 times instead with more threads than CPUs. 0 suits a
// process that shares its CPUs with other busy processes and makes its batches far apart.
// Process-wide: it applies to the parked threads of every call; a thread spinning when the value
// changes stops and blocks, and spins by the new value after its next call. Throws
// std::invalid_argument outside 0 to 1 s.
void SetParkedThreadSpin(std::chrono::microseconds spin);
std::chrono::microseconds ParkedThreadSpin();

}  // namespace quasidyn
