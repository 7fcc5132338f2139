#include "quasidyn/formulations/ecp/ecp_step_function.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "quasidyn/formulations/ecp/contact_frame.h"
#include "quasidyn/formulations/ecp/posed_quadric.h"
#include "quasidyn/math/rotation.h"

namespace quasidyn {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// The quadrics of one side of a pair, evaluated at its point.
struct Side {
  int slot = -1;  // moving body, -1 fixed
  const ConvexQuadricSet* set = nullptr;
  std::vector<PosedQuadric> at;
  Vector3d normal = Vector3d::Zero();           // Σ l ∇f
  Vector3d positive_normal = Vector3d::Zero();  // Σ max(l, 0) ∇f
  Matrix3d curvature = Matrix3d::Zero();        // Σ l ∇²f
  Matrix3d positive_curvature = Matrix3d::Zero();
  Matrix3d twist = Matrix3d::Zero();  // Σ l ∂∇f/∂θ
  Matrix3d positive_twist = Matrix3d::Zero();
};

}  // namespace

EcpStepFunction::EcpStepFunction(std::shared_ptr<const EcpSystem> system_ptr)
    : system_ptr_(std::move(system_ptr)), system_(*system_ptr_) {
  const EcpSystem& system = system_;
  const int nb = static_cast<int>(system.bodies().size());
  const int np = static_cast<int>(system.pairs().size());
  bodies_.assign(nb, EcpBodyState{});
  active_.assign(np, 1);
  seeds_.assign(np, Vector3d::UnitX());
  frames_.assign(np, PairFrame{Vector3d::UnitZ(), Vector3d::UnitX(), Vector3d::UnitY()});
  reference_.setZero(system.size());
  end_c_.assign(nb, Vector3d::Zero());
  end_R_.assign(nb, Matrix3d::Identity());
  rotation_jacobian_.assign(nb, Matrix3d::Identity());
  step_rotation_.assign(nb, Matrix3d::Identity());
  inertia_.assign(nb, Matrix3d::Identity());
  pose_.setZero(system.size(), 6 * nb);
  scratch_F_.setZero(system.size());
  scratch_J_.setZero(system.size(), system.size());
}

bool EcpStepFunction::Evaluate(const Eigen::VectorXd& z, Eigen::VectorXd* F, Eigen::MatrixXd* J) {
  if (!Fill(z, F, J)) return false;
  if (J) {
    const double h = system_.time_step();
    for (int b = 0; b < static_cast<int>(bodies_.size()); ++b) {
      // c⁺ = c + h v⁺ and δθ⁺ = h J_l(hω⁺) δω⁺.
      J->middleCols<3>(6 * b).noalias() += h * pose_.middleCols<3>(6 * b);
      J->middleCols<3>(6 * b + 3).noalias() +=
          pose_.middleCols<3>(6 * b + 3).lazyProduct(rotation_jacobian_[b]);
    }
  }
  return true;
}

bool EcpStepFunction::ParameterJacobian(const Eigen::VectorXd& z, Eigen::MatrixXd* dF_dp) {
  // Fill's pose part (its F and direct J go to scratch).
  if (!Fill(z, &scratch_F_, &scratch_J_)) return false;
  dF_dp->setZero();
  const double h = system_.time_step();
  for (int b = 0; b < static_cast<int>(bodies_.size()); ++b) {
    const EcpBody& body = system_.bodies()[b];
    const EcpBodyState& s = bodies_[b];
    const int col = 18 * b, row = 6 * b;
    const Vector3d w_next = z.segment<3>(row + 3);
    // c⁺ = c + h v⁺: ∂/∂c = ∂/∂c⁺. R⁺ = exp([hω⁺]×) exp([δθ]×) R = exp([exp([hω⁺]×) δθ]×) R⁺.
    dF_dp->middleCols<3>(col) = pose_.middleCols<3>(6 * b);
    dF_dp->middleCols<3>(col + 3) = pose_.middleCols<3>(6 * b + 3) * step_rotation_[b];
    // The start inertia I = R I_b Rᵀ: δ(I x) = (I [x]× − [I x]×) δθ for a fixed x.
    const Matrix3d& I = inertia_[b];
    const Vector3d dw = w_next - s.w;
    const Matrix3d d_inertia_dw = I * Skew(dw) - Skew(I * dw);
    const Matrix3d d_inertia_w = I * Skew(w_next) - Skew(I * w_next);
    dF_dp->block<3, 3>(row + 3, col + 3) +=
        (d_inertia_dw + h * Skew(w_next) * d_inertia_w) / body.angular_scale;
    dF_dp->block<3, 3>(row, col + 6) = -Matrix3d::Identity();
    dF_dp->block<3, 3>(row + 3, col + 9) = -I / body.angular_scale;
    dF_dp->block<3, 3>(row, col + 12) = -Matrix3d::Identity() / body.mass;
    dF_dp->block<3, 3>(row + 3, col + 15) = -Matrix3d::Identity() / body.angular_scale;
  }
  return true;
}

bool EcpStepFunction::Fill(const Eigen::VectorXd& z, Eigen::VectorXd* F, Eigen::MatrixXd* J) {
  const double h = system_.time_step();
  const Vector3d& g = system_.gravity();
  const bool jacobian = J != nullptr;
  F->setZero();
  if (jacobian) {  // every entry written: zero first, by memset (Eigen's setZero took about
                   // one instruction per entry; glibc's memset, a few wide stores or a string
                   // store). An empty matrix's data() is null, which memset must not receive.
    if (J->size() > 0)
      std::memset(J->data(), 0, sizeof(double) * static_cast<std::size_t>(J->size()));
    if (pose_.size() > 0)
      std::memset(pose_.data(), 0, sizeof(double) * static_cast<std::size_t>(pose_.size()));
  }
  // Bodies: end poses and the Newton–Euler rows without contacts.
  for (int b = 0; b < static_cast<int>(bodies_.size()); ++b) {
    const EcpBody& body = system_.bodies()[b];
    const EcpBodyState& s = bodies_[b];
    const int row = 6 * b;
    const Vector3d v_next = z.segment<3>(row), w_next = z.segment<3>(row + 3);
    end_c_[b] = s.c + h * v_next;
    step_rotation_[b] = RotationMatrixFromRotationVector(h * w_next);
    end_R_[b] = step_rotation_[b] * s.R;
    rotation_jacobian_[b] = h * RotationLeftJacobian(h * w_next);
    inertia_[b] = s.R * body.inertia * s.R.transpose();
    const Matrix3d& I = inertia_[b];
    F->segment<3>(row) = v_next - s.v - h * g - s.impulse / body.mass;
    F->segment<3>(row + 3) =
        (I * (w_next - s.w) + h * w_next.cross(I * w_next) - s.angular_impulse) /
        body.angular_scale;
    if (jacobian) {
      J->block<3, 3>(row, row).setIdentity();
      J->block<3, 3>(row + 3, row + 3) =
          (I + h * (Skew(w_next) * I - Skew(I * w_next))) / body.angular_scale;
    }
  }
  const double e_t = system_.e_t(), e_o = system_.e_o(), e_r = system_.e_r();
  thread_local Side sides[2];
  for (int k = 0; k < static_cast<int>(system_.pairs().size()); ++k) {
    const EcpPair& pair = system_.pairs()[k];
    if (!active_[k]) {
      for (int i = pair.offset; i < pair.offset + pair.size(); ++i) {
        const bool free = system_.kinds()[i] == NcpKind::kFree;
        (*F)[i] = free ? z[i] - reference_[i] : 1.0;
        if (jacobian && free) (*J)(i, i) = 1.0;
      }
      continue;
    }
    const Vector3d a1 = z.segment<3>(pair.a1()), a2 = z.segment<3>(pair.a2());
    const double s = z[pair.s()];
    const double pt = z[pair.pt()], po = z[pair.po()], pr = z[pair.pr()];
    const double pn = z[pair.pn()], sigma = z[pair.sigma()];
    const double mu = pair.friction, P = pair.impulse_scale;
    // Evaluate both sides' inequalities at their points.
    for (int side = 0; side < 2; ++side) {
      Side& sd = sides[side];
      const EcpShape& shape = system_.shapes()[side == 0 ? pair.shape_f : pair.shape_g];
      const int l0 = side == 0 ? pair.lf() : pair.lg();
      const Vector3d& x = side == 0 ? a1 : a2;
      sd.slot = shape.body_slot;
      sd.set = &shape.set;
      sd.at.resize(shape.set.inequalities.size());
      sd.normal.setZero();
      sd.positive_normal.setZero();
      sd.curvature.setZero();
      sd.positive_curvature.setZero();
      sd.twist.setZero();
      sd.positive_twist.setZero();
      const Vector3d c = sd.slot >= 0 ? end_c_[sd.slot] : Vector3d::Zero();
      const Matrix3d R = sd.slot >= 0 ? end_R_[sd.slot] : Matrix3d::Identity();
      for (int i = 0; i < static_cast<int>(sd.at.size()); ++i) {
        const PosedQuadric& q = sd.at[i] = EvaluatePosedQuadric(shape.set.inequalities[i], c, R, x);
        const double l = z[l0 + i], lp = std::max(l, 0.0);
        if (l == 0.0) continue;  // an inactive inequality adds nothing to the sums
        sd.normal += l * q.gradient;
        sd.positive_normal += lp * q.gradient;
        if (!q.flat) {
          sd.curvature += l * q.hessian;
          sd.positive_curvature += lp * q.hessian;
        }
        if (sd.slot >= 0 && jacobian) {
          const Matrix3d twist = q.GradientRotationDerivative();
          sd.twist += l * twist;
          sd.positive_twist += lp * twist;
        }
      }
    }
    const Side& sf = sides[0];
    const Side& sg = sides[1];
    ContactFrame frame;
    if (!MakeContactFrame(sg.positive_normal, seeds_[k], &frame, jacobian)) return false;
    frames_[k] = {frame.n, frame.t, frame.o};
    const int bf = sf.slot, bg = sg.slot;
    const Vector3d rf = a2 - end_c_[bf];
    const Vector3d rg = bg >= 0 ? Vector3d(a2 - end_c_[bg]) : Vector3d::Zero();
    const Vector3d wf = z.segment<3>(6 * bf + 3);
    const Vector3d wg = bg >= 0 ? Vector3d(z.segment<3>(6 * bg + 3)) : Vector3d::Zero();
    const Vector3d vf = z.segment<3>(6 * bf);
    const Vector3d vg = bg >= 0 ? Vector3d(z.segment<3>(6 * bg)) : Vector3d::Zero();
    const Vector3d w = vf + wf.cross(rf) - vg - wg.cross(rg);
    const double vt = frame.t.dot(w), vo = frame.o.dot(w), wr = frame.n.dot(wf - wg);
    const Vector3d force = P * (pn * frame.n + pt * frame.t + po * frame.o);
    const Vector3d moment_f = rf.cross(force) + P * pr * frame.n;

    // Rows of the pair.
    F->segment<3>(pair.a1()) = a1 - a2 + s * sf.normal;
    F->segment<3>(pair.a2()) = sf.normal + sg.normal;
    double l_sum = -1.0;
    for (int i = 0; i < pair.m_f; ++i) l_sum += z[pair.lf() + i];
    (*F)[pair.s()] = l_sum;
    (*F)[pair.pt()] = e_t * e_t * mu * pn * vt + pt * sigma;
    (*F)[pair.po()] = e_o * e_o * mu * pn * vo + po * sigma;
    (*F)[pair.pr()] = (e_r * e_r * mu * pn * wr + pr * sigma) / e_r;
    (*F)[pair.pn()] = s;
    (*F)[pair.sigma()] = (mu * pn) * (mu * pn) - (pt / e_t) * (pt / e_t) - (po / e_o) * (po / e_o) -
                         (pr / e_r) * (pr / e_r);
    for (int i = 0; i < pair.m_f; ++i) (*F)[pair.lf() + i] = -sf.at[i].value;
    for (int j = 0; j < pair.m_g; ++j) (*F)[pair.lg() + j] = -sg.at[j].value;
    // The impulse on the bodies' Newton–Euler rows.
    const EcpBody& body_f = system_.bodies()[bf];
    F->segment<3>(6 * bf) -= force / body_f.mass;
    F->segment<3>(6 * bf + 3) -= moment_f / body_f.angular_scale;
    const Vector3d moment_g = rg.cross(force) + P * pr * frame.n;  // −(moment on G)
    if (bg >= 0) {
      const EcpBody& body_g = system_.bodies()[bg];
      F->segment<3>(6 * bg) += force / body_g.mass;
      F->segment<3>(6 * bg + 3) += moment_g / body_g.angular_scale;
    }
    if (!jacobian) continue;

    // ---- Jacobian. Columns: a1, a2, s, l_F, l_G and the bodies' v, ω (direct) or c⁺, θ⁺ (pose_).
    Eigen::MatrixXd& Jm = *J;
    const Matrix3d I3 = Matrix3d::Identity();
    const int cf = 6 * bf, cg = 6 * bg;  // pose_ columns: c at +0, θ at +3
    // E1 = a1 − a2 + s n_F.
    Jm.block<3, 3>(pair.a1(), pair.a1()) = I3 + s * sf.curvature;
    Jm.block<3, 3>(pair.a1(), pair.a2()) = -I3;
    Jm.block<3, 1>(pair.a1(), pair.s()) = sf.normal;
    for (int i = 0; i < pair.m_f; ++i) {
      Jm.block<3, 1>(pair.a1(), pair.lf() + i) = s * sf.at[i].gradient;
    }
    pose_.block<3, 3>(pair.a1(), cf) -= s * sf.curvature;
    pose_.block<3, 3>(pair.a1(), cf + 3) += s * sf.twist;
    // E2 = n_F + n_G.
    Jm.block<3, 3>(pair.a2(), pair.a1()) = sf.curvature;
    Jm.block<3, 3>(pair.a2(), pair.a2()) = sg.curvature;
    for (int i = 0; i < pair.m_f; ++i) Jm.block<3, 1>(pair.a2(), pair.lf() + i) = sf.at[i].gradient;
    for (int j = 0; j < pair.m_g; ++j) Jm.block<3, 1>(pair.a2(), pair.lg() + j) = sg.at[j].gradient;
    pose_.block<3, 3>(pair.a2(), cf) -= sf.curvature;
    pose_.block<3, 3>(pair.a2(), cf + 3) += sf.twist;
    if (bg >= 0) {
      pose_.block<3, 3>(pair.a2(), cg) -= sg.curvature;
      pose_.block<3, 3>(pair.a2(), cg + 3) += sg.twist;
    }
    // Σ l_F − 1, and s.
    for (int i = 0; i < pair.m_f; ++i) Jm(pair.s(), pair.lf() + i) = 1.0;
    Jm(pair.pn(), pair.s()) = 1.0;
    // −f_i(a1), −g_j(a2).
    for (int i = 0; i < pair.m_f; ++i) {
      const PosedQuadric& q = sf.at[i];
      Jm.block<1, 3>(pair.lf() + i, pair.a1()) = -q.gradient.transpose();
      pose_.block<1, 3>(pair.lf() + i, cf) += q.gradient.transpose();
      pose_.block<1, 3>(pair.lf() + i, cf + 3) -= q.ValueRotationDerivative().transpose();
    }
    for (int j = 0; j < pair.m_g; ++j) {
      const PosedQuadric& q = sg.at[j];
      Jm.block<1, 3>(pair.lg() + j, pair.a2()) = -q.gradient.transpose();
      if (bg >= 0) {
        pose_.block<1, 3>(pair.lg() + j, cg) += q.gradient.transpose();
        pose_.block<1, 3>(pair.lg() + j, cg + 3) -= q.ValueRotationDerivative().transpose();
      }
    }
    // ζ.
    Jm(pair.sigma(), pair.pn()) = 2.0 * mu * mu * pn;
    Jm(pair.sigma(), pair.pt()) = -2.0 * pt / (e_t * e_t);
    Jm(pair.sigma(), pair.po()) = -2.0 * po / (e_o * e_o);
    Jm(pair.sigma(), pair.pr()) = -2.0 * pr / (e_r * e_r);

    // The frame's input m = Σ max(l_j, 0) ∇g_j(a2): its derivatives (a2, l_G, G's pose).
    // Each quantity X(n, t, o, …) below is differentiated as ∂X/∂m · ∂m/∂(…) plus its direct
    // terms; the lambda adds ∂X/∂m · ∂m/∂(…) for a 3 × 3 (or 1 × 3) ∂X/∂m at row `row`.
    const auto add_through_frame = [&](int row, const auto& dX_dm) {
      constexpr int rows = std::decay_t<decltype(dX_dm)>::RowsAtCompileTime;
      Jm.block<rows, 3>(row, pair.a2()) += dX_dm * sg.positive_curvature;
      for (int j = 0; j < pair.m_g; ++j) {
        if (z[pair.lg() + j] > 0.0) {
          Jm.block<rows, 1>(row, pair.lg() + j) += dX_dm * sg.at[j].gradient;
        }
      }
      if (bg >= 0) {
        pose_.block<rows, 3>(row, cg) -= dX_dm * sg.positive_curvature;
        pose_.block<rows, 3>(row, cg + 3) += dX_dm * sg.positive_twist;
      }
    };
    // The relative velocity w = v_F + ω_F × r_F − v_G − ω_G × r_G, r = a2 − c⁺.
    // ∂w/∂a2 = [ω_G]× − [ω_F]× ... written as −[r]× columns for ω and [ω]× for r.
    const auto add_velocity = [&](int row, const Eigen::RowVector3d& e) {  // ∂(e·w)
      Jm.block<1, 3>(row, cf) += e;
      Jm.block<1, 3>(row, cf + 3) += -e * Skew(rf);
      Jm.block<1, 3>(row, pair.a2()) += e * Skew(wf);
      pose_.block<1, 3>(row, cf) -= e * Skew(wf);
      if (bg >= 0) {
        Jm.block<1, 3>(row, cg) -= e;
        Jm.block<1, 3>(row, cg + 3) += e * Skew(rg);
        Jm.block<1, 3>(row, pair.a2()) -= e * Skew(wg);
        pose_.block<1, 3>(row, cg) += e * Skew(wg);
      }
    };
    // Friction rows, eq. (9).
    const double kt = e_t * e_t * mu, ko = e_o * e_o * mu, kr = e_r * mu;
    Jm(pair.pt(), pair.pn()) = kt * vt;
    Jm(pair.pt(), pair.pt()) = sigma;
    Jm(pair.pt(), pair.sigma()) = pt;
    add_velocity(pair.pt(), kt * pn * frame.t.transpose());
    add_through_frame(pair.pt(), (kt * pn * w.transpose() * frame.dt_dm).eval());
    Jm(pair.po(), pair.pn()) = ko * vo;
    Jm(pair.po(), pair.po()) = sigma;
    Jm(pair.po(), pair.sigma()) = po;
    add_velocity(pair.po(), ko * pn * frame.o.transpose());
    add_through_frame(pair.po(), (ko * pn * w.transpose() * frame.do_dm).eval());
    Jm(pair.pr(), pair.pn()) = kr * wr;
    Jm(pair.pr(), pair.pr()) = sigma / e_r;
    Jm(pair.pr(), pair.sigma()) = pr / e_r;
    Jm.block<1, 3>(pair.pr(), cf + 3) += kr * pn * frame.n.transpose();
    if (bg >= 0) Jm.block<1, 3>(pair.pr(), cg + 3) -= kr * pn * frame.n.transpose();
    add_through_frame(pair.pr(), (kr * pn * (wf - wg).transpose() * frame.dn_dm).eval());

    // Newton–Euler rows: −f/m_F, −τ_F/λ_F (and +f/m_G, +τ'_G/λ_G).
    const Matrix3d df_dm = P * (pn * frame.dn_dm + pt * frame.dt_dm + po * frame.do_dm);
    const auto add_impulse = [&](int body_slot, const Vector3d& r, double sign) {
      const EcpBody& body = system_.bodies()[body_slot];
      const int lin = 6 * body_slot, ang = lin + 3;
      const double a = sign / body.mass, b = sign / body.angular_scale;
      // Force: −sign·f/m.
      Jm.block<3, 1>(lin, pair.pn()) -= a * P * frame.n;
      Jm.block<3, 1>(lin, pair.pt()) -= a * P * frame.t;
      Jm.block<3, 1>(lin, pair.po()) -= a * P * frame.o;
      add_through_frame(lin, (-a * df_dm).eval());
      // Moment r × f + P p̂_r n: −sign·τ/λ.
      const Matrix3d rx = Skew(r);
      Jm.block<3, 1>(ang, pair.pn()) -= b * P * rx * frame.n;
      Jm.block<3, 1>(ang, pair.pt()) -= b * P * rx * frame.t;
      Jm.block<3, 1>(ang, pair.po()) -= b * P * rx * frame.o;
      Jm.block<3, 1>(ang, pair.pr()) -= b * P * frame.n;
      add_through_frame(ang, (-b * (rx * df_dm + P * pr * frame.dn_dm)).eval());
      // r = a2 − c⁺ of this body: ∂(r × f)/∂r = −[f]×.
      Jm.block<3, 3>(ang, pair.a2()) += b * Skew(force);
      pose_.block<3, 3>(ang, lin) -= b * Skew(force);
    };
    add_impulse(bf, rf, 1.0);
    if (bg >= 0) add_impulse(bg, rg, -1.0);
  }
  return true;
}

}  // namespace quasidyn
