#pragma once
// Shared by the gradients tests (header only, not a library): example scenes at chosen
// steps of their scheduled rollouts, an independent step function with tight solver
// tolerances for the finite-difference reference, and a relative matrix comparison.

#include <Eigen/Core>
#include <algorithm>
#include <stdexcept>
#include <string>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/log_barrier_pyramid.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/quasi_dynamic_qp.h"
#include "quasidyn/dynamics/quasi_dynamic_stepper.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/io/scene_loader.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn::testing {

inline const std::string kSourceDir = QUASIDYN_SOURCE_DIR;

inline Scene LoadExample(const std::string& name) {
  return LoadScene(kSourceDir + "/examples/" + name + "/scene.yaml");
}

// The configuration after `steps` QP steps of the scene's schedule (q = q0; u_k =
// CommandAt((k+1)h)), and the command of the next step.
struct State {
  Eigen::VectorXd q, u;
};
inline State StateAfter(const Scene& scene, const FormulationSettings& settings, int steps) {
  QuasiDynamicStepper stepper(scene, settings);
  Eigen::VectorXd q = scene.q0;
  const double h = settings.time_step;
  for (int k = 0; k < steps; ++k) {
    const StepResult r = stepper.Step(q, scene.CommandAt((k + 1) * h));
    if (!r.ok()) throw std::runtime_error("rollout failed: " + r.message);
    q = r.q_next;
  }
  return {q, scene.CommandAt((steps + 1) * h)};
}

// QP tolerances for the reference: 1e-12 (vs 1e-9 in the stepper), so that the solver's
// error τ ≈ 1e-12 divided by the FD step δ ≈ 6e-6 stays ≈ 2e-7, below the test tolerances.
constexpr double kReferenceSolverTolerance = 1e-12;

// q⁺ of the pyramid QP or the barrier pyramid, through the public dynamics API (contacts →
// cost → SolvePyramidQp / SolvePyramidLogBarrier → IntegrateConfiguration), independent of
// gradients/.
class ReferenceStep {
 public:
  ReferenceStep(const Scene& scene, const FormulationSettings& settings)
      : scene_(scene), settings_(settings), engine_(scene) {}
  Eigen::VectorXd operator()(const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
    const ContactSet& contacts = engine_.Compute(q);
    const QuasiDynamicCost cost = BuildQuasiDynamicCost(engine_.kinematics(), u, settings_);
    const StepProblem problem{scene_, contacts, cost, settings_};
    FormulationSolution solution;
    if (settings_.type == FormulationType::kLogBarrierPyramid) {
      LogBarrierSolver solver;
      solution = SolvePyramidLogBarrier(problem, &solver);
    } else {
      QpSettings qp = ContactQpSettings();
      qp.absolute_tolerance = kReferenceSolverTolerance;
      qp.relative_tolerance = kReferenceSolverTolerance;
      qp.max_iterations = 200;
      QpSolver solver;
      solution = SolvePyramidQp(problem, &solver, qp);
    }
    if (solution.status != SolverStatus::kSolved)
      throw std::runtime_error("reference step not solved: " + solution.message);
    return IntegrateConfiguration(scene_, q, solution.v, settings_.time_step);
  }
  StepFunction AsFunction() {
    return [this](const Eigen::VectorXd& q, const Eigen::VectorXd& u) { return (*this)(q, u); };
  }

 private:
  const Scene& scene_;
  FormulationSettings settings_;
  ContactEngine engine_;
};

// max |a − b| / max(1, max |b|).
inline double RelativeError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return 1e300;
  if (a.size() == 0) return 0.0;
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

}  // namespace quasidyn::testing
