#pragma once
// `quasidyn sweep SCENE --param h=0.01,0.05 --formulation qp,socp [--scheduler tcp://HOST:PORT]`:
// a parameter sweep on a Dask cluster. The sweep lives in the Python module
// (quasidyn.distributed, docs/distributed.md), Dask being a Python library; this subcommand runs
// `python3 -m quasidyn.distributed sweep ...` with the program's arguments, finding the module
// next to the program (the build tree's python/ folder, or the install's site folder).

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace quasidyn::cli {

// Lists `sweep` among the subcommands (`quasidyn --help`, "did you mean").
void AddSweepCommand(CLI::App& app);
// Runs the Python program with `arguments` (those after `sweep`, --help included); returns only
// when it cannot be started (then a message on stderr and 2).
int RunSweepCommand(const std::vector<std::string>& arguments);

}  // namespace quasidyn::cli
