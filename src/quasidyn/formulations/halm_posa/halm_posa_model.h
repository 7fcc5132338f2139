#pragma once
// Planar quasi-static pushing, grasping and jamming with finite velocity feedback (Halm & Posa
// 2018) behind the StepModel interface (step_model.h): state x = q (v empty), command u = the
// robots' commanded velocity q̇_a,cmd (size n_q,a) [m/s, rad/s].
//
//   contacts at q⁻ (contact/contact_model.h) → W = blockdiag(A_o(θ), c B) → the LCP of
//   eqs. (37)–(38) (dynamics/halm_posa_lcp.h), solved by Lemke's method, warm-started from the
//   previous step's basis → q⁺ = q⁻ + d₀ + W Jᵀ z (eqs. (32)–(33)).
//
// The scene: planar (the x-y plane is the support surface seen from above), no in-plane gravity,
// objects on planar joints, each with its limit surface (ModelInstance::limit_surface or the
// uniform-pressure default, limit_surface.h); robots of any revolute / prismatic chains
// (their stiffness is not used). Parameters (halm_posa_keys.h): c >= 0, B ≻ 0, tracking_gain.
// The model is built only for such scenes: std::invalid_argument naming what is wrong.
//
// Commands from a schedule (ScheduledCommand): the scene's commanded positions q̄_a(t) become the
// commanded velocity of the step from t_{k−1} = t_k − h to t_k,
//
//   u_k = (q̄_a(t_k) − q̄_a(t_{k−1}))/h + k_p (q̄_a(t_{k−1}) − q_a,k−1),
//
// the schedule's piecewise-constant velocity plus a proportional correction of the tracking
// error at the start of the step, k_p = the formulation's tracking_gain [1/s] >= 0.
// k_p = 0 (default) is pure velocity control as in the paper's pushes: a robot that meets no
// resistance (and starts at q̄_a(0)) follows q̄_a exactly at the steps' ends, one that is
// resisted lags behind by c B Jᵀ_m Λ per step and does not catch up. k_p > 0 is the peg-in-hole
// command of the authors' MATLAB library (polygonalPegInHole.m of
// github.com/mshalm/quasistaticGrasping, the paper's footnote 1), u = k_p (q_des − q_m) with k_p =
// 5 s⁻¹ (the paper's §6.2 does not state it), with the schedule's velocity fed forward: a robot
// held back by contact pushes with the force k_p (c B)⁻¹ e for a tracking error e (k_p = 1/h
// reaches q̄_a(t_k) in one unresisted step).
//
// A step that has no solution (Lemke's method ends on a ray, e.g. a squeeze under perfect
// velocity control c = 0) returns that status with a message naming the contact the command
// drives in deepest, and keeps q. CalcDiff: gradients/halm_posa_gradient.h.

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/formulations/halm_posa/halm_posa_lcp.h"
#include "quasidyn/formulations/halm_posa/limit_surface.h"
#include "quasidyn/stepping/body_motion.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class HalmPosaModel;

class HalmPosaData final : public StepData {
 public:
  const ContactData& contact() const { return contact_; }
  const HalmPosaLcp& lcp() const { return lcp_; }
  // The LCP's solution in rate form (F_N, F_T [N], γ/h [m/s]: dynamics/halm_posa_lcp.h).
  const Eigen::VectorXd& z() const { return z_; }
  // Whether the last step's LCP was solved by the warm start (no Lemke pivot).
  bool warm_started() const { return warm_started_; }

 private:
  friend class HalmPosaModel;
  HalmPosaData(const HalmPosaModel* model, ContactData contact);

  ContactData contact_;
  Eigen::MatrixXd W_;
  HalmPosaLcp lcp_;
  HalmPosaLcpSolver solver_;
  Eigen::VectorXd z_, displacement_;
  FormulationSolution solution_;
  // StepProblem's cost field: only its joint-limit rows are used (the LCP's last rows).
  QuasiDynamicCost no_cost_;
  Kinematics end_kinematics_;  // at q⁺, for StepResult::max_body_motion (body_motion.h)
  bool warm_started_ = false;
};

// The model's parameters (halm_posa_keys.h), resolved: c, the n_q,a × n_q,a matrix B, k_p.
struct HalmPosaParameters {
  double feedback_scale = 0.01;    // c [-] >= 0
  Eigen::MatrixXd feedback_gains;  // B ≻ 0 (n_q,a × n_q,a)
  double tracking_gain = 0.0;      // k_p [1/s] >= 0
};

class HalmPosaModel final : public StepModel {
 public:
  // Throws std::invalid_argument naming what the scene lacks for the model (planar, no in-plane
  // gravity, objects on planar joints, no external force).
  HalmPosaModel(ScenePtr scene, double time_step, FormulationInfo formulation,
                ParameterBlock reported, const HalmPosaParameters& parameters);

  const ContactModel& contact_model() const { return contact_; }
  const std::vector<ObjectLimitSurface>& limit_surfaces() const { return surfaces_; }
  const Eigen::MatrixXd& scaled_gains() const { return scaled_gains_; }  // c B (n_q,a²)

  std::unique_ptr<StepData> CreateData() const override;
  void ClearWarmStart(StepData* data) const override;
  // (q̄_a(t) − q̄_a(t − h))/h + k_p (q̄_a(t − h) − q_a) (above).
  void ScheduledCommandInto(double t, const State& x, Eigen::VectorXd* u) const override;

 private:
  // x.q of size n_q, x.v empty, u the commanded velocity (size n_q,a), no external force:
  // StepModel::Calc checked them.
  void DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data) const override;
  void DoCalcDiff(GradientMode mode, StepData* data) const override;
  HalmPosaData& DataOf(StepData* data, const char* where) const;
  StepProblem ProblemOf(const HalmPosaData& data) const;

  ContactModel contact_;
  std::vector<ObjectLimitSurface> surfaces_;
  HalmPosaParameters parameters_;
  Eigen::MatrixXd scaled_gains_;
  BodyMotionMeter motion_;  // against the scene's contact_tolerance
};

}  // namespace quasidyn
