#pragma once
// The pieces the step models' hooks share (StepModel::DoCalc and DoCalcDiff: the models of
// formulations/quasi_dynamic/, second_order/, halm_posa/, ecp/): the contact query with its
// failures as messages, the formulation's answer taken into the result, the start of a CalcDiff
// (StepModel::CalcDiff's) and a derivative's failure.

#include <Eigen/Core>
#include <string>

#include "quasidyn/common/outcome.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// Runs model.Compute(q) into *data; a failure (common/outcome.h) when the query fails
// ("contact query failed: …") or returns a non-finite field ("contact query returned a
// non-finite value for contact i (shape_a / shape_b)").
Outcome QueryContacts(const ContactModel& model, const Eigen::VectorXd& q, ContactData* data);

// The formulation's status, message and statistics into *result; a success whose velocity is
// not of size n_v or not finite becomes kNumericalFailure, "<formulation>: the solver reported
// success but returned a non-finite velocity".
void TakeSolution(const FormulationSolution& solution, const std::string& formulation, int nv,
                  StepResult* result);

// Starts *out for a CalcDiff in `mode` of the step whose result is `result`: the mode, an empty
// message, no active rows. Returns false when nothing is left to compute, with A and B empty: a
// failed step (its status, "the step failed, so it has no derivative: …") or mode kNone
// (solved); true (status solved) otherwise, A and B left with their storage for the caller to
// overwrite whole (or to empty, FailDerivatives).
bool StartDerivatives(GradientMode mode, const StepResult& result, StepDerivatives* out);

// A derivative that failed numerically (a contact that disappears under a finite difference, a
// singular system): kNumericalFailure, `message`, and empty A and B.
void FailDerivatives(std::string message, StepDerivatives* out);

}  // namespace quasidyn
