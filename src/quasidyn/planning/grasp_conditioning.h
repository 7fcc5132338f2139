#pragma once
// Grasp proposals from the smoothed B's conditioning (issue 39; docs/planning.md "Contact
// sampling"). The talk ("Planning and Control for Contact-rich Manipulation", Pang 2022, slides
// "A distance metric that reflects contact dynamic reachability" and "RRT through contact")
// resets the robots, now and then, "to one that has a good distance metric, which typically
// corresponds to grasps", and gives the set a node reaches under the smoothed linearisation:
//
//   R_ε(q̄) = { μ + B_ρ^u δu : ‖δu‖ <= ε },
//
// an ellipsoid whose semi-axes are ε σ_i(B_ρ^u). The grasp score of a candidate q̄ is
//
//   s(q̄) = σ_r(W B_ρ^u),   r = min(n_v,u, n_u)   [-, goal-distance units per m or rad],
//
// the smallest singular value of the object rows of the smoothed B in the objects' tangent
// space, weighted as the goal distance and the metric weigh them (W = diag(w_p, w_r),
// reachability_metric.h: NodeReachability::B() is W B_ρ^u). Where n_u >= n_v,u (every 3D example:
// the hand 16 >= 6, the bimanual arms 18 >= 6) it is the radius per unit ε of the largest ball
// about μ inside R_ε: how far a unit command moves the objects in their least movable
// direction. It is 0 when some object direction cannot be moved at all (an object no robot
// touches: its rows of B are 0; not stated in the talk or paper, which use the metric alone;
// ours). In the metric's terms, the worst direction e of unit length costs
// d = ½ / (s² + λ) (reachability_metric.h), so a larger score is a cheaper worst direction.

#include <Eigen/Core>
#include <functional>
#include <utility>
#include <vector>

#include "quasidyn/model/planning_settings.h"
#include "quasidyn/planning/reachability_metric.h"

namespace quasidyn {

// σ_r of `weighted_object_rows` (n_v,u × n_u, finite; r = min of its sizes; 0 for an empty
// matrix). Throws std::invalid_argument on a non-finite entry.
double GraspScore(const Eigen::MatrixXd& weighted_object_rows);
// s(q̄) of a node or candidate from its metric (the W B_ρ^u it keeps).
double GraspScore(const NodeReachability& reach);

// A regrasp's usable candidates as (d(sample; candidate), candidate index), least d first.
using RankedGrasps = std::vector<std::pair<double, int>>;

// The candidates a regrasp may take, in the order it tries them (planning/rrt.cc, Regrasp):
// kNearest returns `ranked` unchanged and never calls `score_of`; kConditioning drops those
// whose score_of(index) is below settings.grasp_score_fraction times the largest score among
// them and keeps the others in their order. When every score is 0 (no candidate moves the
// objects in every direction) none is dropped. Scores must be finite and >= 0 (otherwise
// std::invalid_argument).
RankedGrasps SelectGrasps(const PlanningSettings& settings, RankedGrasps ranked,
                          const std::function<double(int)>& score_of);

}  // namespace quasidyn
