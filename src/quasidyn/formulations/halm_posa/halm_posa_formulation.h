#pragma once
// The registration of formulation `halm-posa` (formulations/registry.h;
// docs/formulations.md#halm-posa).

#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin HalmPosaFormulation();

}  // namespace quasidyn
