#pragma once
// The registration of formulation `ecp` (formulations/registry.h; docs/formulations.md#ecp,
// docs/ecp.md).

#include "quasidyn/formulations/ecp/ecp_system.h"
#include "quasidyn/formulations/registry.h"

namespace quasidyn {

FormulationPlugin EcpFormulation();

// Its description and capabilities (the plugin's info).
FormulationInfo EcpFormulationInfo();

// The values an ecp model reports (StepModel::parameters()): e_t, e_o, e_r.
ParameterBlock ReportedEcpParameters(const EcpParameters& parameters);

}  // namespace quasidyn
