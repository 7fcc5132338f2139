#pragma once
// Shared by the dynamics tests (header only, not a library): one step's problem built outside
// the stepper, every formulation behind one call, and the optimality checks that hold for
// every formulation's reported impulses.

#include <Eigen/Core>
#include <memory>
#include <string>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/log_barrier_cone.h"
#include "quasidyn/dynamics/log_barrier_pyramid.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/quasi_dynamic_qp.h"
#include "quasidyn/dynamics/quasi_dynamic_socp.h"
#include "quasidyn/dynamics/quasistatic_lcp.h"
#include "quasidyn/dynamics/step_problem.h"

namespace quasidyn::testing {

inline const std::string kSourceDir = QUASIDYN_SOURCE_DIR;

// Owns everything a StepProblem refers to.
class OwnedStepProblem {
 public:
  OwnedStepProblem(const Scene& scene, const FormulationSettings& settings,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& u)
      : settings_(settings), engine_(scene) {
    contacts_ = engine_.Compute(q);
    cost_ = BuildQuasiDynamicCost(engine_.kinematics(), u, settings_);
    problem_ = std::make_unique<StepProblem>(StepProblem{scene, contacts_, cost_, settings_});
  }
  const StepProblem& get() const { return *problem_; }

 private:
  FormulationSettings settings_;
  ContactEngine engine_;
  ContactSet contacts_;
  QuasiDynamicCost cost_;
  std::unique_ptr<StepProblem> problem_;
};

inline FormulationSolution SolveWith(const StepProblem& problem) {
  switch (problem.settings.type) {
    case FormulationType::kQp: {
      QpSolver solver;
      return SolvePyramidQp(problem, &solver);
    }
    case FormulationType::kSocp: {
      SocpSolver solver;
      return SolveFrictionConeSocp(problem, &solver);
    }
    case FormulationType::kLogBarrierPyramid: {
      LogBarrierSolver solver;
      return SolvePyramidLogBarrier(problem, &solver);
    }
    case FormulationType::kLogBarrierCone: {
      LogBarrierSolver solver;
      return SolveConeLogBarrier(problem, &solver);
    }
    case FormulationType::kLcp: {
      LemkeSolver solver;
      return SolveQuasistaticLcp(problem, &solver);
    }
  }
  return {};
}

// Σ_i J_iᵀ λ_i with λ_i = λ_n,i n_i + friction_i, written with the contact's own Jacobians:
// J_iᵀλ_i = J_n,iᵀ (n_i·λ_i) + Σ_k J_t,ikᵀ (t_k,i·λ_i) (planar contacts have only t1).
inline Eigen::VectorXd GeneralizedContactImpulse(const StepProblem& problem,
                                                 const FormulationSolution& solution) {
  Eigen::VectorXd total = Eigen::VectorXd::Zero(problem.contacts.nv);
  for (int i = 0; i < problem.contacts.size(); ++i) {
    const Contact& c = problem.contacts.contacts[i];
    const Eigen::Vector3d f = solution.friction_impulse.col(i);
    total += c.J_n.transpose() * (solution.normal_impulse[i] + c.normal.dot(f));
    total += c.J_t.row(0).transpose() * c.tangent1.dot(f);
    if (c.J_t.rows() > 1) total += c.J_t.row(1).transpose() * c.tangent2.dot(f);
  }
  return total;
}

// ‖P v − τ_h − Σ J_iᵀλ_i‖∞ and the scale it is measured against, max(‖Pv‖∞, ‖τ_h‖∞, 1e-300).
struct Stationarity {
  double residual = 0.0;
  double scale = 0.0;
};
inline Stationarity StationarityOf(const StepProblem& problem,
                                   const FormulationSolution& solution) {
  const Eigen::VectorXd Pv = problem.cost.P * solution.v;
  Stationarity s;
  s.residual = (Pv - problem.cost.tau_h - GeneralizedContactImpulse(problem, solution))
                   .lpNorm<Eigen::Infinity>();
  s.scale = std::max(
      {Pv.lpNorm<Eigen::Infinity>(), problem.cost.tau_h.lpNorm<Eigen::Infinity>(), 1e-300});
  return s;
}

// Σ_i [λ_n,i (φ_i/h + J_n,i v) + friction_i · (J_t,i v in world)]: the power of the contact
// impulses on the velocity constraint, 0 at a QP / SOCP solution (complementarity).
inline double ContactComplementarity(const StepProblem& problem,
                                     const FormulationSolution& solution) {
  const double h = problem.settings.time_step;
  double sum = 0.0;
  for (int i = 0; i < problem.contacts.size(); ++i) {
    const Contact& c = problem.contacts.contacts[i];
    const Eigen::Vector3d f = solution.friction_impulse.col(i);
    sum += solution.normal_impulse[i] * (c.phi / h + c.J_n.dot(solution.v));
    sum += c.tangent1.dot(f) * c.J_t.row(0).dot(solution.v);
    if (c.J_t.rows() > 1) sum += c.tangent2.dot(f) * c.J_t.row(1).dot(solution.v);
  }
  return sum;
}

// ½ vᵀPv − τ_hᵀv [N·m].
inline double Objective(const StepProblem& problem, const Eigen::VectorXd& v) {
  return 0.5 * v.dot(problem.cost.P * v) - problem.cost.tau_h.dot(v);
}

}  // namespace quasidyn::testing
