#pragma once
// What the model-predictive controller through contact asks for (control/contact_mpc.h; the
// 2D frictional contact notes, eqs. (10), (11) and (19)): horizon, costs, bounds, target, the
// big-M policy and the MIQP solver's limits. A scene file may give them in its optional `mpc:`
// block (docs/scene-format.md, io/mpc_reader.h); the command line and Python override the
// settings by name. Each setting is declared once (MpcSettingsSchema below); one check,
// CheckMpcSettings, validates them against a scene for every face and names the field that is
// wrong.
//
// Sizes: the state x = (q, v) has n_x = n_q + n_v entries (the MPC needs n_q = n_v: no floating
// bodies), the input τ (the actuation force of the robots' joints, docs/mpc.md) n_a = n_v,a.

#include <Eigen/Core>
#include <limits>
#include <optional>
#include <string>

#include "quasidyn/model/settings_schema.h"

namespace quasidyn {

struct Scene;

// Each field's key, unit, range and one-line doc are declared once, in MpcSettingsSchema
// (mpc_settings.cc); the comments here say what the fields mean to the code.
struct MpcSettings {
  int horizon = 5;         // N steps
  double time_step = 0.0;  // h of the controller's model; 0: the scene's time_step
  // x_d, the target state (size n_x: q then v). Empty: not given.
  Eigen::VectorXd target;
  // Diagonals of Q (every step k = 0 … N−1), Q_f (step N) and R (the force): sizes n_x, n_x,
  // n_a. Empty: Q = I, Q_f = Q, R = I.
  Eigen::VectorXd state_weight, terminal_weight, force_weight;
  // Box bounds x_min <= x_k <= x_max (size n_x) and τ_min <= τ_k <= τ_max (size n_a), finite
  // (the big-M constants are derived from them, docs/mpc.md), lower <= upper. Empty: not given.
  Eigen::VectorXd state_lower, state_upper, force_lower, force_upper;
  // Contacts with φ <= contact_distance at the current state enter the horizon's model
  // (normals, rays and gaps held fixed over the horizon, as in the notes); 0: the scene's
  // contact_tolerance.
  double contact_distance = 0.0;
  // Big-M policy: each impulse's cap is impulse_margin times the impulse that alone balances
  // the largest momentum change the boxes allow along its contact normal; big_m > 0 replaces
  // every derived M by this one number (the notes' single M); 0: derived.
  double impulse_margin = 2.0;
  double big_m = 0.0;
  // The MIQP solver (solvers/miqp.h): node and time limits per solve, gaps, branching rule
  // (pseudo-cost when true, else most fractional).
  int node_limit = 20000;
  double time_limit = std::numeric_limits<double>::infinity();
  double absolute_gap = 1e-6;
  double relative_gap = 1e-4;
  bool pseudo_cost_branching = true;
};

// The mpc block's settings, each declared once (model/settings_schema.h): the scene file's
// `mpc:` keys, `quasidyn mpc`'s flags, Python's ContactMpc keywords, the range checks and the
// docs' table all come from it.
const SettingsSchema<MpcSettings>& MpcSettingsSchema();

// What CheckMpcSettings found wrong: the field (its path in the `mpc:` block, e.g.
// "bounds.state_lower") and the problem.
using MpcSettingsProblem = SettingsProblem;

// The first problem of `settings` for `scene`, or nothing: a scene with floating bodies (field
// "state": n_q != n_v) or without robots ("robots"), a vector of the wrong size or not finite,
// lower > upper, a weight out of range, every number outside the range its comment gives.
// `complete`: a missing target or missing bounds are problems too (a controller about to run).
std::optional<MpcSettingsProblem> CheckMpcSettings(const MpcSettings& settings, const Scene& scene,
                                                   bool complete);

}  // namespace quasidyn
