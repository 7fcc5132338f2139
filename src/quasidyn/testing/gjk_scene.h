#pragma once
// A 3D scene whose contact pairs go through GJK/EPA (geometry/convex_distance_3d.h), which no
// example has: a pusher with a cylindrical tip (vertical axis) pushes a hexagonal prism (a
// convex shape) on a table toward a standing can (a cylinder). Pairs: tip–prism
// (cylinder–convex) and prism–can (convex–cylinder) through GJK/EPA; each shape against the
// table in closed form. The tip starts 5 mm from the prism and the can 1 cm beyond it, both
// within the contact tolerance.
// Header-only: includes io/, so only tests that link quasidyn_io can use it.

#include <string>

#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/shared_scene.h"

namespace quasidyn::testing {

inline constexpr const char* kGjkSceneYaml = R"(
name: gjk_pushing
dimension: 3
time_step: 0.01
contact_tolerance: 0.01
formulation: {type: qp}
environment:
  - {name: table, type: half_space, friction: 0.3}
objects:
  - name: prism
    joint: floating
    body:
      mass: 0.5
      inertia: {principal: [4.5e-4, 4.5e-4, 7.0e-4]}
      shapes:
        - name: hexagon
          type: convex
          friction: 0.4
          vertices: [[0.06, 0, -0.03], [0.03, 0.05196152422706632, -0.03],
                     [-0.03, 0.05196152422706632, -0.03], [-0.06, 0, -0.03],
                     [-0.03, -0.05196152422706632, -0.03], [0.03, -0.05196152422706632, -0.03],
                     [0.06, 0, 0.03], [0.03, 0.05196152422706632, 0.03],
                     [-0.03, 0.05196152422706632, 0.03], [-0.06, 0, 0.03],
                     [-0.03, -0.05196152422706632, 0.03], [0.03, -0.05196152422706632, 0.03]]
    initial: [0.0, 0.0, 0.03, 1, 0, 0, 0]
  - name: can
    joint: floating
    body:
      mass: 0.3
      inertia: from_shapes
      shapes:
        - {name: can_body, type: cylinder, radius: 0.03, length: 0.08, friction: 0.4}
    initial: [0.1, 0.0, 0.04, 1, 0, 0, 0]
robots:
  - name: pusher
    bodies:
      - name: carriage_x
        mass: 0.5
        inertia: {principal: [1.0e-3, 1.0e-3, 1.0e-3]}
      - name: carriage_y
        mass: 0.5
        inertia: {principal: [1.0e-3, 1.0e-3, 1.0e-3]}
      - name: tip
        mass: 0.1
        inertia: from_shapes
        shapes:
          - {name: tip_body, type: cylinder, radius: 0.015, length: 0.04, friction: 0.5}
    joints:
      - {name: x, type: prismatic, parent: world, child: carriage_x, axis: [1, 0, 0]}
      - {name: y, type: prismatic, parent: carriage_x, child: carriage_y, axis: [0, 1, 0]}
      - {name: z, type: prismatic, parent: carriage_y, child: tip, axis: [0, 0, 1]}
    stiffness: [200, 200, 200]
    initial: [-0.08, 0.01, 0.03]
    commands:
      - {t: 0.0, q: [-0.08, 0.01, 0.03]}
      - {t: 1.0, q: [0.05, 0.01, 0.03]}
)";

inline ScenePtr GjkScene() {
  return Shared(LoadSceneFromString(kGjkSceneYaml, "gjk_scene.yaml", "."));
}

}  // namespace quasidyn::testing
