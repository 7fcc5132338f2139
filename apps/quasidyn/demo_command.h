#pragma once
// `quasidyn demo [--out DIR] [--quiet] [--formulation F]`: runs the scene built into the
// program (examples/arm_cubes: the arm picks the red cube and places it on the stack; see
// EmbedFiles.cmake), prints a summary (steps, simulated and wall time, contacts, solver
// statuses, the red cube's final position and orientation error against its target on top of
// the stack) and writes DIR (default quasidyn-demo/): arm_cubes.json (trajectory),
// arm_cubes.html (viewer) and SVG plots, each atomically. No file is read: it runs from any
// folder. An empty DIR is refused (exit code 2).

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddDemoCommand(CLI::App& app);

}  // namespace quasidyn::cli
