#pragma once
// Reads a scene file's optional `mpc:` block (docs/scene-format.md, "MPC") into an MpcSettings
// (model/mpc_settings.h) and checks it against the loaded scene with CheckMpcSettings, so that
// every problem is a SceneError at the line of the field, e.g.
//   scene.yaml:40: mpc.target: expected n_x = n_q + n_v = 4 numbers, got 3
// The block may leave the target or the bounds out (the command line or Python may give them);
// what it gives must be valid.

#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/mpc_settings.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// Reads `block` (the value of the key `mpc`) for the loaded `scene`.
MpcSettings ReadMpcSettings(const YamlValue& block, const Scene& scene);

}  // namespace quasidyn
