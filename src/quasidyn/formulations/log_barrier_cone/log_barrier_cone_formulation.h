#pragma once
// The registration of formulation `log-barrier-cone` (formulations/registry.h;
// docs/formulations.md#log-barrier-cone).

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin LogBarrierConeFormulation();

}  // namespace quasidyn
