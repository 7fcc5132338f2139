#pragma once
// The programs of the quasi-dynamic step model (quasi_dynamic_model.h): each solves the step's
// convex program (program.h) and differentiates its own answer, so that the model's CalcDiff
// asks the program for ∂v*/∂q and ∂v*/∂u and never switches on which program it holds
// (docs/gradients.md):
//
//   qp                 qp/qp_program.h                 implicit, active pyramid rows
//   socp               socp/socp_program.h             implicit, cones' projections
//   log-barrier        log_barrier/log_barrier_program.h    stationarity of the barrier
//   log-barrier-cone   log_barrier_cone/log_barrier_cone.h  stationarity of the barrier
//   lcp                lcp/lcp_program.h               none (the formulation declares why)

#include <Eigen/Core>
#include <memory>
#include <string>

#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/formulations/program.h"
#include "quasidyn/gradients/chain_kinematics.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/velocity_gradient.h"

namespace quasidyn {

// The contraction of the contact data's q-derivative (φ, J, M_u, τ_u, τ_h as functions of q)
// with a program's multipliers λ (gradients/contact_data_derivative.h), which every program's
// ∂v*/∂q needs: the model gives one to Differentiate, for A only.
class StepDataContractor {
 public:
  virtual ~StepDataContractor() = default;
  // The contraction for the stacked impulse coordinates λ of the program's contacts; nullptr
  // when the contact data's derivative failed (why: failure()).
  virtual const StepDataContraction* Contract(const Eigen::VectorXd& lambda) = 0;
  const std::string& failure() const { return failure_; }

 protected:
  std::string failure_;
};

// ε_data [m or rad] of the contact data's central differences (contact_data_derivative.h): ∛ε,
// the optimum of a central difference (truncation O(ε²) against round-off O(ε_machine/ε)).
inline constexpr double kContactDataStep = 6.0555e-6;

// The contractor of both step families (quasi_dynamic_model.h, second_order_model.h):
// DifferentiateStepData at the step (q, u, its contacts, v) with `cost`, into the buffers the
// step data keeps (the chain kinematics made on first use), plus `added_d_P_v` in d_P_v when
// given (the second-order step's inertia and velocity-product terms). Holds references: it
// lives for one CalcDiff.
class ContactDataContractor final : public StepDataContractor {
 public:
  ContactDataContractor(const ContactModel& contact, const QuasiDynamicCostParameters& cost,
                        const ScenePtr& scene, std::unique_ptr<ChainKinematics>* chain,
                        StepDataDerivativeBuffers* buffers, StepDataContraction* contraction,
                        const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                        const ContactSet& contacts, const Eigen::VectorXd& v,
                        const Eigen::MatrixXd* added_d_P_v = nullptr);
  const StepDataContraction* Contract(const Eigen::VectorXd& lambda) override;

 private:
  const ContactModel& contact_;
  const QuasiDynamicCostParameters cost_;
  const ScenePtr& scene_;
  std::unique_ptr<ChainKinematics>* chain_;
  StepDataDerivativeBuffers* buffers_;
  StepDataContraction* contraction_;
  const Eigen::VectorXd& q_;
  const Eigen::VectorXd& u_;
  const ContactSet& contacts_;
  const Eigen::VectorXd& v_;
  const Eigen::MatrixXd* added_d_P_v_;
};

// What the quasi-dynamic model's CalcDiff knows of the step its last Calc solved.
struct QuasiDynamicDerivativeInput {
  const StepProblem& problem;
  const FormulationSolution& solution;  // v* and the multipliers
  const Eigen::VectorXd& q;             // the step's start (size n_q)
  // The data contraction for A, or nullptr for B only.
  StepDataContractor* contractor;
};

class QuasiDynamicProgram : public ContactProgram {
 public:
  // Whether the step may leave out the joint-limit rows beyond reach (joint_limit_rows.h): the
  // exact convex programs, whose minimiser an inactive row does not change; a barrier keeps a
  // term per row.
  virtual bool LeavesOutJointLimitsOutOfReach() const { return false; }

  // The distance up to which the step keeps contact candidates [m]: ε (Scene::
  // contact_tolerance) by default; a log barrier, which pushes from a distance, keeps the
  // contacts up to its resting stand-off (barrier_stand_off.h). std::invalid_argument when the
  // program cannot hold the scene's objects near their supports.
  virtual double CandidateDistance(const Scene& scene) const { return scene.contact_tolerance; }

  // Adds the program's own parameter values to the model's report (a barrier's kappa).
  virtual void ReportParameters(ParameterBlock* /*report*/) const {}

  // ∂v*/∂q (on q's tangent space) and ∂v*/∂u of the answer the last Solve left in `workspace`,
  // into *gradient (resized); a point where the derivative does not exist is gradient->ok =
  // false with a message. Does not solve again.
  virtual void Differentiate(const QuasiDynamicDerivativeInput& input, ProgramWorkspace* workspace,
                             VelocityGradient* gradient) const = 0;
};

}  // namespace quasidyn
