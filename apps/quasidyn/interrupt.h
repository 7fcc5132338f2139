#pragma once
// SIGINT (Ctrl-C) and SIGTERM during a long command (plan, optimize, track, compare; docs/cli.md,
// "Interrupting a command"): while an InterruptScope lives, the first of them only sets the
// scope's cancellation token (common/cancellation.h), which the library call polls at its safe
// points; the call returns what it has and the command writes it, prints one line naming the
// file and what it holds (ReportInterrupted) and exits 128 + the signal's number (130 for
// SIGINT, 143 for SIGTERM). The handler is installed with SA_RESETHAND: the signal's default
// action is back as soon as it has run, so a second Ctrl-C kills the program at once.

#include <string>

#include "quasidyn/common/cancellation.h"

namespace quasidyn::cli {

class InterruptScope {
 public:
  // Installs the handler for SIGINT and SIGTERM (a signal ignored when the program started, as
  // SIGINT in a background job of a shell without job control, stays ignored) and clears the
  // token. One scope at a time.
  InterruptScope();
  // Puts back the handlers that were there before.
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // The token the handler sets, for the library's settings or options (PlannerOptions::cancel,
  // ...); it lives as long as the program.
  const CancellationToken* token() const;
  // Whether a signal came since the scope was made.
  bool interrupted() const;
};

// The exit code of a command a signal interrupted: 128 + the signal's number (130: SIGINT).
int InterruptedExitCode();

// Prints "quasidyn: COMMAND: interrupted WHAT" on stderr (WHAT: what was done and what was
// written, e.g. "after 1234 nodes (41 s): wrote plan.json (status interrupted, ...)") and throws
// CLI::RuntimeError(InterruptedExitCode()).
[[noreturn]] void ReportInterrupted(const std::string& command, const std::string& what);

}  // namespace quasidyn::cli
