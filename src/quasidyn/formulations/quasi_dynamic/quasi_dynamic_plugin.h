#pragma once
// What the five quasi-dynamic formulations (qp, socp, log-barrier, log-barrier-cone, lcp) share
// in their registrations: the cost's parameters (the objects' mass scale), the barriers' κ, the
// family's capabilities, and the factory that puts a program into a QuasiDynamicModel. Each
// formulation's folder registers itself with QuasiDynamicPlugin and its own program.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_program.h"
#include "quasidyn/formulations/registry.h"

namespace quasidyn {

// object_mass_scale s [-] >= 0 (default 1) and unactuated_mass_scale c_u [-] >= 0 (the
// reference simulator's rule for s, object_mass_scale.h), not both.
std::vector<ParameterSpec> ObjectMassScaleParameters();

// κ [1/(N·m)] > 0 of the log barriers (default DefaultKappa(scene), barrier_stand_off.h).
ParameterSpec KappaParameter();

// The cost's parameters from the inputs: h, and s = object_mass_scale, else the reference rule
// for unactuated_mass_scale at h, else 1. Fails at the second key when both are given.
QuasiDynamicCostParameters ResolveCostParameters(const FormulationInputs& inputs);

// κ from the inputs: the given kappa, else DefaultKappa(scene).
double ResolveKappa(const FormulationInputs& inputs);

// The family's capabilities: state q, command q̄_a, planar and 3D scenes, robots, external
// forces, joint limits; `exact` and `smoothed` the formulations whose derivatives its exact and
// log-barrier linearisations take; `no_gradient` empty when the program differentiates itself.
FormulationCapabilities QuasiDynamicCapabilities(std::string exact, std::string smoothed,
                                                 std::string no_gradient = "");

// A quasi-dynamic formulation's registration: `info`, the family's parameters (and κ when
// `barrier`), and a factory that builds `make_program(inputs)` into a QuasiDynamicModel. Its
// block check refuses a block that gives both mass scales.
FormulationPlugin QuasiDynamicPlugin(
    FormulationInfo info, bool barrier,
    std::function<std::unique_ptr<const QuasiDynamicProgram>(const FormulationInputs&)>
        make_program);

}  // namespace quasidyn
