#pragma once
// What the quasidyn program writes to stderr besides its errors, by level (`--log-level`,
// accepted before or after the subcommand; `--quiet`, which every subcommand has, is
// `--log-level warning`; docs/cli.md):
//
//   error    only errors (a failed step, a bad argument)
//   warning  + warnings (e.g. `info`: the contact query at q0 failed)
//   info     + the progress of long runs (a bar, plan's line), drawn only when stderr is a
//            terminal (the default: a log file gets no `\r` frames); optimize's per-iteration
//            table on stdout
//   debug    + one line per step of a run (its number, time, status, iterations), on any stderr
//
// Results go to stdout whatever the level.

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>

namespace quasidyn::cli {

// The exit code of a subcommand whose run stopped at a failed step (simulate, demo, linearize,
// mpc, track; docs/cli.md).
inline constexpr int kStepFailedExitCode = 3;

enum class LogLevel { kError = 0, kWarning = 1, kInfo = 2, kDebug = 3 };

// "error", "warning", "info", "debug"; ParseLogLevel throws std::invalid_argument naming them.
const char* LogLevelName(LogLevel level);
LogLevel ParseLogLevel(const std::string& name);

void SetLogLevel(LogLevel level);
LogLevel CurrentLogLevel();
// True when messages of `level` are written.
bool Logs(LogLevel level);

// True when stderr is a terminal (isatty).
bool StderrIsTerminal();

// Whether a long run draws its progress bar: level info or above and stderr a terminal.
bool ShowsProgress();

// Adds `--quiet` to a subcommand: the same as --log-level warning (no progress bar).
void AddQuietFlag(CLI::App* command);

// stderr, for a message of `level` the caller has checked with Logs(level).
std::ostream& LogStream();

}  // namespace quasidyn::cli
