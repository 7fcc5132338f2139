#pragma once
// A step model as the plain function q⁺ = f(q, u) of gradients/finite_difference.h, for the
// finite-difference reference of the derivatives.

#include <memory>

#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

// Calc with a data object of its own (shared by the copies of the function; not for use from
// several threads at once). A failed step gives q⁺ = NaN (finite_difference.h). The warm start
// is cleared before each step, so f is a function of (q, u) alone.
StepFunction StepFunctionOf(std::shared_ptr<const StepModel> model);

}  // namespace quasidyn
