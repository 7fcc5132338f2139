#pragma once
// Builds the Scene of a file of the reference quasistatic simulator (io/qsim_system_file.h)
// through the SceneBuilder, as the scene loader builds a scene file's (docs/qsim-files.md).

#include <string>

#include "quasidyn/io/formulation_keys.h"
#include "quasidyn/io/qsim_system_file.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// The scene of `qsim`: 3D, the qp formulation (the simulator's default forward mode, kQpMp)
// with the objects' mass term of `quasistatic_sim_params`, the models' warnings and the
// file's own in Scene::warnings. Throws SceneError at the line of what does not build.
Scene BuildQsimScene(const QsimScene& qsim, const FormulationKeys& keys);

}  // namespace quasidyn
