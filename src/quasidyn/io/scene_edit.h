#pragma once
// Edits of a loaded scene without editing its YAML: each returns a new scene with one part
// changed and checked as the loader checks it (docs/scene-format.md gives every range); the
// scene it starts from is not changed. What Python's Scene.with_* methods call
// (docs/python.md, "Editing a scene").
//
// A bad value throws std::invalid_argument("<where>: <what is wrong>"), `where` naming the
// caller's function (Python passes its own method name).

#include <Eigen/Core>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// q0 of size n_q, finite, within the loader's number limit, with unit quaternions (to 1e-6,
// then normalised exactly).
Scene WithInitialConfiguration(const Scene& scene, const Eigen::VectorXd& q0, const char* where);

// The command schedule of robot `robot`: knot times [s] strictly increasing and finite, one
// position per knot of the robot's n_q [m, rad]. An empty `times` removes the schedule (the
// robot holds its q0).
Scene WithCommands(const Scene& scene, const std::string& robot, const std::vector<double>& times,
                   const std::vector<Eigen::VectorXd>& positions, const char* where);

// The joint stiffnesses K of robot `robot` [N/m or N·m/rad], > 0 and finite: one value for
// every actuated joint, or one per actuated joint in the robot's q order.
Scene WithStiffness(const Scene& scene, const std::string& robot, const Eigen::VectorXd& stiffness,
                    const char* where);

// The friction coefficient μ [-] >= 0 of one shape (by its scene name).
Scene WithFriction(const Scene& scene, const std::string& shape, double friction,
                   const char* where);

// The time step h [s] > 0 and the contact tolerance ε [m] >= 0. (The formulation block's edit,
// which checks names and parameters against the registry, is scenes/scene_loading.h's
// WithFormulation.)
Scene WithTimeStep(const Scene& scene, double time_step, const char* where);
Scene WithContactTolerance(const Scene& scene, double contact_tolerance, const char* where);

}  // namespace quasidyn
