#pragma once
// The registration of formulation `lcp` (formulations/registry.h; docs/formulations.md#lcp).

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin LcpFormulation();

}  // namespace quasidyn
