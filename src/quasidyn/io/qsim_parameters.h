#pragma once
// The `quasistatic_sim_params` of a system file of the reference quasistatic simulator (io/
// qsim_system_file.h) read into the scene's parameters: gravity, nd_per_contact → friction rays,
// contact_detection_tolerance → contact tolerance (.inf: every pair), h → time step,
// is_quasi_dynamic and unactuated_mass_scale (.nan included) → the objects' mass term; the
// mapping and its sources are in docs/qsim-files.md. Unknown keys fail with "did you mean";
// every error names the file and the line.

#include "quasidyn/io/qsim_system_file.h"
#include "quasidyn/io/yaml_reader.h"

namespace quasidyn {

// Reads `params` (a map, or nothing) into *scene; what the simulator sets only for how it
// computes (calc_contact_forces, ...) becomes a warning in scene->warnings.
void ReadQsimParameters(const YamlValue& params, QsimScene* scene);

}  // namespace quasidyn
