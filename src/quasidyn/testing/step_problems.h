#pragma once
// One quasi-dynamic step's problem built outside a step model, every formulation behind one
// call, and the optimality checks that hold for every formulation's reported impulses
// (header only; for the tests of dynamics/ and the layers above).

#include <Eigen/Core>
#include <algorithm>
#include <memory>
#include <string>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/formulations/program.h"
#include "quasidyn/formulations/quasi_dynamic/barrier_stand_off.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn::testing {

inline const std::string kSourceDir = QUASIDYN_SOURCE_DIR;

// Owns everything a StepProblem refers to: the contact set and the cost at (q, u).
class OwnedStepProblem {
 public:
  OwnedStepProblem(ScenePtr scene, const ProgramSettings& settings, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& u)
      : settings_(settings),
        model_(std::make_unique<ContactModel>(scene, settings.CandidateDistance(*scene))),
        data_(std::make_unique<ContactData>(model_->CreateData())) {
    model_->Compute(q, data_.get());
    BuildQuasiDynamicCost(data_->kinematics(), u, model_->scene().ActuatedStiffness(),
                          settings_.cost(), &cost_);
  }
  StepProblem get() const {
    return StepProblem{model_->scene(), data_->contacts(), cost_, settings_.time_step};
  }
  const ProgramSettings& settings() const { return settings_; }
  OwnedStepProblem(const Scene& scene, const ProgramSettings& settings, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& u)
      : OwnedStepProblem(std::make_shared<const Scene>(scene), settings, q, u) {}
  const ContactModel& model() const { return *model_; }
  const ContactData& data() const { return *data_; }

 private:
  ProgramSettings settings_;
  std::unique_ptr<ContactModel> model_;
  std::unique_ptr<ContactData> data_;
  QuasiDynamicCost cost_;
};

// The problem the step model of owned.settings().type solves at (q, u), into *cost (which the
// problem refers to, with `owned`): the exact programs leave out the joint-limit rows beyond the
// step's reach (joint_limit_rows.h; their multipliers are not unique where contacts are
// statically indeterminate), so a test solves the same program as the model.
inline StepProblem StepModelProblem(const OwnedStepProblem& owned, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& u, QuasiDynamicCost* cost) {
  const StepProblem full = owned.get();
  *cost = full.cost;
  if (owned.settings().program()->LeavesOutJointLimitsOutOfReach())
    LeaveOutJointLimitsOutOfReach(full.scene, q, u, &cost->limits);
  return StepProblem{full.scene, full.contacts, *cost, full.time_step};
}

// The problem solved by `formulation` (e.g. one made with tighter solver settings), with a
// fresh workspace.
inline FormulationSolution SolveWith(const StepProblem& problem,
                                     const ContactProgram& formulation) {
  const std::unique_ptr<ProgramWorkspace> workspace = formulation.CreateWorkspace();
  FormulationSolution solution;
  formulation.Solve(problem, workspace.get(), &solution);
  return solution;
}

// The problem solved by the program of settings.type, with a fresh workspace.
inline FormulationSolution SolveWith(const OwnedStepProblem& problem) {
  return SolveWith(problem.get(), *problem.settings().program());
}

// Σ_i J_iᵀ λ_i with λ_i = λ_n,i n_i + friction_i, written with the contact's own Jacobians:
// J_iᵀλ_i = J_n,iᵀ (n_i·λ_i) + Σ_k J_t,ikᵀ (t_k,i·λ_i) (planar contacts have only t1).
inline Eigen::VectorXd GeneralizedContactImpulse(const StepProblem& problem,
                                                 const FormulationSolution& solution) {
  const ContactSet& contacts = problem.contacts;
  Eigen::VectorXd total = Eigen::VectorXd::Zero(contacts.nv());
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const Eigen::Vector3d f = solution.friction_impulse[i];
    const Eigen::MatrixXd J_t = contacts.DenseTangentJacobian(i);
    total += contacts.DenseNormalJacobian(i).transpose() *
             (solution.normal_impulse[i] + c.normal.dot(f));
    total += J_t.row(0).transpose() * c.tangent1.dot(f);
    if (J_t.rows() > 1) total += J_t.row(1).transpose() * c.tangent2.dot(f);
  }
  return total;
}

// ‖P v − τ_h − Σ J_iᵀλ_i − Σ_l d_l λ_l e_j‖∞ (contacts and joint-limit rows) and the scale it
// is measured against, max(‖Pv‖∞, ‖τ_h‖∞, 1e-300).
struct Stationarity {
  double residual = 0.0;
  double scale = 0.0;
};
inline Stationarity StationarityOf(const StepProblem& problem,
                                   const FormulationSolution& solution) {
  const Eigen::VectorXd Pv = problem.cost.P.ToDense() * solution.v;
  Stationarity s;
  Eigen::VectorXd limits;
  JointLimitImpulse(problem.cost.limits, solution.limit_impulse, problem.scene.nv, &limits);
  s.residual = (Pv - problem.cost.tau_h - GeneralizedContactImpulse(problem, solution) - limits)
                   .lpNorm<Eigen::Infinity>();
  s.scale = std::max(
      {Pv.lpNorm<Eigen::Infinity>(), problem.cost.tau_h.lpNorm<Eigen::Infinity>(), 1e-300});
  return s;
}

// Σ_i [λ_n,i (φ_i/h + J_n,i v) + friction_i · (J_t,i v in world)]: the power of the contact
// impulses on the velocity constraint, 0 at a QP / SOCP solution (complementarity).
inline double ContactComplementarity(const StepProblem& problem,
                                     const FormulationSolution& solution) {
  const double h = problem.time_step;
  const ContactSet& contacts = problem.contacts;
  double sum = 0.0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const Eigen::Vector3d f = solution.friction_impulse[i];
    const Eigen::MatrixXd J_t = contacts.DenseTangentJacobian(i);
    sum += solution.normal_impulse[i] * (c.phi / h + contacts.NormalVelocity(i, solution.v));
    sum += c.tangent1.dot(f) * J_t.row(0).dot(solution.v);
    if (J_t.rows() > 1) sum += c.tangent2.dot(f) * J_t.row(1).dot(solution.v);
  }
  return sum;
}

// Σ_l λ_l g_l(v) over the joint-limit rows (dynamics/joint_limit_rows.h): 0 at a QP, SOCP or
// LCP solution, n_l/κ at a log barrier's.
inline double LimitComplementarity(const StepProblem& problem,
                                   const FormulationSolution& solution) {
  double sum = 0.0;
  for (int l = 0; l < problem.cost.limits.size(); ++l)
    sum += solution.limit_impulse[l] * JointLimitSlack(problem.cost.limits, l, solution.v);
  return sum;
}

// ½ vᵀPv − τ_hᵀv [N·m].
inline double Objective(const StepProblem& problem, const Eigen::VectorXd& v) {
  return 0.5 * v.dot(problem.cost.P.ToDense() * v) - problem.cost.tau_h.dot(v);
}

}  // namespace quasidyn::testing
