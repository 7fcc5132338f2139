#include "quasidyn/formulations/qp/qp_formulation.h"

#include "quasidyn/formulations/qp/qp_program.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_plugin.h"

namespace quasidyn {

FormulationPlugin QpFormulation() {
  return QuasiDynamicPlugin(
      {"qp", "pyramid QP (Pang & Tedrake 2021, eq. 10)", "docs/formulations.md#qp",
       QuasiDynamicCapabilities("qp", "log-barrier")},
      /*barrier=*/false, [](const FormulationInputs&) { return std::make_unique<QpProgram>(); });
}

}  // namespace quasidyn
