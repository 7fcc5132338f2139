#include "quasidyn/formulations/stewart_trinkle/lcp_step_gradient.h"

#include <algorithm>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

// |w_i| or z_i at most this fraction of the LCP's scale ‖q‖∞ + ‖M‖∞‖z‖∞ counts as zero: ten
// times Lemke's final check for a solved pair (LemkeSettings::residual_tolerance, 1e-10).
constexpr double kZeroTolerance = 1e-9;

}  // namespace

LcpStepSensitivity::LcpStepSensitivity(const Scene* scene, const ContactSet* contacts,
                                       double time_step, const QuasistaticLcp* lcp,
                                       const Eigen::VectorXd& z)
    : scene_(scene), contacts_(contacts), time_step_(time_step), lcp_(lcp), z_(z) {
  constexpr const char* kWhere = "LcpStepSensitivity";
  QUASIDYN_CHECK_ARGUMENT(scene != nullptr && contacts != nullptr && lcp != nullptr, kWhere,
                          "scene, contacts and lcp must not be null");
  CheckPositive(kWhere, "time step", time_step);
  const int nz = static_cast<int>(lcp->q.size());
  CheckVector(kWhere, "z", z, nz, "n_z");
  QUASIDYN_CHECK_ARGUMENT(lcp->num_contacts == contacts->size() &&
                              lcp->velocity_map.rows() == scene->nv &&
                              lcp->velocity_map.cols() == nz,
                          kWhere, "the LCP was not built from these contacts and scene");
  const Eigen::VectorXd w = lcp->M * z + lcp->q;
  // The rule of the header, contact by contact, with "zero" meaning within kZeroTolerance of
  // the LCP's scale.
  const double scale = lcp->q.lpNorm<Eigen::Infinity>() +
                       lcp->M.lpNorm<Eigen::Infinity>() * z.lpNorm<Eigen::Infinity>();
  const double zero = kZeroTolerance * scale;
  const int nc = contacts->size(), nd = contacts->ray_count();
  std::vector<char> in_set(nz, 0);
  for (int i = 0; i < nc; ++i) {
    if (w[i] > zero) continue;  // separated: the contact exerts nothing
    const int gamma = nc + nc * nd + i;
    const bool sliding = z[gamma] > zero;
    if (sliding && !(z[i] > zero)) continue;  // sliding without a normal impulse: left free
    in_set[i] = 1;
    in_set[gamma] = sliding;
    for (int j = 0; j < nd; ++j) {
      const int ray = nc + nd * i + j;
      // Sliding: the rays against the motion (w_f = Γ + J_d v = 0); sticking: every ray.
      in_set[ray] = !sliding || w[ray] <= zero;
    }
  }
  // The joint-limit rows after (λ_n, λ_f, Γ) (contact_lcp_blocks.h): a closed limit (w_l = 0)
  // is kept, as a closed contact's normal row.
  for (int l = nc * (2 + nd); l < nz; ++l) in_set[l] = w[l] <= zero;
  for (int i = 0; i < nz; ++i)
    if (in_set[i]) active_.push_back(i);
  const int s = static_cast<int>(active_.size());
  Eigen::MatrixXd M_SS(s, s);
  velocity_map_active_.resize(scene->nv, s);
  for (int a = 0; a < s; ++a) {
    for (int b = 0; b < s; ++b) M_SS(a, b) = lcp->M(active_[a], active_[b]);
    velocity_map_active_.col(a) = lcp->velocity_map.col(active_[a]);
  }
  // (Eigen's decomposition of an empty matrix is undefined: no active variable, no solve.)
  if (s > 0) {
    M_active_.compute(M_SS);
    rank_ = static_cast<int>(M_active_.rank());
  }
}

Eigen::VectorXd LcpStepSensitivity::ContactImpulse() const {
  const ContactSet& contacts = *contacts_;
  const int nc = contacts.size(), nd = contacts.ray_count(), nt = contacts.tangent_count();
  const int rows = ContactRows(*scene_);
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(nc * rows);
  for (int i = 0; i < nc; ++i) {
    lambda[rows * i] = z_[i];
    const ContactSet::RaysMap rays = contacts.Rays(i);
    for (int j = 0; j < nd; ++j) {
      const double impulse = z_[nc + nd * i + j];
      lambda[rows * i + 1] += rays.col(j).dot(contacts[i].tangent1) * impulse;
      if (nt == 2) lambda[rows * i + 2] += rays.col(j).dot(contacts[i].tangent2) * impulse;
    }
  }
  return lambda;
}

Eigen::MatrixXd LcpStepSensitivity::Solve(const Eigen::MatrixXd& r1,
                                          const Eigen::MatrixXd& r2) const {
  // No direction (a scene without robots: B has no column): Eigen's solve of an n x 0 right-hand
  // side reads its empty data (UBSan, a step_fuzzer finding).
  if (r1.cols() == 0) return Eigen::MatrixXd(r1.rows(), 0);
  Eigen::MatrixXd dv = lcp_->P_factor.solve(r1);  // P⁻¹ r₁
  if (active_.empty()) return dv;
  // M_SS dz_S = r₂ − (P⁻¹J_Sᵀ)ᵀ r₁, then dv += (P⁻¹J_Sᵀ) dz_S.
  const Eigen::MatrixXd dz = M_active_.solve(r2 - velocity_map_active_.transpose() * r1);
  dv.noalias() += velocity_map_active_ * dz;
  return dv;
}

Eigen::MatrixXd LcpStepSensitivity::CostSensitivity(const Eigen::MatrixXd& r1) const {
  QUASIDYN_CHECK_ARGUMENT(r1.rows() == scene_->nv, "LcpStepSensitivity::CostSensitivity",
                          "r1 must have n_v rows");
  return Solve(r1, Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(active_.size()), r1.cols()));
}

VelocityGradient LcpStepSensitivity::Gradient(const StepDataContraction* contraction) const {
  const Scene& scene = *scene_;
  const ContactSet& contacts = *contacts_;
  const int n = scene.nv, s = static_cast<int>(active_.size());
  VelocityGradient gradient;
  gradient.active_rows = s;
  gradient.kkt_rank = n + rank_;
  gradient.dv_du = CostSensitivity(CommandForceJacobian(scene, time_step_));
  if (contraction == nullptr) return gradient;
  const StepDataContraction& d = *contraction;
  const int nc = contacts.size(), nd = contacts.ray_count(), nt = contacts.tangent_count();
  const int rows = ContactRows(scene);
  QUASIDYN_CHECK_ARGUMENT(d.d_JcT_lambda.rows() == n && d.d_JcT_lambda.cols() == n &&
                              d.d_Jc_v.rows() == nc * rows && d.d_phi.rows() == nc,
                          "LcpStepSensitivity::Gradient",
                          "the contraction's sizes do not match the step's contacts");
  const Eigen::MatrixXd r1 = d.d_tau_h - d.d_P_v + d.d_JcT_lambda;
  // r₂ of the active rows: normal −(dφ/h + d(J_n v)), ray −Σ_k (d_ij·t_k) d(J_t,k v), Γ 0,
  // joint limit −G_l/h (its offset o_l = d_l (q_j − bound)/h moves with q_j, G_l is constant).
  const int first_limit = nc * (2 + nd);
  Eigen::MatrixXd r2 = Eigen::MatrixXd::Zero(s, n);
  for (int a = 0; a < s; ++a) {
    const int index = active_[a];
    if (index < nc) {
      r2.row(a) = -(d.d_phi.row(index) / time_step_ + d.d_Jc_v.row(rows * index));
    } else if (index < nc + nc * nd) {
      const int i = (index - nc) / nd, j = (index - nc) % nd;
      const Eigen::Vector3d ray = contacts.Rays(i).col(j);
      r2.row(a) = -ray.dot(contacts[i].tangent1) * d.d_Jc_v.row(rows * i + 1);
      if (nt == 2) r2.row(a) -= ray.dot(contacts[i].tangent2) * d.d_Jc_v.row(rows * i + 2);
    } else if (index >= first_limit) {
      r2.row(a) = -lcp_->JT.col(index).transpose() / time_step_;
    }
  }
  gradient.dv_dq = Solve(r1, r2);
  return gradient;
}

}  // namespace quasidyn
