#pragma once
// Shared by the cone-gradient tests (header only, not a library):
//  * FiniteDifferenceContraction: the contractions of contact_data_derivative.h by plain
//    central differences of the contact data, written independently of
//    contact_data_derivative.cc, so that the cone gradients are tested on their own;
//  * ConeReferenceStep: q⁺ of the SOCP (tight tolerances) or of the cone barrier through the
//    dynamics layer's formulations, independent of gradients/ and stepping/, for the
//    finite-difference reference;
//  * ConeStepLinearization: A and B assembled from the cone gradients with that contraction.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone.h"
#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone_gradient.h"
#include "quasidyn/formulations/program.h"
#include "quasidyn/formulations/programs/socp_gradient.h"
#include "quasidyn/formulations/quasi_dynamic/barrier_stand_off.h"
#include "quasidyn/formulations/socp/socp_program.h"
#include "quasidyn/gradients/configuration_map.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn::testing {

// The contact of `others` with the same geometry pair whose witness points are nearest to
// contact i of `set` (within max_distance [m]); −1 when none.
inline int MatchingContact(const ContactSet& set, int i, const ContactSet& others,
                           double max_distance) {
  const Contact& c = set[i];
  int best = -1;
  double best_distance = max_distance;
  for (int j = 0; j < others.size(); ++j) {
    const Contact& o = others[j];
    if (o.geometry_a != c.geometry_a || o.geometry_b != c.geometry_b) continue;
    const double distance = (o.p_A - c.p_A).norm() + (o.p_B - c.p_B).norm();
    if (distance <= best_distance) {
      best = j;
      best_distance = distance;
    }
  }
  return best;
}

// J_t of contact j of `perturbed` in a tangent basis transported from contact i of `at_q`:
// the 3D basis of contact/friction_cone.h (Duff et al. 2017) flips when n_z changes sign,
// i.e. for every horizontal normal, which makes J_t(q) jump under a tiny perturbation
// although the cone (rotation invariant) does not change. t1' = t1(q) projected on the new
// tangent plane, t2' = n × t1' (the basis is right-handed, t2 = n × t1), J_t' = [t1'ᵀ; t2'ᵀ] J
// with the relative velocity Jacobian J = n J_n + t1 J_t1 + t2 J_t2. Planar bases are smooth.
inline Eigen::MatrixXd SmoothTangentJacobian(const ContactSet& at_q, int i,
                                             const ContactSet& perturbed, int j) {
  const Eigen::MatrixXd J_t_c = perturbed.DenseTangentJacobian(j);
  if (J_t_c.rows() != 2) return J_t_c;
  const Contact& c = perturbed[j];
  const Eigen::MatrixXd J = c.normal * perturbed.DenseNormalJacobian(j) +
                            c.tangent1 * J_t_c.row(0) + c.tangent2 * J_t_c.row(1);
  const Eigen::Vector3d t1 =
      (at_q[i].tangent1 - at_q[i].tangent1.dot(c.normal) * c.normal).normalized();
  const Eigen::Vector3d t2 = c.normal.cross(t1);
  Eigen::MatrixXd J_t(2, J.cols());
  J_t.row(0) = t1.transpose() * J;
  J_t.row(1) = t2.transpose() * J;
  return J_t;
}

// Central differences along q ⊕ ±ε e_k of φ, J_c v, J_cᵀλ (contacts of q matched as in
// step_data_derivative.h), P v and τ_h; v and λ fixed. ε [m or rad].
inline StepDataContraction FiniteDifferenceContraction(
    const Scene& scene, const ProgramSettings& settings, const Eigen::VectorXd& q,
    const Eigen::VectorXd& u, const ContactSet& at_q, const Eigen::VectorXd& v,
    const Eigen::VectorXd& lambda, double step = 6.0555e-6) {
  const ContactModel model(std::make_shared<const Scene>(scene), settings.CandidateDistance(scene));
  ContactData data = model.CreateData();
  const int nv = scene.nv, nc = at_q.size();
  const std::vector<int> first = ContactFirstRows(at_q);
  StepDataContraction d;
  d.d_phi.resize(nc, nv);
  d.d_Jc_v.resize(first.back(), nv);
  d.d_JcT_lambda.resize(nv, nv);
  d.d_P_v.resize(nv, nv);
  d.d_tau_h.resize(nv, nv);
  for (int k = 0; k < nv; ++k) {
    Eigen::VectorXd phi[2], Jc_v[2], JcT_lambda[2], P_v[2], tau_h[2];
    for (int side = 0; side < 2; ++side) {
      const double eps = side == 0 ? step : -step;
      const Eigen::VectorXd q_k =
          IntegrateConfiguration(scene, q, Eigen::VectorXd::Unit(nv, k), eps);
      if (!model.Compute(q_k, &data))
        throw std::runtime_error("FiniteDifferenceContraction: " + data.failure_message());
      const ContactSet& contacts = data.contacts();
      const QuasiDynamicCost cost = BuildQuasiDynamicCost(data.kinematics(), u, settings.cost());
      P_v[side] = cost.P.ToDense() * v;
      tau_h[side] = cost.tau_h;
      phi[side].resize(nc);
      Jc_v[side].resize(first.back());
      JcT_lambda[side] = Eigen::VectorXd::Zero(nv);
      for (int i = 0; i < nc; ++i) {
        const int j = MatchingContact(at_q, i, contacts, 1000.0 * step);
        if (j < 0)
          throw std::runtime_error("FiniteDifferenceContraction: contact " + std::to_string(i) +
                                   " disappears along direction " + std::to_string(k));
        const Eigen::RowVectorXd J_n = contacts.DenseNormalJacobian(j);
        const Eigen::MatrixXd J_t = SmoothTangentJacobian(at_q, i, contacts, j);
        const int nt = static_cast<int>(J_t.rows());
        phi[side][i] = contacts[j].phi;
        Jc_v[side][first[i]] = J_n.dot(v);
        Jc_v[side].segment(first[i] + 1, nt) = J_t * v;
        JcT_lambda[side] +=
            J_n.transpose() * lambda[first[i]] + J_t.transpose() * lambda.segment(first[i] + 1, nt);
      }
    }
    const double scale = 1.0 / (2.0 * step);
    d.d_phi.col(k) = (phi[0] - phi[1]) * scale;
    d.d_Jc_v.col(k) = (Jc_v[0] - Jc_v[1]) * scale;
    d.d_JcT_lambda.col(k) = (JcT_lambda[0] - JcT_lambda[1]) * scale;
    d.d_P_v.col(k) = (P_v[0] - P_v[1]) * scale;
    d.d_tau_h.col(k) = (tau_h[0] - tau_h[1]) * scale;
  }
  return d;
}

// Tolerance of the reference SOCP: 1e-12 (the stepper uses 1e-9), so that its error over
// the FD step δ ≈ 6e-6 stays ≈ 2e-7.
constexpr double kReferenceSocpTolerance = 1e-12;

inline SocpSettings ReferenceSocpSettings() {
  SocpSettings s;
  s.absolute_tolerance = kReferenceSocpTolerance;
  s.relative_tolerance = kReferenceSocpTolerance;
  s.max_iterations = 200;
  return s;
}

// The solved step at (q, u): contact set, cost and the formulation's solution.
struct ConeStep {
  ContactSet contacts;
  QuasiDynamicCost cost;
  FormulationSolution solution;
  double reference_tolerance = 0.0;  // the SOCP tolerance reached (0 for the barrier)
};

inline ConeStep SolveConeStep(const Scene& scene, const ProgramSettings& settings,
                              const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
  const ContactModel model(std::make_shared<const Scene>(scene), settings.CandidateDistance(scene));
  ContactData data = model.CreateData();
  ConeStep step;
  if (!model.Compute(q, &data))
    throw std::runtime_error("SolveConeStep: " + data.failure_message());
  step.contacts = data.contacts();
  step.cost = BuildQuasiDynamicCost(data.kinematics(), u, settings.cost());
  const StepProblem problem{scene, step.contacts, step.cost, settings.time_step};
  if (settings.type == "log-barrier-cone") {
    const ConeLogBarrierProgram formulation(settings.kappa);
    const auto workspace = formulation.CreateWorkspace();
    formulation.Solve(problem, workspace.get(), &step.solution);
  } else if (settings.type == "socp") {
    // The tightest of 1e-12, 1e-11, 1e-10 that the interior point reaches (status kSolved).
    SocpSettings tight = ReferenceSocpSettings();
    for (int attempt = 0; attempt < 3; ++attempt) {
      const SocpProgram formulation(tight);
      const auto workspace = formulation.CreateWorkspace();
      formulation.Solve(problem, workspace.get(), &step.solution);
      step.reference_tolerance = tight.absolute_tolerance;
      if (step.solution.status == SolverStatus::kSolved) break;
      tight.absolute_tolerance *= 10;
      tight.relative_tolerance *= 10;
    }
  } else {
    throw std::invalid_argument("SolveConeStep: the formulation must be socp or log-barrier-cone");
  }
  return step;
}

// True when the number of contacts at q changes under a raw-coordinate perturbation of the
// size central differences use (finite_difference.h): then the step is not differentiable in
// q there as computed (face-on-face manifolds gain or lose points under a tiny tilt).
inline bool ContactSetChangesWithinFdStep(const Scene& scene, const Eigen::VectorXd& q) {
  const ContactModel model(std::make_shared<const Scene>(scene));
  ContactData data = model.CreateData();
  model.Compute(q, &data);
  const int at_q = data.contacts().size();
  const double step = FiniteDifferenceSettings().relative_step;
  for (int k = 0; k < q.size(); ++k) {
    for (double sign : {-1.0, 1.0}) {
      Eigen::VectorXd perturbed = q;
      perturbed[k] += sign * step * std::max(1.0, std::abs(q[k]));
      model.Compute(perturbed, &data);
      if (data.contacts().size() != at_q) return true;
    }
  }
  return false;
}

class ConeReferenceStep {
 public:
  ConeReferenceStep(const Scene& scene, const ProgramSettings& settings)
      : scene_(scene), settings_(settings) {}
  ConeReferenceStep(Scene&&, const ProgramSettings&) = delete;  // kept by reference
  Eigen::VectorXd operator()(const Eigen::VectorXd& q, const Eigen::VectorXd& u) const {
    const ConeStep step = SolveConeStep(scene_, settings_, q, u);
    if (step.solution.status != SolverStatus::kSolved)
      return Eigen::VectorXd::Constant(q.size(), std::numeric_limits<double>::quiet_NaN());
    loosest_tolerance_ = std::max(loosest_tolerance_, step.reference_tolerance);
    return StepConfiguration(scene_, q, step.solution.v, settings_.time_step);
  }
  // The loosest tolerance the SOCP ladder had to accept over all calls so far (1e-12 …
  // 1e-10; 0 before any call or for the barrier), and the FD tolerance it implies: the
  // reference's error τ over the central-difference step δ = 6e-6 (finite_difference.h),
  // with the margin of 50 of linearize_test.cc's kFdTolerance, never below `tolerance`.
  double loosest_tolerance() const { return loosest_tolerance_; }
  double FdTolerance(double tolerance) const {
    return std::max(tolerance,
                    50.0 * loosest_tolerance_ / FiniteDifferenceSettings().relative_step);
  }
  StepFunction AsFunction() const {
    return [this](const Eigen::VectorXd& q, const Eigen::VectorXd& u) { return (*this)(q, u); };
  }

 private:
  const Scene& scene_;
  ProgramSettings settings_;
  mutable double loosest_tolerance_ = 0.0;
};

// A and B of the cone step (settings.type socp or log-barrier-cone) from socp_gradient.h /
// log_barrier_cone_gradient.h with FiniteDifferenceContraction, chained as in
// stepping/quasi_dynamic_derivatives.cc; `solve` picks the SOCP's linear solve.
struct ConeLinearization {
  Eigen::VectorXd q_next;
  Eigen::MatrixXd A, B;
  std::vector<ConeCase> cases;  // SOCP only
  int active_rows = 0;
  int kkt_rank = 0;
};

inline ConeLinearization LinearizeConeStep(const Scene& scene, const ProgramSettings& settings,
                                           const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                           SocpKktSolve solve = SocpKktSolve::kRangeSpace) {
  const ConeStep step = SolveConeStep(scene, settings, q, u);
  if (step.solution.status != SolverStatus::kSolved)
    throw std::runtime_error("cone step not solved: status " +
                             std::to_string(static_cast<int>(step.solution.status)) + " " +
                             step.solution.message);
  const Eigen::VectorXd& v = step.solution.v;
  const StepProblem problem{scene, step.contacts, step.cost, settings.time_step};
  const double h = settings.time_step;
  ConeLinearization out;
  VelocityGradient gradient;
  if (settings.type == "socp") {
    const std::vector<ContactConeBlock> blocks = SocpConeBlocks(step.contacts);
    const std::vector<Eigen::VectorXd> y =
        SocpBlockMultipliers(step.contacts, blocks, step.solution);
    const StepDataContraction d =
        FiniteDifferenceContraction(scene, settings, q, u, step.contacts, v,
                                    StackedImpulseCoordinates(step.contacts, blocks, y));
    gradient = SocpVelocityGradient(problem, blocks, y, step.solution.limit_impulse, v, &d, solve);
    out.cases = ClassifySocpBlocks(problem, blocks, y, v);
  } else {
    const std::vector<ContactConeBlock> blocks = BarrierConeBlocks(step.contacts);
    const std::vector<Eigen::VectorXd> y =
        BarrierConeMultipliers(problem, settings.kappa, blocks, v);
    const StepDataContraction d =
        FiniteDifferenceContraction(scene, settings, q, u, step.contacts, v,
                                    StackedImpulseCoordinates(step.contacts, blocks, y));
    gradient = LogBarrierConeVelocityGradient(problem, settings.kappa, blocks, v, &d);
  }
  out.active_rows = gradient.active_rows;
  out.kkt_rank = gradient.kkt_rank;
  out.q_next = StepConfiguration(scene, q, v, h);
  const Eigen::MatrixXd dq_dv = IntegrationJacobianWrtVelocity(scene, q, v, h);
  out.B = dq_dv * gradient.dv_du;
  out.A = IntegrationJacobianWrtConfiguration(scene, q, v, h) +
          dq_dv * gradient.dv_dq * TangentFromConfiguration(scene, q);
  return out;
}

}  // namespace quasidyn::testing
