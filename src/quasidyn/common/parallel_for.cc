#include "quasidyn/common/parallel_for.h"

#include <algorithm>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

void ParallelFor(std::size_t count, int threads,
                 const std::function<void(std::size_t worker, std::size_t item)>& work) {
  QUASIDYN_CHECK_ARGUMENT(threads >= 1, "ParallelFor",
                          "threads must be >= 1 (got " + std::to_string(threads) + ")");
  const auto thread_count = static_cast<std::size_t>(threads);
  const std::size_t workers = std::min(thread_count, count);
  std::vector<std::exception_ptr> errors(workers);
  // Worker w computes items w, w + T, w + 2T, …: a fixed assignment.
  auto run = [&](std::size_t w) {
    try {
      for (std::size_t i = w; i < count; i += thread_count) work(w, i);
    } catch (...) {  // reported after the join
      errors[w] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers > 0 ? workers - 1 : 0);
  try {
    for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(run, w);
  } catch (...) {  // a thread could not be started: finish the started ones, then report
    for (std::thread& thread : pool) thread.join();
    throw;
  }
  if (workers > 0) run(0);  // the calling thread is worker 0
  for (std::thread& thread : pool) thread.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace quasidyn
