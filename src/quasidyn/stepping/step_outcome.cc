#include "quasidyn/stepping/step_outcome.h"

#include <utility>

namespace quasidyn {

Outcome QueryContacts(const ContactModel& model, const Eigen::VectorXd& q, ContactData* data) {
  if (!model.Compute(q, data))
    return Outcome::Failure("contact query failed: " + data->failure_message());
  const ContactSet& contacts = data->contacts();
  if (const int bad = FirstNonFiniteContact(contacts); bad >= 0) {
    const Scene& scene = model.scene();
    return Outcome::Failure("contact query returned a non-finite value for contact " +
                            std::to_string(bad) + " (" +
                            scene.geometries[contacts[bad].geometry_a].name + " / " +
                            scene.geometries[contacts[bad].geometry_b].name + ")");
  }
  return Outcome::Ok();
}

void TakeSolution(const FormulationSolution& solution, const std::string& formulation, int nv,
                  StepResult* result) {
  result->status = solution.status;
  result->message = solution.message;
  result->solver = solution.solver;
  if (result->ok() && (solution.v.size() != nv || !solution.v.allFinite())) {
    result->status = SolverStatus::kNumericalFailure;
    result->message =
        formulation + ": the solver reported success but returned a non-finite velocity";
  }
}

bool StartDerivatives(GradientMode mode, const StepResult& result, StepDerivatives* out) {
  out->mode = mode;
  out->message.clear();
  out->active_rows = 0;
  // A and B keep their storage when a derivative follows: the caller writes both whole (or
  // empties them, FailDerivatives), so a warm CalcDiff does not allocate them again.
  if (!result.ok() || mode == GradientMode::kNone) {
    out->A.resize(0, 0);
    out->B.resize(0, 0);
  }
  if (!result.ok()) {
    out->status = result.status;
    out->message = "the step failed, so it has no derivative: " + result.message;
    return false;
  }
  out->status = SolverStatus::kSolved;
  return mode != GradientMode::kNone;
}

void FailDerivatives(std::string message, StepDerivatives* out) {
  out->status = SolverStatus::kNumericalFailure;
  out->message = std::move(message);
  out->A.resize(0, 0);
  out->B.resize(0, 0);
}

}  // namespace quasidyn
