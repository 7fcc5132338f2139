#pragma once
// The registration of formulation `stewart-trinkle` (formulations/registry.h;
// docs/formulations.md#stewart-trinkle).

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin StewartTrinkleFormulation();

}  // namespace quasidyn
