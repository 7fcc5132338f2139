#pragma once
// What the second-order formulations (stewart-trinkle, anitescu, anitescu-cone) share in their
// registrations: the family's capabilities (state (q, v), the robots' positions commanded) and
// the factory that puts a program into a SecondOrderModel. They take no parameters: the bodies'
// inertia and the robots' stiffness and damping are the scene's.

#include <functional>
#include <memory>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/formulations/second_order/second_order_program.h"

namespace quasidyn {

FormulationPlugin SecondOrderPlugin(
    FormulationInfo info, std::function<std::unique_ptr<const SecondOrderProgram>()> make_program);

// The family's capabilities, its exact linearisation its own derivative.
FormulationCapabilities SecondOrderCapabilities(std::string name);

}  // namespace quasidyn
