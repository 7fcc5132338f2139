#pragma once
// The quasi-dynamic step models of Pang & Tedrake 2021 and Pang, Suh, Yang & Tedrake 2023
// behind the StepModel interface (step_model.h): state x = q (v empty), command u = q̄_a.
//
//   contacts at q (contact/contact_model.h) → cost P, τ_h (dynamics/quasi_dynamic_cost.h)
//   → the program (quasi_dynamic_program.h: qp | socp | log-barrier | log-barrier-cone | lcp,
//   each in its formulation's folder) → v → q⁺ = q ⊕ h·v (floating bodies: exponential map,
//   then the quaternion is normalised).
//
// CalcDiff (quasi_dynamic_derivatives.cc) asks the program for ∂v*/∂q and ∂v*/∂u of the step
// the last Calc solved (QuasiDynamicProgram::Differentiate), giving it the contraction of the
// contact data's derivative for A, and chains them through q ⊕ h·v. A formulation without a
// derivative (lcp) declares why in its capabilities; CalcDiff then throws.

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"
#include "quasidyn/gradients/chain_kinematics.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/gradients/velocity_gradient.h"
#include "quasidyn/stepping/body_motion.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class QuasiDynamicModel;

class QuasiDynamicData final : public StepData {
 public:
  // What the last Calc computed: the kinematics and contact set at q, the cost, the
  // program's answer (velocity and impulses); its inputs are StepData::q() and u().
  const ContactData& contact() const { return contact_; }
  const QuasiDynamicCost& cost() const { return cost_; }
  const FormulationSolution& solution() const { return solution_; }
  const ProgramWorkspace& workspace() const { return *workspace_; }

 private:
  friend class QuasiDynamicModel;
  QuasiDynamicData(const QuasiDynamicModel* model, ContactData contact,
                   std::unique_ptr<ProgramWorkspace> workspace);

  ContactData contact_;
  QuasiDynamicCost cost_;
  std::unique_ptr<ProgramWorkspace> workspace_;
  FormulationSolution solution_;
  Eigen::VectorXd Pv_;  // P v (n_v), for StepResult::momentum_force
  // At q⁺, for StepResult::max_body_motion (body_motion.h); handed to the next Calc's contact
  // query when that starts at q⁺ (ContactModel::ShareKinematics).
  Kinematics end_kinematics_;
  // CalcDiff's buffers, made by its first call for A and kept: the chain kinematics the data
  // contraction perturbs, and the contraction itself.
  std::unique_ptr<ChainKinematics> chain_kinematics_;
  StepDataDerivativeBuffers derivative_buffers_;  // DifferentiateStepData's, kept
  StepDataContraction contraction_;
  VelocityGradient gradient_;  // ∂v*/∂q, ∂v*/∂u of the last CalcDiff
};

class QuasiDynamicModel final : public StepModel {
 public:
  // The model of `formulation` (its registration's description) stepping `scene` with time
  // step h = time_step [s] and the cost parameters `cost` (its time_step is h), solving
  // `program`; `parameters` are the values it reports. Compiles the scene's geometry (with the
  // program's candidate distance); throws std::invalid_argument naming what is wrong.
  QuasiDynamicModel(ScenePtr scene, FormulationInfo formulation, ParameterBlock parameters,
                    const QuasiDynamicCostParameters& cost,
                    std::unique_ptr<const QuasiDynamicProgram> program);

  const ContactModel& contact_model() const { return contact_; }
  const QuasiDynamicProgram& program() const { return *program_; }
  const QuasiDynamicCostParameters& cost_parameters() const { return cost_parameters_; }
  // K_a (Scene::ActuatedStiffness(), size n_v,a).
  const Eigen::VectorXd& actuated_stiffness() const { return actuated_stiffness_; }

  std::unique_ptr<StepData> CreateData() const override;
  void ClearWarmStart(StepData* data) const override;

  // The step as a StepProblem from what the last Calc left in data.
  StepProblem ProblemOf(const QuasiDynamicData& data) const;

 private:
  // x.q of size n_q (quaternions need not be normalised: the step normalises them), x.v
  // empty, u of size n_q,a: StepModel::Calc checked them.
  void DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data) const override;
  void DoCalcDiff(GradientMode mode, StepData* data) const override;  // derivatives.cc
  std::string ModelName() const override { return "quasi-dynamic"; }
  QuasiDynamicData& DataOf(StepData* data, const char* where) const;

  std::unique_ptr<const QuasiDynamicProgram> program_;
  QuasiDynamicCostParameters cost_parameters_;
  ContactModel contact_;
  Eigen::VectorXd actuated_stiffness_;
  BodyMotionMeter motion_;  // against the contact query's candidate distance
};

}  // namespace quasidyn
