#pragma once
// Small inline scenes for the dynamics tests (header only).

#include <Eigen/Core>
#include <cmath>
#include <string>

#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn::testing {

// 3D: a 0.1 m cube (1 kg) resting on the ground, and a sphere pusher (radius 0.02 m) on three
// prismatic joints (x, y, z; K = 1000 N/m) touching the cube's −x face at height 0.05 m,
// 0.03 m off its centre line. μ = 0.5 everywhere (harmonic of equal values). n_d rays.
inline Scene DiagonalPushScene(int friction_rays) {
  const std::string yaml = R"(
name: diagonal_push
dimension: 3
time_step: 0.01
contact_tolerance: 0.01
friction_rays: )" + std::to_string(friction_rays) +
                           R"(
environment:
  - {name: ground, type: half_space, friction: 0.5}
objects:
  - name: cube
    joint: floating
    body:
      mass: 1.0
      inertia: from_shapes
      shapes: [{type: box, size: [0.1, 0.1, 0.1], friction: 0.5}]
    initial: [0, 0, 0.05, 1, 0, 0, 0]
robots:
  - name: pusher
    bodies:
      - {name: bx, mass: 0.1, inertia: {principal: [1.0e-4, 1.0e-4, 1.0e-4]}}
      - {name: by, mass: 0.1, inertia: {principal: [1.0e-4, 1.0e-4, 1.0e-4]}}
      - name: tip
        mass: 0.1
        inertia: from_shapes
        shapes: [{type: sphere, radius: 0.02, friction: 0.5}]
    joints:
      - {name: x, type: prismatic, parent: world, child: bx, axis: [1, 0, 0]}
      - {name: y, type: prismatic, parent: bx, child: by, axis: [0, 1, 0]}
      - {name: z, type: prismatic, parent: by, child: tip, axis: [0, 0, 1]}
    stiffness: 1000
    initial: [-0.07, 0.03, 0.05]
)";
  return LoadSceneFromString(yaml, "diagonal_push", "");
}

// The pusher's command that drives the cube diagonally (x + 2 cm, y + 1 cm from q0): its
// ground corners slide, one may stick under the push.
inline Eigen::VectorXd DiagonalPushCommand(const Scene& scene) {
  Eigen::VectorXd u = scene.q0.tail(scene.nq_a);
  u[0] += 0.02;
  u[1] += 0.01;
  return u;
}

// A named state of a scene, for tests that loop over several.
struct SceneState {
  std::string name;
  Scene scene;
  Eigen::VectorXd q, u;
};

// Planar: a 0.1 m box (1 kg) resting on the ground y <= 0, μ = 0.5, with gravity tilted by
// the angle θ [rad] toward +x: g = 9.81 (sin θ, −cos θ). tan θ < μ sticks, tan θ > μ slides.
// No robot.
inline Scene TiltedGravityBoxScene(double theta) {
  const double g = 9.81;
  const std::string yaml = R"(
name: tilted_box
dimension: 2
gravity: [)" + std::to_string(g * std::sin(theta)) +
                           ", " + std::to_string(-g * std::cos(theta)) +
                           R"(, 0]
time_step: 0.01
contact_tolerance: 0.01
environment:
  - {name: ground, type: half_space, friction: 0.5}
objects:
  - name: box
    joint: planar
    body:
      mass: 1.0
      inertia: from_shapes
      shapes: [{type: box, size: [0.1, 0.1, 0.1], friction: 0.5}]
    initial: [0, 0.05, 0]
)";
  return LoadSceneFromString(yaml, "tilted_box", "");
}

// Planar: a ball of radius 0.1 m between the ground y <= 0 and a ceiling y >= 0.15 (a half
// space turned upside down): φ₁ + φ₂ = 0.15 − 0.2 = −0.05 m < 0 whatever the ball does, so
// no velocity satisfies both non-penetration constraints. A gripper-less scene with one
// prismatic robot far away (so that commands exist).
inline Scene SqueezedBallScene() {
  const std::string yaml = R"(
name: squeezed_ball
dimension: 2
time_step: 0.01
contact_tolerance: 0.01
environment:
  - {name: ground, type: half_space, friction: 0.5}
  - {name: ceiling, type: half_space, friction: 0.5, pose: {x: 0, y: 0.15, theta: 3.141592653589793}}
objects:
  - name: ball
    joint: planar
    body:
      mass: 1.0
      inertia: from_shapes
      shapes: [{type: sphere, radius: 0.1, friction: 0.5}]
    initial: [0, 0.075, 0]
robots:
  - name: slider
    bodies:
      - name: tip
        mass: 0.1
        inertia: from_shapes
        shapes: [{type: sphere, radius: 0.01, friction: 0.5}]
    joints:
      - {name: x, type: prismatic, parent: world, child: tip, axis: [1, 0, 0], pose: {x: 0, y: 1.0}}
    stiffness: 100
    initial: [2.0]
)";
  return LoadSceneFromString(yaml, "squeezed_ball", "");
}

}  // namespace quasidyn::testing
