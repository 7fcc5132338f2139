#pragma once
// Shared by the benchmark programs (header-only, benchmarks only): the arm + 10 cubes scene
// of Pang & Tedrake 2021, Fig. 1, advanced with the QP stepper to t ≈ 2 s, while the gripper
// holds the red cube (≈ 52 contacts, 69 velocities), and the convex programs of one step at
// that state, built here from the contact set so the solver benchmarks do not depend on the
// dynamics layer's builders of the other formulations.

#include <Eigen/Core>
#include <stdexcept>
#include <string>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/quasi_dynamic_stepper.h"
#include "quasidyn/io/scene_loader.h"
#include "quasidyn/solvers/lemke.h"
#include "quasidyn/solvers/log_barrier_newton.h"
#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/socp.h"

namespace quasidyn::bench {

inline const Scene& ArmCubesScene() {
  static const Scene scene = LoadScene(QUASIDYN_SOURCE_DIR "/examples/arm_cubes/scene.yaml");
  return scene;
}

// The configuration after `steps` QP steps from q0 and the command of the next step.
struct SceneState {
  Eigen::VectorXd q, u;
};

// Example loop of the brief: u = CommandAt((k+1)·h), q = Step(q, u).q_next. Throws when a
// step fails, so a benchmark never measures a broken state.
inline SceneState AdvanceWithQp(const Scene& scene, int steps) {
  FormulationSettings settings = SettingsFromScene(scene);
  settings.type = FormulationType::kQp;
  QuasiDynamicStepper stepper(scene, settings);
  Eigen::VectorXd q = scene.q0;
  const double h = settings.time_step;
  for (int k = 0; k < steps; ++k) {
    const StepResult r = stepper.Step(q, scene.CommandAt((k + 1) * h));
    if (!r.ok()) throw std::runtime_error("QP step " + std::to_string(k) + ": " + r.message);
    q = r.q_next;
  }
  return {q, scene.CommandAt((steps + 1) * h)};
}

// The grasp state: t = 2 s (200 steps of h = 0.01 s), computed once.
inline const SceneState& GraspState() {
  static const SceneState state = [] {
    const Scene& scene = ArmCubesScene();
    return AdvanceWithQp(scene, static_cast<int>(2.0 / scene.time_step + 0.5));
  }();
  return state;
}

// Pyramid QP of Pang & Tedrake 2021, eq. (10): rows (J_n,i + μ_i J_d,ij) v >= −φ_i/h.
inline QpProblem PyramidQp(const ContactSet& contacts, const QuasiDynamicCost& cost, double h) {
  int rows = 0;
  for (const Contact& c : contacts.contacts) rows += static_cast<int>(c.J_d.rows());
  QpProblem qp{cost.P, -cost.tau_h, Eigen::MatrixXd(rows, contacts.nv), Eigen::VectorXd(rows)};
  int row = 0;
  for (const Contact& c : contacts.contacts) {
    for (int j = 0; j < c.J_d.rows(); ++j, ++row) {
      qp.G.row(row) = c.J_n + c.friction * c.J_d.row(j);
      qp.h[row] = -c.phi / h;
    }
  }
  return qp;
}

// Friction-cone constraint of contact c (Pang 2022, SOCP time step): the velocity lies in
// the dual of the friction cone, μ‖J_t v‖ <= J_n v + φ/h, i.e. [J_n; μ J_t] v + [φ/h; 0] ∈ K.
inline SecondOrderConeConstraint FrictionConeConstraint(const Contact& c, double h) {
  const Eigen::Index nt = c.J_t.rows();
  SecondOrderConeConstraint cone{Eigen::MatrixXd(1 + nt, c.J_n.size()),
                                 Eigen::VectorXd::Zero(1 + nt)};
  cone.A.row(0) = c.J_n;
  cone.A.bottomRows(nt) = c.friction * c.J_t;
  cone.b[0] = c.phi / h;
  return cone;
}

inline SocpProblem ConeSocp(const ContactSet& contacts, const QuasiDynamicCost& cost, double h) {
  SocpProblem socp;
  socp.Q = cost.P;
  socp.c = -cost.tau_h;
  for (const Contact& c : contacts.contacts) socp.cones.push_back(FrictionConeConstraint(c, h));
  return socp;
}

// Log barrier over the pyramid rows (barrier arguments G v + h = eq. (10b) rows).
inline LogBarrierProblem PyramidLogBarrier(const QpProblem& qp, double kappa) {
  LogBarrierProblem p;
  p.Q = qp.Q;
  p.b = qp.c;
  p.G = qp.G;
  p.h = -qp.h;
  p.kappa = kappa;
  return p;
}

inline LogBarrierProblem ConeLogBarrier(const SocpProblem& socp, double kappa) {
  LogBarrierProblem p;
  p.Q = socp.Q;
  p.b = socp.c;
  p.G.resize(0, socp.Q.rows());
  p.h.resize(0);
  p.cones = socp.cones;
  p.kappa = kappa;
  return p;
}

// The LCP of the QP's KKT conditions with v eliminated (Pang & Tedrake 2021, eq. (9) with
// the impedance cost of eq. (10a)): Qv + c = Gᵀβ, w = Gv − h >= 0, β >= 0, wᵀβ = 0 give
// v = Q⁻¹(Gᵀβ − c) and w = M β + q with M = G Q⁻¹ Gᵀ, q = −G Q⁻¹ c − h. Requires Q ≻ 0.
inline LcpProblem EliminatedLcp(const QpProblem& qp) {
  const Eigen::LLT<Eigen::MatrixXd> factor(qp.Q);
  if (factor.info() != Eigen::Success) throw std::runtime_error("EliminatedLcp: Q is not PD");
  const Eigen::MatrixXd Q_inverse_Gt = factor.solve(qp.G.transpose());
  LcpProblem lcp{qp.G * Q_inverse_Gt, -qp.G * factor.solve(qp.c) - qp.h};
  lcp.M = 0.5 * (lcp.M + lcp.M.transpose()).eval();  // symmetric up to rounding
  return lcp;
}

}  // namespace quasidyn::bench
