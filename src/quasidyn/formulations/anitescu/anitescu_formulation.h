#pragma once
// The registration of formulation `anitescu` (formulations/registry.h;
// docs/formulations.md#anitescu).

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin AnitescuFormulation();

}  // namespace quasidyn
