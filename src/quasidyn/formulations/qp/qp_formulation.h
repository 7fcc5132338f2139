#pragma once
// The registration of formulation `qp` (formulations/registry.h; docs/formulations.md#qp).

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin QpFormulation();

}  // namespace quasidyn
