#pragma once
// The objects' configuration space as the planner sees it: q_u (size n_q,u) and its tangent
// space (size n_v,u), in which RRT through contact measures, samples and steers.
//
// * Differences a ⊖ b live in the tangent space: positions subtract [m]; a planar angle's
//   difference is wrapped to [−π, π] (SE(2)); a floating object's orientation difference is
//   the world-frame rotation vector log(Q_a ⊗ Q_b⁻¹) [rad] of the shorter of the two rotations,
//   so it does not change when either quaternion changes sign (Q and −Q are one rotation).
// * The object rows of a step's B = ∂q⁺/∂u (raw coordinates, stepping/step_model.h) become
//   tangent rows with the map T(q) of gradients/configuration_map.h (δv = T δq; the quaternion
//   block 4 E(Q̂)ᵀ NJ(Q)), so that b ⊕ (B_t δu) ≈ f(q, u + δu) to first order.
// * The goal distance of model/planning_settings.h.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

class ObjectSpace {
 public:
  // One block per movable object of the scene, in q order; an object on planar ghost links
  // (OnPlanarGhostLinks, model/planning_settings.h) is a planar block in its joint coordinates.
  // Throws std::invalid_argument for a scene without movable objects and for other articulated
  // objects (revolute or prismatic joints).
  explicit ObjectSpace(const Scene& scene);

  struct Block {
    int instance = -1;      // index into Scene::instances
    int q_start = 0;        // first index in q (= in q_u: objects come first)
    int v_start = 0;        // first index in the tangent vector
    bool floating = false;  // 3D (x, y, z, qw, qx, qy, qz), else planar (x, y, θ) or the
                            // (prismatic, prismatic, revolute) coordinates of ghost links
  };

  const std::vector<Block>& blocks() const { return blocks_; }
  int coordinate_size() const { return nq_u_; }  // n_q,u
  int tangent_size() const { return nv_u_; }     // n_v,u

  // a ⊖ b (both of size >= n_q,u; their first n_q,u entries are read) into *out (size n_v,u).
  void Difference(const Eigen::Ref<const Eigen::VectorXd>& a,
                  const Eigen::Ref<const Eigen::VectorXd>& b,
                  Eigen::Ref<Eigen::VectorXd> out) const;
  Eigen::VectorXd Difference(const Eigen::Ref<const Eigen::VectorXd>& a,
                             const Eigen::Ref<const Eigen::VectorXd>& b) const;

  // The tangent rows T_uu(q) B_u (n_v,u × columns) of raw object rows B_u (n_q,u × columns)
  // evaluated at the configuration q (size n_q, the full q at which B's rows are taken).
  Eigen::MatrixXd TangentRows(const Eigen::VectorXd& q, const Eigen::MatrixXd& raw_rows) const;

  // D(q) of model/planning_settings.h between the object parts of q and goal [-].
  double GoalDistance(const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& goal,
                      const PlanningSettings& settings) const;

  // Diagonal weights W (size n_q,u) on the objects' coordinates whose form δqᵀ W δq equals D² to
  // second order near any configuration: w_p² on each position coordinate [1/m²], w_r² on a
  // planar angle [1/rad²], and (2 w_r)² on each of a quaternion's four entries, since a unit
  // quaternion moved by a rotation θ moves by ‖δQ‖ = θ/2 to first order (Solà 2017, eq. 101).
  // A controller's object cost in the planner's own units (control/stabilizer.h).
  Eigen::VectorXd CoordinateWeights(const PlanningSettings& settings) const;

 private:
  std::vector<Block> blocks_;
  int nq_u_ = 0, nv_u_ = 0;
};

// log(Q_a ⊗ Q_b⁻¹) [rad], world frame, of the shorter rotation (Solà 2017, eqs. 105 and 12);
// Q_a, Q_b (w, x, y, z), normalised first.
Eigen::Vector3d QuaternionDifference(const Eigen::Vector4d& Q_a, const Eigen::Vector4d& Q_b);

// θ wrapped to [−π, π] [rad].
double WrapAngle(double theta);

}  // namespace quasidyn
