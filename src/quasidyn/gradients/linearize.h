#pragma once
// The linearisation of the time step q⁺ = f(q, u) (issue 4): q⁺ with
//   A = ∂f/∂q (n_q × n_q)   and   B = ∂f/∂u (n_q × n_q,a),
// exact (implicit differentiation of the pyramid QP's KKT conditions, qp_gradient.h) or
// smoothed (the log-barrier pyramid step, log_barrier_gradient.h), docs/gradients.md.
//
//   f(q, u) = q ⊕ h v*(q, u),
//   B = ∂(q ⊕ h v)/∂v · ∂v*/∂u,
//   A = ∂(q ⊕ h v)/∂q + ∂(q ⊕ h v)/∂v · ∂v*/∂q_tangent · T(q)     (configuration_map.h).
//
// Convention for A (as in finite_difference.h): A acts on raw coordinate perturbations δq ∈
// R^{n_q}; the step normalises quaternions, so A includes the derivative of the
// normalisation (A·[0…Q…0] = 0 for the radial direction of each quaternion) and
// A δq is the first-order change of q⁺ for any δq. ∂v*/∂q contains every q-dependence of the
// program: φ(q), J_n(q), J_d(q) (∂J/∂q), M_u(q), τ_u(q) and q_a in τ_h
// (step_data_derivative.h; these data derivatives are central differences of the data in
// this first version).
//
// Which program is differentiated: the method picks exact or smoothed, FormulationSettings::
// type picks the friction model (pyramid or exact cone):
//   type                       kExact                          kLogBarrier (weight κ = kappa)
//   qp, lcp, log-barrier       pyramid QP, eq. (10)            log-barrier pyramid
//                              (qp_gradient.h)                 (log_barrier_gradient.h)
//   socp, log-barrier-cone     exact-cone SOCP                 log-barrier cone
//                              (socp_gradient.h)               (log_barrier_cone_gradient.h)
// (the LCP type is linearised through the pyramid programs, which have no boundary-layer-free
// LCP counterpart here). q_next is always the step of the program
// differentiated, so it equals QuasiDynamicStepper's q⁺ when the method matches the type
// (kExact with qp / socp, kLogBarrier with log-barrier / log-barrier-cone).

#include <Eigen/Core>
#include <string>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/solvers/log_barrier_newton.h"
#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/socp.h"
#include "quasidyn/solvers/solver_status.h"

namespace quasidyn {

enum class GradientMode { kNone, kBOnly, kAAndB };
enum class GradientMethod {
  kExact,       // pyramid QP (Pang & Tedrake 2021, eq. (10)) or SOCP (Pang 2022), see above
  kLogBarrier,  // log-barrier pyramid or cone (Pang 2022), weight FormulationSettings::kappa
};

struct Linearization {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;     // empty on success: what failed otherwise
  Eigen::VectorXd q_next;  // f(q, u) (size n_q); q when the step failed
  Eigen::VectorXd v;       // v* (size n_v)
  Eigen::MatrixXd A;       // n_q × n_q (mode kAAndB), else empty
  Eigen::MatrixXd B;       // n_q × n_q,a (modes kBOnly, kAAndB), else empty
  // Exact QP: active pyramid rows (qp_gradient.h); exact SOCP: binding scalar conditions (m_b
  // per sticking block, 1 per sliding block, socp_gradient.h); barriers: all rows / blocks.
  int active_rows = 0;
  bool ok() const {
    return status == SolverStatus::kSolved || status == SolverStatus::kSolvedInaccurate;
  }
};

struct LinearizeSettings {
  QpSettings qp;                 // for kExact (default: ContactQpSettings of quasi_dynamic_qp.h)
  SocpSettings socp;             // for kExact with a cone type (default: as the stepper)
  LogBarrierSettings barrier;    // for kLogBarrier (default: use_previous_solution = false)
  double data_step = 6.0555e-6;  // ε_data of step_data_derivative.h [m or rad], > 0
  LinearizeSettings();
};

class Linearizer {
 public:
  // Keeps a reference to scene, which must outlive the linearizer. Throws
  // std::invalid_argument for settings out of range (as QuasiDynamicStepper).
  Linearizer(const Scene& scene, const FormulationSettings& settings,
             const LinearizeSettings& linearize_settings = LinearizeSettings());

  // Never throws for a failed solve or a non-differentiable point (status and message say
  // which); throws std::invalid_argument for bad sizes or NaN in q or u.
  Linearization Linearize(const Eigen::VectorXd& q, const Eigen::VectorXd& u, GradientMode mode,
                          GradientMethod method);

 private:
  const Scene& scene_;
  FormulationSettings settings_;
  LinearizeSettings linearize_settings_;
  ContactEngine engine_;
  QpSolver qp_solver_;
  LogBarrierSolver barrier_solver_;
  SocpSolver socp_solver_;

  // The friction-cone branch (types socp and log-barrier-cone; contacts and cost at q).
  Linearization LinearizeCone(const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                              const ContactSet& contacts, const QuasiDynamicCost& cost,
                              GradientMode mode, GradientMethod method);
};

}  // namespace quasidyn
