// The linearisation of one step, A = ∂q⁺/∂q and B = ∂q⁺/∂u, in every gradient mode (none,
// B only, A and B; exact and log-barrier smoothed), and batch evaluation: issue 4.
//
// Not bound yet: the C++ layer src/quasidyn/gradients/ is being written. Its bindings go here
// (planned, docs/python.md "Gradients"):
//   Stepper.linearize(q, u, mode="a_and_b", method="exact") -> Linearization with q_next,
//       A (n_q × n_q), B (n_q × n_q,a) as numpy arrays, status, message
//   quasidyn.batch_step(stepper, Q (M × n_q), U (M × n_q,a), mode=...) -> stacked results,
//       the loop in C++ without the GIL.

#include "bindings.h"

namespace quasidyn::python {

void BindGradients(pybind11::module_& /*m*/) {}

}  // namespace quasidyn::python
