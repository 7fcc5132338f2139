#pragma once
// The quasi-dynamic step models of Pang & Tedrake 2021 and Pang, Suh, Yang & Tedrake 2023
// behind the StepModel interface (step_model.h): state x = q (v empty), command u = q̄_a.
//
//   contacts at q (contact/contact_model.h) → cost P, τ_h (dynamics/quasi_dynamic_cost.h)
//   → the formulation's program (dynamics/formulation.h: qp | socp | log-barrier |
//   log-barrier-cone | lcp) → v → q⁺ = q ⊕ h·v (floating bodies: exponential map, then the
//   quaternion is normalised).
//
// CalcDiff (quasi_dynamic_derivatives.cc) differentiates the program solved by the last Calc:
// the pyramid QP (gradients/qp_gradient.h), the SOCP (socp_gradient.h), the pyramid barrier
// (log_barrier_gradient.h) or the cone barrier (log_barrier_cone_gradient.h). The quasistatic
// LCP has no derivative here: CalcDiff on an lcp model returns a status saying so
// (formulation_table.h maps a scene's type to the program its gradients come from).

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/formulation.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/gradients/chain_kinematics.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/qp_gradient.h"
#include "quasidyn/gradients/socp_gradient.h"
#include "quasidyn/gradients/socp_gradient_blocks.h"
#include "quasidyn/gradients/step_data_derivative.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class QuasiDynamicModel;

class QuasiDynamicData final : public StepData {
 public:
  // What the last Calc computed: the kinematics and contact set at q, the cost, the
  // formulation's answer (velocity and impulses), and its inputs.
  const ContactData& contact() const { return contact_; }
  const QuasiDynamicCost& cost() const { return cost_; }
  const FormulationSolution& solution() const { return solution_; }
  const FormulationWorkspace& workspace() const { return *workspace_; }
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& u() const { return u_; }

 private:
  friend class QuasiDynamicModel;
  QuasiDynamicData(const QuasiDynamicModel* model, ContactData contact,
                   std::unique_ptr<FormulationWorkspace> workspace);

  ContactData contact_;
  QuasiDynamicCost cost_;
  std::unique_ptr<FormulationWorkspace> workspace_;
  FormulationSolution solution_;
  Eigen::VectorXd q_, u_;
  Eigen::VectorXd Pv_;       // P v (n_v), for StepResult::momentum_force
  bool calculated_ = false;  // a Calc has run (whatever its outcome)
  // CalcDiff's buffers, made by its first call for A and kept: the chain kinematics the data
  // contraction perturbs, and the contraction itself.
  std::unique_ptr<ChainKinematics> chain_kinematics_;
  StepDataDerivativeBuffers derivative_buffers_;  // DifferentiateStepData's, kept
  StepDataContraction contraction_;
  PyramidStepData pyramid_;       // the pyramid programs' data (step_data_derivative.h)
  QpSensitivity qp_sensitivity_;  // the exact QP's active set, factors and solve buffers
  // The cone programs': their blocks and multipliers, and the SOCP's linearisation and solve.
  std::vector<ContactConeBlock> cone_blocks_;
  std::vector<Eigen::VectorXd> cone_multipliers_;
  SocpSensitivity socp_sensitivity_;
  VelocityGradient gradient_;  // ∂v*/∂q, ∂v*/∂u of the last CalcDiff
};

class QuasiDynamicModel final : public StepModel {
 public:
  // Compiles the scene's geometry, validates the settings; throws std::invalid_argument naming
  // what is wrong.
  QuasiDynamicModel(ScenePtr scene, const FormulationSettings& settings);

  const ContactModel& contact_model() const { return contact_; }
  const Formulation& formulation() const { return *formulation_; }
  // K_a (Scene::ActuatedStiffness(), size n_v,a).
  const Eigen::VectorXd& actuated_stiffness() const { return actuated_stiffness_; }

  int state_v_size() const override { return 0; }
  std::unique_ptr<StepData> CreateData() const override;
  // x.q of size n_q (quaternions need not be normalised: the step normalises them), x.v
  // empty; u of size n_q,a; all finite (std::invalid_argument otherwise).
  void Calc(const State& x, const Eigen::VectorXd& u, StepData* data) const override;
  void CalcDiff(GradientMode mode, StepData* data) const override;
  void ClearWarmStart(StepData* data) const override;

  // The step as a StepProblem from what the last Calc left in data.
  StepProblem ProblemOf(const QuasiDynamicData& data) const;

 private:
  QuasiDynamicData& DataOf(StepData* data, const char* where) const;
  void Fail(const Eigen::VectorXd& q, SolverStatus status, std::string message,
            QuasiDynamicData* data) const;

  ContactModel contact_;
  std::unique_ptr<const Formulation> formulation_;
  Eigen::VectorXd actuated_stiffness_;
};

}  // namespace quasidyn
