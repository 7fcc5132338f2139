#pragma once
// Builds the Scene of a file of the reference quasistatic simulator (io/qsim_system_file.h)
// through the SceneBuilder, as the scene loader builds a scene file's (docs/qsim-files.md).

#include <string>

#include "quasidyn/io/qsim_system_file.h"
#include "quasidyn/io/scene_builder.h"
#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// The formulation of `qsim`'s scene: qp (the simulator's default forward mode, kQpMp) with the
// objects' mass term of `quasistatic_sim_params` as its parameters (object_mass_scale,
// unactuated_mass_scale), at the key that gives it; unchecked (the scene loader checks them,
// scenes/scene_loading.h).
SceneFormulation QsimFormulation(const QsimScene& qsim);

// The scene of `qsim`: 3D, QsimFormulation's formulation, the models' warnings and the file's
// own in Scene::warnings; the models start at `starts` where it names them (a side file's
// `initial:`, SceneBuilder::SetStarts), else at the file's q0. Throws SceneError at the line of
// what does not build.
Scene BuildQsimScene(const QsimScene& qsim, const StartOverrides& starts = {});

}  // namespace quasidyn
