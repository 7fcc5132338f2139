#pragma once
// The registration of formulation `log-barrier` (formulations/registry.h;
// docs/formulations.md#log-barrier).

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin LogBarrierFormulation();

}  // namespace quasidyn
