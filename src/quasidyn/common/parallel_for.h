#pragma once
// Items 0 … n−1 on T threads (std::thread) with a fixed assignment: worker w (0 <= w < T) runs
// items w, w + T, w + 2T, … in increasing order; the calling thread is worker 0. An item sees
// only what its own worker ran before it, so a caller whose items are independent of each other
// (each writes its own output slot; per-worker state is reset before each item) gets results
// bitwise identical for every T: the batches of stepping/batch_step.h and simulation/rollout.h.
//
// Failures: an exception thrown by an item ends its worker (the other workers finish their
// items); after every worker has joined, the exception of the lowest-numbered failed worker is
// rethrown. A thread that cannot be started: the started ones are joined and the error is
// rethrown. Throws std::invalid_argument for T < 1.

#include <cstddef>
#include <functional>

namespace quasidyn {

// work(w, i) for every item i < count, on worker w = i mod T (T = threads >= 1). At most
// min(T, count) workers run; count = 0 runs nothing.
void ParallelFor(std::size_t count, int threads,
                 const std::function<void(std::size_t worker, std::size_t item)>& work);

}  // namespace quasidyn
