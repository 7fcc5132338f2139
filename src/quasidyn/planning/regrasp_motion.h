#pragma once
// Executing a planner's regrasp on a plant (docs/control.md, "Tracking through regrasps"), and
// in the planner itself on its stepper (regrasp_execution.h, docs/planning.md, "Regrasps the
// plant can execute"; hence in planning/, which control builds on).
//
// A regrasp edge of the RRT (docs/planning.md, contact sampling) jumps the robots from q_a to a
// new grasp g with the objects kept: q_{k+1} = (q^u_k, g). A plant cannot jump; it is sent a
// motion of commands instead, one per plant step, open loop:
//
//   0. hold: every finger commanded to where it is (q_a of the measured configuration: the
//      plant's; the plan's q_k where none is given), from the last command: the grip's squeeze
//      (the command's offset into the objects) is let go, so no finger pushes the objects once
//      another lets go (relax_grip; the planner keeps the grip instead: a ball held in the air
//      falls when it is let go);
//   then, finger by finger (a finger: the joints of one kinematic chain of the robots,
//   fingers() below), for each finger whose joints g changes, the others holding still:
//   1. release: to r_old, its configuration lifted off the objects (Lift below);
//   2. transfer: from r_old to r_new, its new configuration lifted off, through postures that
//      keep the clearance (each waypoint of the joint-space line is lifted again);
//   3. close: from r_new to its joints of g;
//   4. settle: g held for a few plant steps.
//
// The objects are held by what still touches them: the fingers not moving, gravity and the
// support (the ground under the planar hand's ball, the palm under the 3D hand's). A planner's
// regrasp keeps the objects where they are even where nothing would hold them there (the ball
// lifted off the ground between two fingers), so a plant's objects can move during one.
//
// "Lifted off" (Lift below) is a configuration of the robots whose shapes are at least c (the
// clearance) from every object shape and do not overlap any other shape, the objects where
// they are measured (else at the plan's pose), found by Gauss–Newton on the signed distances φ_i of
// the pairs closer than c:
//
//   rows  g_iᵀ δa >= c_i − φ_i,   g_i = ∂φ_i/∂q_a = n_iᵀ (J_A(p_A) − J_B(p_B)) restricted to q_a
//   δa = Gᵀ (G Gᵀ + λ I)⁻¹ r  over the violated rows, clipped to |δa|∞ <= s,
//
// (n from B to A, geometry/contact_point.h, so a motion of A along n increases φ; the robots'
// joints are positions, so their v columns are their q entries, kinematics.h). This moves each
// touching link away along its contact normals, the "lift-off" of a real hand; c_i = c for a
// robot–object pair, 0 for a robot's pair with anything else (the ground, the palm).

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/model/settings_schema.h"

namespace quasidyn {

// Each field's key, unit, range, default and one-line doc are declared once, in
// RegraspMotionSettingsSchema (regrasp_motion.cc); the comments here say what the fields mean to
// the code.
struct RegraspMotionSettings {
  double clearance = 0.01;       // c: how far the lifted robots stay from the objects
  double max_joint_step = 0.05;  // s: the largest joint command change per plant step (and per
                                 // Gauss–Newton iteration)
  int settle_steps = 3;          // plant steps that hold g after the close
  int max_lift_iterations = 60;  // Gauss–Newton iterations of one Lift
  // The most plant steps one regrasp's motion may take (release, transfer, close and settle of
  // every finger). A longer motion is refused (RegraspCommands::ok false, no commands) before
  // the lifts of its transfer are computed, so one Plan costs at most about this many Lifts.
  // Ours: 20 rad of joint travel at the default s (a grasp whose revolute joints are wound by
  // several turns, as unlimited joints can be, otherwise costs a Lift per step s of the winding:
  // minutes inside one planner iteration).
  int max_motion_steps = 400;
  double damping = 1e-6;  // λ: the least-squares damping
  // Step 0 (hold): true lets the grip's squeeze go first (every finger to its configuration);
  // false keeps the fingers that do not move at their last command, squeezing as before.
  bool relax_grip = true;
};

// The regrasp motion's settings, each declared once (model/settings_schema.h): the block
// "regrasp_motion", included in tracking's as `regrasp.*` (plan_tracking.h: `quasidyn track`'s
// --regrasp-* flags).
const SettingsSchema<RegraspMotionSettings>& RegraspMotionSettingsSchema();

// The commands of one regrasp and how well its lifted postures were found.
struct RegraspCommands {
  // false: the motion would take more than max_motion_steps plant steps; `commands` is empty
  // and `message` says how many it needed.
  bool ok = true;
  std::string message;
  std::vector<Eigen::VectorXd> commands;  // one per plant step, g last (settling included)
  int release_steps = 0, transfer_steps = 0, close_steps = 0;  // summed over the fingers
  int fingers_moved = 0;
  // The smallest robot–object distance reached by the lifted postures r_old, r_new and the
  // transfer's waypoints [m] (< c when a Lift stopped short: the motion is still sent).
  double min_lifted_distance = 0.0;
  int lift_iterations = 0;  // Gauss–Newton iterations of all the motion's Lifts
};

class RegraspMotion {
 public:
  // The scene whose geometry the lifts avoid (the plant's). std::invalid_argument on settings
  // out of range ("regrasp_motion.<field>: ..."), a scene without robots, or a robot joint that
  // is not revolute or prismatic.
  RegraspMotion(ScenePtr scene, const RegraspMotionSettings& settings);

  // The motion of the regrasp from q_before (the plan's configuration before it) to q_after
  // (after it: the same objects, the new grasp g), starting from the last command sent
  // (size n_q,a). std::invalid_argument on sizes or NaN. A motion longer than
  // max_motion_steps is refused (ok false), not an exception.
  RegraspCommands Plan(const Eigen::VectorXd& q_before, const Eigen::VectorXd& q_after,
                       const Eigen::VectorXd& last_command);
  // The same from `measured` (size n_q: where the plant is, its robots and objects): the hold
  // commands the robots' measured configuration and the lifts keep clear of the measured
  // objects; which fingers move and their new grasp are q_before's and q_after's.
  RegraspCommands Plan(const Eigen::VectorXd& q_before, const Eigen::VectorXd& q_after,
                       const Eigen::VectorXd& last_command, const Eigen::VectorXd& measured);

  // The robots of q lifted off the objects (above), objects unchanged: q's q_a moved by
  // Gauss–Newton; *distance (if given) gets the smallest robot–object distance reached [m]
  // (below c when the max_lift_iterations iterations did not reach the clearance), *iterations
  // (if given) the Gauss–Newton steps taken (<= max_lift_iterations).
  Eigen::VectorXd Lift(const Eigen::VectorXd& q, double* distance = nullptr,
                       int* iterations = nullptr);
  // The same, moving only the joints of q_a marked in `moving` (n_q,a entries) and measuring
  // only the pairs they move.
  Eigen::VectorXd LiftJoints(const Eigen::VectorXd& q, const std::vector<bool>& moving,
                             double* distance = nullptr, int* iterations = nullptr);

  // The fingers: the robots' joints (indices into q_a) grouped by the topmost robot joint of
  // their kinematic chain (a hand's fingers; one group for a serial arm).
  const std::vector<std::vector<int>>& fingers() const { return fingers_; }

  // The fingers whose joints differ between q_before and q_after (size n_q each; the regrasp's
  // fingers_moved); std::invalid_argument on sizes.
  int FingersMoved(const Eigen::VectorXd& q_before, const Eigen::VectorXd& q_after) const;

  const RegraspMotionSettings& settings() const { return settings_; }

 private:
  // Appends the joint-space line from `from` to `to` in steps of at most s (excluding `from`)
  // to out->commands; false (nothing appended, *out refused) when out would then hold more
  // than max_motion_steps commands.
  bool AppendLine(const Eigen::VectorXd& from, const Eigen::VectorXd& to,
                  RegraspCommands* out) const;
  // Whether a joint of `finger` differs between q_before and q_after.
  bool Moves(const std::vector<int>& finger, const Eigen::VectorXd& q_before,
             const Eigen::VectorXd& q_after) const;
  // Whether `more` further commands keep *out within max_motion_steps; refuses *out otherwise.
  bool Fits(double more, RegraspCommands* out) const;

  ScenePtr scene_;
  RegraspMotionSettings settings_;
  Kinematics kinematics_;
  GeometryModel geometry_;
  GeometryData data_;
  std::vector<bool> robot_body_, object_body_;
  std::vector<std::vector<int>> fingers_;
  Eigen::MatrixXd J_a_, J_b_;
};

}  // namespace quasidyn
