#pragma once
// The scene keys of the ecp formulation (Xie & Chakraborty; docs/scene-format.md) and the
// checks that need the whole scene:
//
//   formulation: {type: ecp, e_t: 1, e_o: 1, e_r: 1}      (checked by FormulationParameterProblem)
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

#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

void ApplyEcpKeys(const YamlValue& root, Scene* scene);

}  // namespace quasidyn
