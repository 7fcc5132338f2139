#include "quasidyn/formulations/quasi_dynamic/object_mass_scale.h"

#include <Eigen/Eigenvalues>
#include <algorithm>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

double ReferenceObjectMassScale(const Scene& scene, double time_step, double divisor) {
  constexpr const char* kWhere = "unactuated_mass_scale";
  CheckPositive(kWhere, "time step h", time_step);
  CheckNonNegative(kWhere, "unactuated_mass_scale", divisor);
  if (divisor == 0.0 || scene.nv_u == 0 || scene.nv_a == 0) return 1.0;
  Kinematics kinematics(BorrowScene(scene));
  kinematics.Update(scene.q0);
  double largest = 0.0;  // λ_max(M_u): the largest over the objects' diagonal blocks
  Eigen::MatrixXd block;
  for (int i = 0; i < static_cast<int>(scene.instances.size()); ++i) {
    if (scene.instances[i].actuated || scene.instances[i].nv == 0) continue;
    kinematics.InstanceMassMatrix(i, &block);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(block, Eigen::EigenvaluesOnly);
    largest = std::max(largest, eigen.eigenvalues().maxCoeff());
  }
  const double stiffest = time_step * time_step * scene.ActuatedStiffness().minCoeff();
  if (!(largest > 0.0)) return 1.0;
  return stiffest / (divisor * largest);
}

}  // namespace quasidyn
