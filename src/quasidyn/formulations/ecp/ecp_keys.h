#pragma once
// The scene keys of the ecp formulation (Xie & Chakraborty; docs/scene-format.md) and the
// checks that need the whole scene:
//
//   formulation: {type: ecp, e_t: 1, e_o: 1, e_r: 1}      (EcpParameters)
//   objects: [{..., impulses: [{t: 1.0, p: [px, py, pz, mx, my, mz]},
//                              {when: {wz: 0}, tolerance: 1e-6, p: [...]},
//                              {from: 1.5, to: 2.0, f: [fx, fy, fz, mx, my, mz]}]}]
//
// impulses: per entry `p`, 6 numbers (impulse [N·s], angular impulse about the body origin
// [N·m·s], world frame), and either `t` [s] >= 0 (applied once, in the step that starts at or
// after t) or `when: {<component>: value}` with component one of vx, vy, vz (the body origin's
// velocity [m/s]), wx, wy, wz (angular velocity [rad/s]), and an optional `tolerance` >= 0
// (default 1e-6; applied in every step that starts with |v_component − value| <= tolerance);
// or a force window: `f` (force [N], moment about the body origin [N·m], world frame) applied as
// h·f in every step that starts in [from, to) [s].
// Errors (SceneError at the key): impulses outside the ecp formulation, on a fixed or planar
// object, a malformed entry; for an ecp scene: a planar scene (at formulation.type), a robot (at
// robots[i].name), a shape without C² convex inequalities such as a capsule (at the shape), an
// object of several bodies (at objects[i].name).

#include <Eigen/Core>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

inline constexpr const char* kEcpName = "ecp";

// An impulse applied to an object by the ecp formulation (objects[].impulses,
// docs/scene-format.md): once, in the step that holds time `time`, or, when trigger_component
// >= 0, in every step that starts with the object's velocity component within a tolerance of a
// value (the paper's "an impulse whenever ω_z reaches 0", §VI-B).
struct AppliedImpulse {
  int instance = -1;  // index into Scene::instances (an object on a floating joint)
  // (p [N·s], angular impulse about the body origin [N·m·s]), world frame.
  Eigen::Matrix<double, 6, 1> impulse = Eigen::Matrix<double, 6, 1>::Zero();
  // trigger_component < 0 and duration = 0: applied in the step k with t_k − h <= time < t_k
  // (t_k = k·h, up to 1e-9·h of rounding), i.e. the first step that starts at or after `time` [s].
  double time = 0.0;
  // > 0 [s]: `impulse` is a generalized force (f [N], moment about the body origin [N·m]) applied
  // over [time, time + duration): h·impulse in every step that starts in that window.
  double duration = 0.0;
  // 0 … 5: the component (ṗ_x, ṗ_y, ṗ_z [m/s] of the body origin, ω_x, ω_y, ω_z [rad/s]; world)
  // of the object's velocity at the start of a step; the impulse is applied in every step where
  // |v_i − trigger_value| <= trigger_tolerance (>= 0).
  int trigger_component = -1;
  double trigger_value = 0.0;
  double trigger_tolerance = 1e-6;
};

// The applied impulses a scene gives (Scene::extensions["ecp"]).
struct EcpSceneKeys final : SceneExtension {
  std::vector<AppliedImpulse> impulses;
  // The last timed impulse's end (a run of the scene lasts at least that long).
  double LastEventTime() const override;
};

// Reads every object's `impulses` into scene->extensions["ecp"] and, when the scene names ecp,
// checks what the formulation needs of it (above).
void ReadEcpSceneKeys(const YamlValue& root, Scene* scene);

// e_t, e_o [-] > 0 and e_r [m] > 0, the semi-axes of the friction ellipsoid (Xie & Chakraborty,
// eqs. (6) and (9)); defaults 1, 1, 1 m.
std::vector<ParameterSpec> EcpParameterSpecs();

}  // namespace quasidyn
