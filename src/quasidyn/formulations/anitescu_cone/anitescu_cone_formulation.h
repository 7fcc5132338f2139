#pragma once
// The registration of formulation `anitescu-cone` (formulations/registry.h;
// docs/formulations.md#anitescu-cone).

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin AnitescuConeFormulation();

}  // namespace quasidyn
