#include "quasidyn/formulations/socp/socp_formulation.h"

#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_plugin.h"
#include "quasidyn/formulations/socp/socp_program.h"

namespace quasidyn {

FormulationPlugin SocpFormulation() {
  return QuasiDynamicPlugin(
      {"socp", "exact friction cone SOCP (Pang, Suh, Yang & Tedrake 2023, eq. 27)",
       "docs/formulations.md#socp", QuasiDynamicCapabilities("socp", "log-barrier-cone")},
      /*barrier=*/false, [](const FormulationInputs&) { return std::make_unique<SocpProgram>(); });
}

}  // namespace quasidyn
