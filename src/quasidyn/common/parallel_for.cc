#include "quasidyn/common/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

void ParallelFor(std::size_t count, int threads,
                 const std::function<void(std::size_t worker, std::size_t item)>& work) {
  QUASIDYN_CHECK_ARGUMENT(threads >= 1, "ParallelFor",
                          "threads must be >= 1 (got " + std::to_string(threads) + ")");
  const std::size_t workers = std::min(static_cast<std::size_t>(threads), count);
  std::atomic<std::size_t> next{0};
  // Items above the lowest failed one are not started (count while none failed).
  std::atomic<std::size_t> end{count};
  std::mutex failure_mutex;
  std::size_t failed_item = count;
  std::exception_ptr failure;
  auto run = [&](std::size_t w) {
    for (std::size_t i = next.fetch_add(1); i < end.load(); i = next.fetch_add(1)) {
      try {
        work(w, i);
      } catch (...) {  // kept if it is the lowest so far; reported after the join
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (i < failed_item) {
          failed_item = i;
          failure = std::current_exception();
          end.store(i);
        }
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers > 0 ? workers - 1 : 0);
  try {
    for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(run, w);
  } catch (...) {  // a thread could not be started: finish the started ones, then report
    end.store(0);
    for (std::thread& thread : pool) thread.join();
    throw;
  }
  if (workers > 0) run(0);  // the calling thread is worker 0
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace quasidyn
