#pragma once
// The command-line manner every program of bench/ and examples/ shares with `quasidyn`
// (docs/cli.md, "Tools"): `--help` prints the usage and exits 0, a malformed command line exits
// 2 with a message, and `--quiet` prints only errors: no table or summary on stdout, no progress
// on stderr; the files the program writes are the same. Progress lines redrawn with a carriage
// return are drawn only when stderr is a terminal. Header-only, for the tool programs.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace quasidyn::tools {

// Adds `--quiet` to `app`, stored in `*quiet`.
inline void AddQuietFlag(CLI::App* app, bool* quiet) {
  app->add_flag("--quiet", *quiet,
                "Print only errors: no table or summary on stdout, no progress on stderr (the "
                "files are written as without it)");
}

// Parses the command line; exits 0 after --help, 2 after a malformed command line (CLI11's
// message on stderr).
inline void ParseOrExit(CLI::App* app, int argc, char** argv) {
  try {
    app->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::exit(app->exit(e) == 0 ? 0 : 2);
  }
}

// For --quiet: stdout goes to the null device from here on (std::cout and printf alike).
inline void SilenceStdout() {
  std::fflush(stdout);
  if (std::freopen("/dev/null", "w", stdout) == nullptr)
    throw std::runtime_error("--quiet: cannot redirect stdout to /dev/null");
}

// Whether to draw a progress line redrawn with '\r': not quiet, and stderr a terminal.
inline bool ShowsProgress(bool quiet) { return !quiet && isatty(STDERR_FILENO) == 1; }

}  // namespace quasidyn::tools
