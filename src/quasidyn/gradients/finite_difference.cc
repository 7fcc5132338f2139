#include "quasidyn/gradients/finite_difference.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {
namespace {

double StepFor(double x, const FiniteDifferenceSettings& settings) {
  if (!(settings.relative_step > 0) || !std::isfinite(settings.relative_step))
    throw std::invalid_argument("FiniteDifferenceSettings::relative_step must be finite and > 0");
  return settings.relative_step * std::max(1.0, std::abs(x));
}

}  // namespace

Eigen::MatrixXd FiniteDifferenceB(const StepFunction& f, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& u,
                                  const FiniteDifferenceSettings& settings) {
  Eigen::MatrixXd B(q.size(), u.size());
  for (int k = 0; k < u.size(); ++k) {
    const double delta = StepFor(u[k], settings);
    Eigen::VectorXd up = u, down = u;
    up[k] += delta;
    down[k] -= delta;
    B.col(k) = (f(q, up) - f(q, down)) / (2.0 * delta);
  }
  return B;
}

Eigen::MatrixXd FiniteDifferenceA(const Scene& scene, const StepFunction& f,
                                  const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                  const FiniteDifferenceSettings& settings) {
  if (q.size() != scene.nq)
    throw std::invalid_argument("FiniteDifferenceA: q has size " + std::to_string(q.size()) +
                                ", the scene has n_q = " + std::to_string(scene.nq));
  Eigen::MatrixXd A(scene.nq, scene.nq);
  for (int k = 0; k < scene.nq; ++k) {
    const double delta = StepFor(q[k], settings);
    Eigen::VectorXd up = q, down = q;
    up[k] += delta;
    down[k] -= delta;
    NormalizeQuaternions(scene, &up);
    NormalizeQuaternions(scene, &down);
    A.col(k) = (f(up, u) - f(down, u)) / (2.0 * delta);
  }
  return A;
}

}  // namespace quasidyn
