#pragma once
// The registration of formulation `socp` (formulations/registry.h; docs/formulations.md#socp).

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin SocpFormulation();

}  // namespace quasidyn
