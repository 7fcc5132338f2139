#pragma once
// A large planar scene for memory and speed checks (header only): N spheres (radius 0.05 m,
// 0.1 kg, μ = 0.5) in a square pile on the table y <= 0, touching their neighbours, no robot;
// n_v = 3N.

#include <sstream>
#include <string>

#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn::testing {

inline std::string PlanarPileYaml(int n) {
  int columns = 1;
  while (columns * columns < n) ++columns;
  std::ostringstream yaml;
  yaml << "name: planar_pile\ndimension: 2\ntime_step: 0.01\ncontact_tolerance: 0.01\n"
          "environment:\n  - {name: table, type: half_space, friction: 0.5}\nobjects:\n";
  for (int i = 0; i < n; ++i) {
    yaml << "  - name: s" << i << "\n    joint: planar\n    body: {mass: 0.1, inertia: from_shapes,"
         << " shapes: [{type: sphere, radius: 0.05, friction: 0.5}]}\n    initial: ["
         << 0.1 * (i % columns) << ", " << 0.05 + 0.1 * (i / columns) << ", 0]\n";
  }
  return yaml.str();
}

inline Scene PlanarPile(int n) { return LoadSceneFromString(PlanarPileYaml(n), "planar_pile", ""); }

}  // namespace quasidyn::testing
