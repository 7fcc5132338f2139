#pragma once
// The second-order (velocity-level) time-stepping models behind the StepModel interface
// (step_model.h): state x = (q, v), command u = q̄_a (the impedance robots' commanded
// positions), the notes' eqs. (1)–(5) (../shared/papers/2d-frictional-contact-model-and-mpc-
// notes.txt; Stewart & Trinkle 1996; Anitescu & Potra 1997) for every scene the format
// expresses, planar and 3D, floating bodies included:
//
//   contacts at q (contact/contact_model.h)
//   → P = M̂ = M(q) + blockdiag(0, h D_a + h² K_a),
//     τ_h = M(q) v + h (τ_g,u + τ_ext − C(q, v) v) + h K_a (u − q_a) (dynamics/second_order_cost.h)
//   → the program (second_order_program.h), each in its formulation's folder:
//     stewart-trinkle: the LCP  φ/h + J_n v⁺ ≥ 0 ⊥ c_n ≥ 0 with maximum dissipation on the
//                      pyramid (programs/quasistatic_lcp.h, Lemke, warm-started), or
//     anitescu:        its convex relaxation, the pyramid QP φ/h + (J_n + μ d_j) v⁺ ≥ 0
//                      (programs/pyramid_qp.h, interior point), or
//     anitescu-cone:   the relaxation on the exact cone, the SOCP
//                      (φ/h + J_n v⁺, μ J_t v⁺) ∈ SOC (programs/friction_cone_socp.h, interior
//                      point)
//   → v⁺, q⁺ = q ⊕ h v⁺ (floating bodies: exponential map, quaternion normalised).
//
// The programs are those of the quasi-dynamic models with this cost in place of theirs.
// Impacts are inelastic (the normal complementarity is on the velocity at the end of the step).
// The robots are impedances K (Joint::stiffness) with damping D (Joint::damping, default
// critical, second_order_cost.h), both taken implicitly in v⁺, so large gains stay stable; they
// are gravity-compensated; the objects feel gravity and their external force.
//
// StepResult: next = (q⁺, v⁺), velocity = v⁺, the contacts with their impulses and forces,
// momentum_force = the objects' inertial force (M(v⁺ − v)/h + C v)_u [N, N·m] (what the contact
// forces balance beyond gravity and τ_ext). A failed step keeps x = (q, v) and names the
// contact.
//
// CalcDiff (second_order_derivatives.cc): A = ∂(q⁺, v⁺)/∂(q, v) ((n_q + n_v) square, the q
// columns on raw coordinates with the quaternion normalisation as the quasi-dynamic models'
// A) and B = ∂(q⁺, v⁺)/∂u ((n_q + n_v) × n_q,a), by implicit differentiation of the program
// the last Calc solved (SecondOrderProgram::Differentiate: programs/qp_gradient.h for anitescu,
// programs/socp_gradient.h for anitescu-cone, stewart_trinkle/lcp_step_gradient.h for
// stewart-trinkle), with the data derivatives of
// contact_data_derivative.h and second_order_data_derivative.h.

#include <Eigen/Core>
#include <memory>
#include <string>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/second_order_cost.h"
#include "quasidyn/formulations/second_order/second_order_data_derivative.h"
#include "quasidyn/formulations/second_order/second_order_program.h"
#include "quasidyn/gradients/chain_kinematics.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/stepping/body_motion.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class SecondOrderModel;

class SecondOrderData final : public StepData {
 public:
  // What the last Calc computed: the contact set at q, the cost, the program's answer (the
  // step's inputs are StepData::q(), v() and u()).
  const ContactData& contact() const { return contact_; }
  const QuasiDynamicCost& cost() const { return cost_; }
  const SecondOrderCostWorkspace& cost_workspace() const { return cost_workspace_; }
  const FormulationSolution& solution() const { return solution_; }
  const ProgramWorkspace& workspace() const { return *workspace_; }

 private:
  friend class SecondOrderModel;
  SecondOrderData(const SecondOrderModel* model, ContactData contact,
                  std::unique_ptr<ProgramWorkspace> workspace);

  ContactData contact_;
  QuasiDynamicCost cost_;
  SecondOrderCostWorkspace cost_workspace_;
  std::unique_ptr<ProgramWorkspace> workspace_;
  FormulationSolution solution_;
  Eigen::VectorXd velocity_change_, inertial_force_;  // v⁺ − v, M (v⁺ − v)
  Kinematics end_kinematics_;  // at q⁺, for StepResult::max_body_motion (body_motion.h)
  // CalcDiff's buffers, made by its first call and kept.
  std::unique_ptr<ChainKinematics> chain_kinematics_;
  StepDataDerivativeBuffers derivative_buffers_;  // DifferentiateStepData's, kept
  std::unique_ptr<Kinematics> kinematics_;
  StepDataContraction contraction_;
  SecondOrderDataDerivative smooth_;
};

class SecondOrderModel final : public StepModel {
 public:
  // The model of `formulation` (its registration's description) stepping `scene` with time
  // step h = time_step [s], solving `program`. Compiles the scene's geometry and computes D_a at
  // q0; throws std::invalid_argument naming what is wrong (h, geometry, an object whose mass
  // matrix is not positive definite).
  SecondOrderModel(ScenePtr scene, double time_step, FormulationInfo formulation,
                   std::unique_ptr<const SecondOrderProgram> program);

  const ContactModel& contact_model() const { return contact_; }
  const SecondOrderProgram& program() const { return *program_; }
  const Eigen::VectorXd& actuated_stiffness() const { return actuated_stiffness_; }  // K_a
  const Eigen::VectorXd& actuated_damping() const { return actuated_damping_; }      // D_a

  std::unique_ptr<StepData> CreateData() const override;
  void ClearWarmStart(StepData* data) const override;

  // The step as a StepProblem from what the last Calc left in data.
  StepProblem ProblemOf(const SecondOrderData& data) const;

 private:
  // x.q of size n_q (quaternions need not be normalised), x.v of size n_v, u of size n_q,a:
  // StepModel::Calc checked them.
  void DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data) const override;
  void DoCalcDiff(GradientMode mode, StepData* data) const override;  // derivatives.cc
  std::string ModelName() const override { return "second-order"; }
  SecondOrderData& DataOf(StepData* data, const char* where) const;

  ContactModel contact_;
  std::unique_ptr<const SecondOrderProgram> program_;
  Eigen::VectorXd actuated_stiffness_, actuated_damping_;
  BodyMotionMeter motion_;  // against the scene's contact_tolerance
};

}  // namespace quasidyn
