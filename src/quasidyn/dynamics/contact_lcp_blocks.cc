#include "quasidyn/dynamics/contact_lcp_blocks.h"

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

int ContactLcpSize(const ContactSet& contacts, const JointLimitRows& limits) {
  return contacts.size() * (2 + contacts.ray_count()) + limits.size();
}

void ContactImpulseMap(const ContactSet& contacts, const JointLimitRows& limits,
                       Eigen::Ref<Eigen::MatrixXd> JT) {
  const int nc = contacts.size(), nd = contacts.ray_count();
  CheckSize("ContactImpulseMap", "JT's rows", JT.rows(), contacts.nv(), "n_v");
  CheckSize("ContactImpulseMap", "JT's columns", JT.cols(), ContactLcpSize(contacts, limits),
            "n_z");
  JT.setZero();
  for (int i = 0, f = 0; i < nc; ++i) {
    const std::span<const int> columns = contacts.Columns(i);
    const ContactSet::RowMap J_n = contacts.NormalJacobian(i);
    const ContactSet::RowsMap J_d = contacts.RayJacobian(i);
    for (size_t k = 0; k < columns.size(); ++k) {
      const int col = static_cast<int>(k);
      JT(columns[k], i) = J_n[col];
      for (int j = 0; j < nd; ++j) JT(columns[k], nc + f + j) = J_d(j, col);
    }
    f += nd;
  }
  const int first_limit = nc * (2 + nd);
  for (int l = 0; l < limits.size(); ++l)
    JT(limits.rows[l].velocity, first_limit + l) = limits.rows[l].direction;
}

void AddFrictionCouplings(const ContactSet& contacts, Eigen::Ref<Eigen::MatrixXd> M) {
  const int nc = contacts.size(), nd = contacts.ray_count(), nf = nc * nd;
  for (int i = 0, f = 0; i < nc; ++i) {
    const int gamma = nc + nf + i;
    M.block(nc + f, gamma, nd, 1).setOnes();        // γ_i e in w_f,i
    M(gamma, i) = contacts[i].friction;             // μ_i λ_n,i
    M.block(gamma, nc + f, 1, nd).setConstant(-1);  // −eᵀ λ_f,i
    f += nd;
  }
}

}  // namespace quasidyn
