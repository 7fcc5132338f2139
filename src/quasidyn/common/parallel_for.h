#pragma once
// Items 0 … n−1 on T threads, handed out one at a time in increasing order from a shared
// counter: a worker that finishes an item takes the next one not yet taken, so items of unequal
// cost, and a worker that the operating system runs late (other load on the machine), leave no
// worker idle while items remain. The calling thread is worker 0. Which worker runs an item
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
// 50 µs). A parked thread that no call reaches spins at most 50 µs after a call, then blocks. One
// call at a time uses the parked threads; a call made while they are in use (from another thread,
// or from inside an item) starts and joins threads of its own, as a call did before. A child made
// by fork() starts threads of its own.
//
// Failures: an exception thrown by item f is kept; the workers take no item numbered above f
// from then on but finish the items below it, and once no worker runs an item the exception of
// the lowest-numbered failed item is rethrown (the same item for every T and every timing). A
// thread that cannot be started: the error (std::system_error) is rethrown, with no item run
// when the parked threads were to be used, after joining the started ones otherwise. Throws
// std::invalid_argument for T < 1.

#include <cstddef>
#include <functional>

namespace quasidyn {

// work(w, i) for every item i < count, on some worker w < T (T = threads >= 1); a worker runs
// its items in increasing order, one at a time. At most min(T, count) workers run; count = 0
// runs nothing.
void ParallelFor(std::size_t count, int threads,
                 const std::function<void(std::size_t worker, std::size_t item)>& work);

}  // namespace quasidyn
