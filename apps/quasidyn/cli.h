#pragma once
// The command line as a function: `quasidyn`'s main calls it, and a program that registers
// formulations of its own first (formulations/registry.h; tests/plugin/) gets the same command
// line with them. Every error becomes a message on stderr and a non-zero exit code: 0 done, 2
// bad input or command line, 3 a step that failed (the subcommands say which).

namespace quasidyn::cli {

int RunCommandLine(int argc, char** argv);

}  // namespace quasidyn::cli
