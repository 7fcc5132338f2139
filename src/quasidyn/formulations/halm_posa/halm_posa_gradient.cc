#include "quasidyn/formulations/halm_posa/halm_posa_gradient.h"

#include <Eigen/QR>
#include <algorithm>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/gradients/contact_data_derivative.h"

namespace quasidyn {
namespace {

// The coefficient of J_t,i in ray row j of contact i: J_T,ij = (d_ij · t_i) J_t,i (planar
// rays ±t_i, contact/friction_cone.h).
double RayCoefficient(const ContactSet& contacts, int i, int j) {
  return contacts.Rays(i).col(j).dot(contacts[i].tangent1);
}

}  // namespace

HalmPosaGradient DifferentiateHalmPosaStep(const HalmPosaStepInputs& in, bool want_a,
                                           double data_step) {
  const ContactSet& contacts = in.contacts;
  const Scene& scene = in.contact_model.scene();
  QUASIDYN_CHECK_ARGUMENT(scene.planar && scene.nq == scene.nv, "DifferentiateHalmPosaStep",
                          "the halm-posa step is planar (q and v indexed alike)");
  const int nv = scene.nv, na = scene.nq_a, nc = contacts.size(), nd = contacts.ray_count();
  const LcpProblem& lcp = in.lcp.lcp;
  const int nz = static_cast<int>(lcp.q.size());
  CheckSize("DifferentiateHalmPosaStep", "z", in.z.size(), nz, "n_z");
  const double h = in.time_step;
  const JointLimitRows& limits = in.limits;

  // The active set S and M̃_SS.
  const Eigen::VectorXd w = lcp.M * in.z + lcp.q;
  std::vector<int> active;
  for (int i = 0; i < nz; ++i)
    if (in.z[i] > std::max(w[i], 0.0)) active.push_back(i);
  const int s = static_cast<int>(active.size());
  Eigen::MatrixXd K(s, s), map_S(nv, s);
  for (int a = 0; a < s; ++a) {
    for (int b = 0; b < s; ++b) K(a, b) = lcp.M(active[a], active[b]);
    map_S.col(a) = in.lcp.displacement_map.col(active[a]);
  }
  // (Eigen's decomposition of an empty matrix is undefined: no active variable, no solve.)
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> solve_K;
  if (s > 0) solve_K.compute(K);
  HalmPosaGradient out;
  out.active = s;
  out.rank = s > 0 ? static_cast<int>(solve_K.rank()) : 0;
  // Rows S of ∂r/∂x for x = u, q.
  const auto rows_S = [&](const Eigen::MatrixXd& dr) {
    Eigen::MatrixXd out_rows(s, dr.cols());
    for (int a = 0; a < s; ++a) out_rows.row(a) = dr.row(active[a]);
    return out_rows;
  };

  // B: ∂r/∂u = Jᵀ's robot rows, transposed; ∂Δq/∂u = [0; hI] + (h W Jᵀ)_S ∂z_S/∂u.
  out.B = Eigen::MatrixXd::Zero(nv, na);
  out.B.bottomRows(na).diagonal().setConstant(h);
  if (s > 0) {  // (s > 0: Jᵀ is not empty, whose blocks would offset a null pointer)
    const Eigen::MatrixXd dr_du = in.lcp.JT.bottomRows(na).transpose();
    out.B.noalias() -= map_S * solve_K.solve(rows_S(dr_du));
  }
  if (!want_a) return out;

  // A: the data's derivatives contracted with Δq and with Jᵀz's impulse per contact row.
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(nc * ContactRows(scene));
  for (int i = 0; i < nc; ++i) {
    lambda[2 * i] = in.z[i];
    for (int j = 0; j < nd; ++j)
      lambda[2 * i + 1] += RayCoefficient(contacts, i, j) * in.z[nc + nd * i + j];
  }
  StepDataContraction data;
  if (Outcome outcome =
          DifferentiateStepData(in.contact_model, QuasiDynamicCostParameters{in.time_step, 1.0},
                                in.q, in.u, contacts, in.displacement, lambda, data_step, &data);
      !outcome) {
    out.failure = outcome.TakeMessage();
    out.ok = false;
    out.B.resize(0, 0);
    return out;
  }
  // G = ∂Δq/∂q at fixed z: h (∂W/∂θ (Jᵀz) + W ∂(Jᵀz)/∂q).
  const Eigen::VectorXd force = in.lcp.JT * in.z;
  Eigen::MatrixXd G = h * (in.W * data.d_JcT_lambda);
  for (const ObjectLimitSurface& surface : in.surfaces) {
    const int k = surface.v_start + 2;
    G.block(surface.v_start, k, 3, 1) +=
        h * WorldLimitSurfaceDerivative(surface.body, in.q[k]) * force.segment<3>(surface.v_start);
  }
  // ∂r/∂q (z fixed), r = (J Δq + [φ; 0])/h: (J G + ∂(J Δq)/∂q + [∂φ/∂q; 0])/h.
  Eigen::MatrixXd dr_dq = in.lcp.JT.transpose() * G;
  for (int i = 0; i < nc; ++i) {
    dr_dq.row(i) += data.d_Jc_v.row(2 * i);
    // A kept penetration enters as φ = 0 (halm_posa_lcp.h), whose derivative is 0.
    if (!(in.lcp.penetration_kept && contacts[i].phi < 0.0)) dr_dq.row(i) += data.d_phi.row(i);
    for (int j = 0; j < nd; ++j)
      dr_dq.row(nc + nd * i + j) += RayCoefficient(contacts, i, j) * data.d_Jc_v.row(2 * i + 1);
  }
  // The joint-limit rows (the last n_l of z): their offset d_l (q_j − bound) moves with q_j.
  const int first_limit = nz - limits.size();
  for (int l = 0; l < limits.size(); ++l)
    dr_dq(first_limit + l, limits.rows[l].velocity) += limits.rows[l].direction;
  dr_dq /= h;
  out.A = Eigen::MatrixXd::Identity(nv, nv) + G;
  if (s > 0) out.A.noalias() -= map_S * solve_K.solve(rows_S(dr_dq));
  return out;
}

}  // namespace quasidyn
