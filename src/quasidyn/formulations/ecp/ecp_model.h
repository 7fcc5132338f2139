#pragma once
// Line and surface contact through an equivalent contact point (Xie & Chakraborty, "Rigid Body
// Dynamic Simulation with Line and Surface Contact", §III–IV): the geometrically implicit
// second-order time step behind the StepModel interface (step_model.h).
//
//   state x = (q, v): per moving object its body origin and unit quaternion (7), and the
//             origin's velocity and the angular velocity, world frame (6) [m/s, rad/s];
//   command u (size n_v,u = 6 per moving object): the generalized impulse applied to the object
//             over the step, (p [N·s], angular impulse about the body origin [N·m·s]), world
//             frame, gravity excluded. ScheduledCommand turns the scene into it: h times the
//             object's constant `external_force` plus its `impulses` due in the step (timed, or
//             triggered by the object's velocity at the step's start; docs/scene-format.md).
//
// One step: per pair of shapes (dynamics/ecp/ecp_system.h) whose bounding balls may meet within
// the step (below), the ECP a1, a2, the multipliers l, the impulses p_n, p_t, p_o, p_r and σ,
// and the bodies' velocities ν⁺ solve the mixed NCP of dynamics/ecp/ecp_step_function.h by our
// semismooth Newton method (solvers/mixed_ncp_newton.h), warm-started from the previous step;
// then c⁺ = c + h v⁺ and R⁺ = exp([hω⁺]×) R, the poses at which that NCP was solved, so no pair
// in the NCP penetrates at the end of the step beyond the solver's tolerance.
//
// Pairs in the step: a pair enters the NCP when the gap between its shapes' bounding balls (for a
// half-space: the ball's height above it) at the start is at most ε + 2h(S_F + S_G), ε the scene's
// contact_tolerance [m] and S_b = |v_b| + h|g| + |p_b|/m_b + ρ_b(|ω_b| + |p_τ,b|/λ_min(I_b)) a
// bound on the speed of body b's points over the step (ρ_b its shape's bounding radius about the
// com). Others keep their unknowns and exert nothing (the factor 2 covers the contact impulses of
// the step, which the bound does not know).
//
// Robots are not part of this formulation (the paper's examples drive objects by applied
// impulses): a scene with a robot is refused (std::invalid_argument), as are planar scenes,
// capsules and objects of several bodies (ecp_system.h). A step whose Newton iteration fails keeps
// the state and says which pair holds the largest residual and how large it is.

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/formulations/ecp/ecp_step_function.h"
#include "quasidyn/formulations/ecp/ecp_system.h"
#include "quasidyn/geometry/geometry_model.h"
#include "quasidyn/geometry/support_3d.h"
#include "quasidyn/solvers/mixed_ncp_newton.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

class EcpModel;

class EcpData final : public StepData {
 public:
  const EcpStepFunction& function() const { return function_; }
  const MixedNcpResult& solution() const { return solver_.result(); }
  // Per pair of the system: whether it was in the last step's NCP.
  const std::vector<unsigned char>& active() const { return function_.active(); }
  // Solves started again after the warm start failed, in the last Calc (ecp_model_start.cc).
  int restarts() const { return restarts_; }

 private:
  friend class EcpModel;
  EcpData(const EcpModel* model, std::shared_ptr<const EcpSystem> system);

  EcpStepFunction function_;
  MixedNcpSolver solver_;
  Eigen::VectorXd z0_, z_last_;              // start of the solve; the last solution (warm start)
  std::vector<unsigned char> warm_;          // per pair: z_last_ holds its unknowns
  std::vector<double> gap_start_;            // per pair: its distance at the start of the step [m]
  std::vector<double> speed_;                // per body: the bound S_b on its points' speeds [m/s]
  std::vector<Eigen::Vector3d> directions_;  // per pair: from F towards G
  std::vector<Eigen::Isometry3d> X_WB_;      // every body's pose at the start of the step
  Eigen::VectorXd z_restart_;
  PointList candidates_;
  int restarts_ = 0;
};

class EcpModel final : public StepModel {
 public:
  // Throws std::invalid_argument for a scene the formulation cannot express (ecp_system.h).
  // `formulation` its registration's description, `reported` the values it reports;
  // `solver`: the Newton solver's settings (default: tolerance 1e-9 on the scaled residual,
  // inaccurate 1e-6, 100 iterations); the model sets its eliminated_leading to the 6 velocities
  // per moving body (their Schur complement, schur_lu.h).
  EcpModel(ScenePtr scene, FormulationInfo formulation, ParameterBlock reported,
           const EcpParameters& parameters,
           const MixedNcpSettings& solver = DefaultSolverSettings());
  // The same with the registration's description (EcpFormulationInfo) and `parameters` as the
  // reported values.
  EcpModel(ScenePtr scene, const EcpParameters& parameters,
           const MixedNcpSettings& solver = DefaultSolverSettings());
  static MixedNcpSettings DefaultSolverSettings();

  const EcpSystem& system() const { return *system_; }
  const MixedNcpSettings& solver_settings() const { return solver_settings_; }
  // Every body's pose at q0: the fixed bodies' poses for the whole run.
  const std::vector<Eigen::Isometry3d>& fixed_poses() const { return fixed_X_WB_; }

  std::unique_ptr<StepData> CreateData() const override;
  void ScheduledCommandInto(double t, const State& x, Eigen::VectorXd* u) const override;
  void ClearWarmStart(StepData* data) const override;

 private:
  // No data->external_force (the applied forces are the command's), no zero quaternion.
  void DoCheckStep(const State& x, const Eigen::VectorXd& u, const StepData& data) const override;
  void DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data) const override;
  void DoCalcDiff(GradientMode mode, StepData* data) const override;
  EcpData& DataOf(StepData* data, const char* where) const;
  // The bodies' start states and applied impulses from (q, v, u).
  void LoadBodies(EcpData* data) const;
  // Which pairs enter the NCP, their seeds and starting values (z0_).
  void PrepareStart(EcpData* data) const;
  // The gap between pair k's bounding balls (a half-space: the ball's height above it) [m] and
  // the unit direction from F towards G.
  double BallGap(const EcpData& data, int k, Eigen::Vector3d* direction) const;
  // X_WS of a shape at the start pose, or at the end pose of the velocities in z.
  Eigen::Isometry3d ShapePose(const EcpData& data, int shape, bool end,
                              const Eigen::VectorXd& z) const;
  // Pair k's unknowns in *z started with a1 as F's point, G's nearest, the inequalities active
  // there (at the start pose, or the end pose of z's velocities), no friction.
  void StartPairAt(EcpData* data, int k, const Eigen::Vector3d& a1,
                   const Eigen::Vector3d& direction, bool end, Eigen::VectorXd* z) const;
  // After a failed solve: solves from other starts (ecp_model_start.cc); true on success.
  bool Restart(EcpData* data) const;

  std::shared_ptr<const EcpSystem> system_;
  MixedNcpSettings solver_settings_;
  std::vector<double> body_radius_;  // per body: the largest distance of its shapes from its com
  GeometryModel geometry_;           // the start's exact distances (closed forms, GJK/EPA)
  std::vector<Eigen::Isometry3d> fixed_X_WB_;  // every body's pose at q0 (the fixed ones')
};

}  // namespace quasidyn
