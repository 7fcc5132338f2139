#include "quasidyn/gradients/linearize.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/dynamics/quasi_dynamic_qp.h"
#include "quasidyn/gradients/configuration_map.h"
#include "quasidyn/gradients/log_barrier_gradient.h"
#include "quasidyn/gradients/qp_gradient.h"
#include "quasidyn/gradients/step_data_derivative.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

LinearizeSettings::LinearizeSettings() : qp(ContactQpSettings()) {}

Linearizer::Linearizer(const Scene& scene, const FormulationSettings& settings,
                       const LinearizeSettings& linearize_settings)
    : scene_(scene), settings_(settings), linearize_settings_(linearize_settings), engine_(scene) {
  if (!(settings.time_step > 0) || !std::isfinite(settings.time_step))
    throw std::invalid_argument("Linearizer: time step h must be finite and > 0");
  if (!(settings.kappa > 0) || !std::isfinite(settings.kappa))
    throw std::invalid_argument("Linearizer: formulation kappa must be finite and > 0");
  if (!(settings.object_mass_scale >= 0) || !std::isfinite(settings.object_mass_scale))
    throw std::invalid_argument("Linearizer: object_mass_scale must be finite and >= 0");
  if (!(linearize_settings.data_step > 0) || !std::isfinite(linearize_settings.data_step))
    throw std::invalid_argument("Linearizer: data_step must be finite and > 0");
}

Linearization Linearizer::Linearize(const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                    GradientMode mode, GradientMethod method) {
  const double h = settings_.time_step;
  const PyramidStepData data = BuildPyramidStepData(&engine_, settings_, q, u);  // validates
  Linearization out;
  Eigen::VectorXd beta;
  if (method == GradientMethod::kExact) {
    QpProblem qp{data.P, -data.tau_h, data.G, -data.offset};
    const QpResult result = qp_solver_.Solve(qp, linearize_settings_.qp);
    out.status = result.status;
    out.message = result.message;
    out.v = result.x;
    beta = result.z;
  } else {
    LogBarrierProblem barrier;
    barrier.Q = data.P;
    barrier.b = -data.tau_h;
    barrier.G = data.G;
    barrier.h = data.offset;
    barrier.kappa = settings_.kappa;
    const LogBarrierResult result = barrier_solver_.Solve(barrier, linearize_settings_.barrier);
    out.status = result.status;
    out.message = result.message;
    out.v = result.x;
  }
  if (out.ok() && (out.v.size() != scene_.nv || !out.v.allFinite())) {
    out.status = SolverStatus::kNumericalFailure;
    out.message = "the solver reported success but returned a non-finite velocity";
  }
  if (!out.ok()) {
    out.q_next = q;
    return out;
  }
  out.q_next = IntegrateConfiguration(scene_, q, out.v, h);
  if (mode == GradientMode::kNone) return out;

  PyramidStepDataDerivative derivative;
  const bool want_a = mode == GradientMode::kAAndB;
  if (want_a) {
    try {
      derivative = DifferentiatePyramidStepData(&engine_, settings_, q, u, data,
                                                linearize_settings_.data_step);
    } catch (const std::runtime_error& error) {
      out.status = SolverStatus::kNumericalFailure;
      out.message = std::string("A: ") + error.what();
      return out;
    }
  }
  const VelocityGradient gradient =
      method == GradientMethod::kExact
          ? QpVelocityGradient(scene_, h, data, want_a ? &derivative : nullptr, out.v, beta)
          : LogBarrierVelocityGradient(scene_, h, settings_.kappa, data,
                                       want_a ? &derivative : nullptr, out.v);
  out.active_rows = gradient.active_rows;
  const Eigen::MatrixXd dq_dv = IntegrationJacobianWrtVelocity(scene_, q, out.v, h);
  out.B = dq_dv * gradient.dv_du;
  if (want_a)
    out.A = IntegrationJacobianWrtConfiguration(scene_, q, out.v, h) +
            dq_dv * gradient.dv_dq * TangentFromConfiguration(scene_, q);
  return out;
}

}  // namespace quasidyn
