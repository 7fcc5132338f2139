#pragma once
// Central finite-difference reference for the linearisation of the time step
// q⁺ = f(q, u): the independent check of the exact and smoothed gradients (the step models'
// CalcDiff, stepping/quasi_dynamic_model.h).
//
//   B = ∂f/∂u (n_q × n_q,a),   A = ∂F/∂q (n_q × n_q),   F(q, u) = f(normalize(q), u),
//
// where normalize scales every floating joint's quaternion to unit length (the step itself
// normalises its input, kinematics/kinematics.h). Column k of A is the central difference
// along the raw coordinate q_k; for a quaternion coordinate the perturbed q is normalised
// before the step, so A's quaternion columns contain the derivative of the normalisation and
// A·Q = 0 for the radial direction (configuration_map.h states the same convention).
//
// Step: δ_k = relative_step · max(1, |x_k|) with relative_step ≈ ∛ε ≈ 6e-6, the optimum of a
// central difference (truncation O(δ²) vs round-off O(ε/δ); Nocedal & Wright, "Numerical
// Optimization", 2nd ed., §8.1). When f comes from an iterative solver with relative accuracy
// τ, the error of each column is ≈ τ·|f|/δ + O(δ²): pick δ and the comparison tolerance
// accordingly.

#include <Eigen/Core>
#include <functional>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// f(q, u) → q⁺. A step that fails returns a vector of NaN, so that every difference that
// uses it is NaN and no comparison can pass on it.
using StepFunction =
    std::function<Eigen::VectorXd(const Eigen::VectorXd& q, const Eigen::VectorXd& u)>;

struct FiniteDifferenceSettings {
  double relative_step = 6.0555e-6;  // ∛(2.2e-16); dimensionless, > 0
};

// B by central differences along each u_k.
Eigen::MatrixXd FiniteDifferenceB(const StepFunction& f, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& u,
                                  const FiniteDifferenceSettings& settings = {});

// A by central differences along each raw coordinate q_k, quaternions normalised (above).
Eigen::MatrixXd FiniteDifferenceA(const Scene& scene, const StepFunction& f,
                                  const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                  const FiniteDifferenceSettings& settings = {});

}  // namespace quasidyn
