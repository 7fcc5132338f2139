#pragma once
// Writes the scene file (docs/scene-format.md) equivalent to a file of the reference
// quasistatic simulator (io/qsim_system_file.h): the same models, poses, stiffnesses, initial
// q and parameters, every number written so that it reads back to the same double, so the
// written scene loads into the same Scene and steps bitwise like the original (`quasidyn
// convert`, docs/qsim-files.md).

#include <map>
#include <string>

#include "quasidyn/io/qsim_system_file.h"

namespace quasidyn {

// The scene file's text. Model files are named relative to `output_directory` (the folder the
// text is written to); `package_folders` (NAME: folder, the command line's --package) become
// the scene's `packages:`, relative to it too.
std::string NativeSceneYaml(const QsimScene& qsim, const std::string& output_directory,
                            const std::map<std::string, std::string>& package_folders = {});

// `x` in the fewest significant digits (at most 17) that read back to exactly `x`.
std::string RoundTripNumber(double x);

}  // namespace quasidyn
