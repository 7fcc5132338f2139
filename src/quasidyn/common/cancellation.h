#pragma once
// A request to stop a long library call early, owned by the caller: a flag the caller (or a
// signal handler, or another thread) sets and the call polls at its safe points, where its
// state is whole: the planner before each iteration (or batched round), the trajectory
// optimiser before each iteration and between the linearisations of its steps, plan tracking
// before each control step, a rollout before each step (every worker of a batch). A call that
// sees it set stops there and returns what it has, with a status or message that says
// "interrupted" (the call's own header says which); it never throws for it (docs/cli.md,
// "Interrupting a command"; docs/python.md, "Interrupting a long call").
//
// Setting the flag is one lock-free atomic store: safe from a signal handler
// (async-signal-safe) and from any thread. Reading it is one relaxed load: cheap enough for a
// loop that checks it every step.

#include <atomic>

namespace quasidyn {

class CancellationToken {
 public:
  CancellationToken() = default;
  CancellationToken(const CancellationToken&) = delete;
  CancellationToken& operator=(const CancellationToken&) = delete;

  // Asks the calls that poll this token to stop at their next safe point.
  void Cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
  // Clears the request (before the next call that uses the token).
  void Reset() noexcept { cancelled_.store(false, std::memory_order_relaxed); }
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }

 private:
  // Lock-free, so that a signal handler may set it.
  static_assert(std::atomic<bool>::is_always_lock_free);
  std::atomic<bool> cancelled_{false};
};

// Whether `token` (may be null: never cancelled) asks to stop.
inline bool Cancelled(const CancellationToken* token) noexcept {
  return token != nullptr && token->cancelled();
}

}  // namespace quasidyn
