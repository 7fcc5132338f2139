#pragma once
// Readable names of the entries of q and v, for trajectory files, linearisations and plots.

#include <string>
#include <vector>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// One name per entry of q (size n_q), from the joint that owns it (model/scene.h):
//   revolute, prismatic  "<joint>"
//   planar               "<joint>/x", "<joint>/y", "<joint>/theta"
//   floating             "<joint>/x", "<joint>/y", "<joint>/z",
//                        "<joint>/qw", "<joint>/qx", "<joint>/qy", "<joint>/qz"
// Throws std::invalid_argument when the joints' q blocks do not tile [0, n_q) exactly.
std::vector<std::string> CoordinateNames(const Scene& scene);

// One name per entry of v (size n_v), the velocities of the second-order models:
//   revolute, prismatic  "<joint>/v"
//   planar               "<joint>/vx", "<joint>/vy", "<joint>/omega"
//   floating             "<joint>/vx", "<joint>/vy", "<joint>/vz" (ṗ in the world),
//                        "<joint>/wx", "<joint>/wy", "<joint>/wz" (ω in the world)
// Throws std::invalid_argument when the joints' v blocks do not tile [0, n_v) exactly.
std::vector<std::string> VelocityNames(const Scene& scene);

// One name per entry of ecp's command u (size n_v,u, stepping/ecp_model.h), the impulse applied
// to each moving object: "<joint>/px", "/py", "/pz" [N·s], "<joint>/mx", "/my", "/mz" [N·m·s].
std::vector<std::string> ImpulseNames(const Scene& scene);

}  // namespace quasidyn
