#include "quasidyn/formulations/second_order/second_order_data_derivative.h"

#include <algorithm>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

void DifferentiateSecondOrderData(Kinematics* kinematics, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& v, const Eigen::VectorXd& w, double h,
                                  double data_step, SecondOrderDataDerivative* out) {
  constexpr const char* kWhere = "DifferentiateSecondOrderData";
  QUASIDYN_CHECK_ARGUMENT(kinematics != nullptr && out != nullptr, kWhere,
                          "kinematics and out must not be null");
  const Scene& scene = kinematics->scene();
  const int nv = scene.nv;
  CheckVector(kWhere, "q", q, scene.nq, "n_q");
  CheckVector(kWhere, "v", v, nv, "n_v");
  CheckVector(kWhere, "w", w, nv, "n_v");
  CheckPositive(kWhere, "h", h);
  CheckPositive(kWhere, "data_step", data_step);
  CoriolisWorkspace coriolis;
  Eigen::MatrixXd M;
  Eigen::VectorXd force_plus, force_minus;
  // ∂/∂ε_k of M(q) w + h C(q, v) v at q ⊕ ±data_step e_k.
  const auto inertia_force = [&](Eigen::VectorXd* force) {
    kinematics->MassMatrix(&M);
    CoriolisForce(*kinematics, v, &coriolis, force);
    *force *= h;
    force->noalias() += M * w;
  };
  out->inertia_force.resize(nv, nv);
  for (int k = 0; k < nv; ++k) {
    const Eigen::VectorXd direction = Eigen::VectorXd::Unit(nv, k);
    kinematics->Update(IntegrateConfiguration(scene, q, direction, data_step));
    inertia_force(&force_plus);
    kinematics->Update(IntegrateConfiguration(scene, q, direction, -data_step));
    inertia_force(&force_minus);
    out->inertia_force.col(k) = (force_plus - force_minus) / (2.0 * data_step);
  }
  // ∂τ_h/∂v = M(q) − h ∂(C(q, v) v)/∂v at q itself.
  kinematics->Update(q);
  kinematics->MassMatrix(&M);
  const double s = std::max(1.0, v.cwiseAbs().maxCoeff());
  out->velocity_force = M;
  for (int k = 0; k < nv; ++k) {
    CoriolisForce(*kinematics, v + s * Eigen::VectorXd::Unit(nv, k), &coriolis, &force_plus);
    CoriolisForce(*kinematics, v - s * Eigen::VectorXd::Unit(nv, k), &coriolis, &force_minus);
    out->velocity_force.col(k) -= h * (force_plus - force_minus) / (2.0 * s);
  }
}

}  // namespace quasidyn
