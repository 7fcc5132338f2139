#pragma once
// `quasidyn view TRAJ.json -o OUT.html [--scene SCENE]`: writes one self-contained HTML page
// (src/quasidyn/viewer/html_writer.h) that animates a trajectory file
// (docs/trajectory-format.md). The scene is the file the trajectory records (as given to
// `simulate`: tried as is, then relative to the trajectory's folder) unless --scene names one.
// Exit code 2 with a message on stderr for a missing or malformed trajectory, a missing scene,
// a scene whose n_q differs from the trajectory's, or an output path refused by
// output_paths.h (empty, or an input: the trajectory, the scene, its URDFs). The page is
// written atomically.

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddViewCommand(CLI::App& app);

}  // namespace quasidyn::cli
