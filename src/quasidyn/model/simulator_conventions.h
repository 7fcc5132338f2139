#pragma once
// The scene's `conventions:` block: three choices where quasidyn and the reference quasistatic
// simulator (Pang & Tedrake, github pangtao22/quasistatic_simulator, "qsim") compute the same
// step differently. quasidyn's own choices are the defaults of a scene file; a qsim system file
// or model directive (io/qsim_scene.h) loads with QsimConventions(), so that its step gives
// qsim's numbers (docs/qsim-files.md, "Parity mode").
//
//   conventions:
//     friction_ray_basis: qsim          # quasidyn | qsim
//     quaternion_update: first_order    # exponential_map | first_order
//     joint_limits: ignored             # enforced | ignored

#include "quasidyn/model/settings_schema.h"

namespace quasidyn {

// The tangent frame (t1, t2) of a 3D contact with normal n, hence its friction-pyramid rays
// d_j = cos(2πj/n_d) t1 + sin(2πj/n_d) t2 (contact/friction_cone.h):
//   kQuasidyn  Duff et al.'s basis, smooth for every normal off n_z = −1/2 (TangentBasis);
//   kQsim      qsim's (CalcTangentVectors of its contact_jacobian_calculator.cc): for n_d >= 3
//              t1, t2 are the first two columns of the rotation taking ẑ to n that Drake's
//              RotationMatrix::MakeFromOneUnitVector(n, 2) builds from n's smallest
//              component; for n_d = 2 the two rays are ±(x̂ × n)/|x̂ × n|.
// Planar scenes have one in-plane tangent, the same under both.
enum class FrictionRayBasis { kQuasidyn, kQsim };

// How a floating joint's quaternion Q moves over a step h [s] with angular velocity ω [rad/s]
// in the world (kinematics/kinematics.h, StepConfiguration):
//   kExponentialMap  Q⁺ = normalize(exp(½ ω h) ⊗ Q̂): the exact rotation for a constant ω;
//   kFirstOrder      Q⁺ = normalize(Q̂ + h E(Q̂) ω), E(Q) ω = ½ [0; ω] ⊗ Q: qsim's update
//                    (UpdateQdictFromV with CalcNW2Qdot, quasistatic_simulator.cc).
// Q̂ = Q/|Q|. The two agree to O((h|ω|)³) per step.
enum class QuaternionUpdate { kExponentialMap, kFirstOrder };

// Whether the step keeps revolute and prismatic joints within their position limits
// (dynamics/joint_limit_rows.h): kEnforced, or kIgnored as qsim does (its programs have no
// joint-limit rows; the limits only place q0).
enum class JointLimitRule { kEnforced, kIgnored };

const char* FrictionRayBasisName(FrictionRayBasis basis);
const char* QuaternionUpdateName(QuaternionUpdate update);
const char* JointLimitRuleName(JointLimitRule rule);

struct SimulatorConventions {
  FrictionRayBasis friction_ray_basis = FrictionRayBasis::kQuasidyn;
  QuaternionUpdate quaternion_update = QuaternionUpdate::kExponentialMap;
  JointLimitRule joint_limits = JointLimitRule::kEnforced;

  bool operator==(const SimulatorConventions&) const = default;
};

// qsim's three choices (kQsim, kFirstOrder, kIgnored).
SimulatorConventions QsimConventions();

// The block's declaration (model/settings_schema.h), key `conventions`.
const SettingsSchema<SimulatorConventions>& SimulatorConventionsSchema();

}  // namespace quasidyn
