#pragma once
// A long library call that Ctrl-C interrupts (docs/python.md, "Interrupting a long call"):
// Python runs its signal handlers (the default one raises KeyboardInterrupt) only in the main
// thread and only when that thread runs Python code or calls PyErr_CheckSignals, which needs the
// GIL; a C++ loop that runs without the GIL never sees them. So the call runs on a worker thread
// while the calling thread, the GIL released, waits for it in slices of kSignalPoll and between
// two slices takes the GIL and calls PyErr_CheckSignals. When a handler raises (KeyboardInterrupt,
// or whatever a handler of the caller's raises), the caller sets the call's cancellation token
// (common/cancellation.h), which the library polls at its safe points (a rollout's steps, the
// planner's iterations), waits for the worker to return and raises the handler's exception:
// the call returns within a slice plus one step or iteration of the library, its partial result
// dropped, and nothing of the library is left in use (the next call starts afresh). Without a
// signal the worker's result (or its exception, translated as any binding's) is returned.
//
// Called with the GIL held. `work` must not touch Python objects (it runs without the GIL).

#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "quasidyn/common/cancellation.h"

namespace quasidyn::python {

// How often the waiting thread looks for a signal: a Ctrl-C is seen within this time.
inline constexpr std::chrono::milliseconds kSignalPoll{20};

template <typename Work>
auto CallInterruptibly(CancellationToken* token, Work&& work) -> decltype(work()) {
  using Result = decltype(work());
  std::optional<Result> result;
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  bool signalled = false;
  {
    pybind11::gil_scoped_release release;
    std::thread worker([&] {
      try {
        result.emplace(work());
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
      finished.notify_all();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, kSignalPoll, [&] { return done; })) {
      if (signalled) continue;  // the token is set: wait for the worker's return
      lock.unlock();
      {
        pybind11::gil_scoped_acquire acquire;
        // The handler's exception stays set in this thread's state until it is raised below.
        signalled = PyErr_CheckSignals() != 0;
      }
      if (signalled) token->Cancel();
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (signalled) throw pybind11::error_already_set();
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

}  // namespace quasidyn::python
