#include "quasidyn/formulations/log_barrier/log_barrier_formulation.h"

#include "quasidyn/formulations/log_barrier/log_barrier_program.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_plugin.h"

namespace quasidyn {

FormulationPlugin LogBarrierFormulation() {
  return QuasiDynamicPlugin(
      {"log-barrier", "log-barrier pyramid (Pang, Suh, Yang & Tedrake 2023)",
       "docs/formulations.md#log-barrier", QuasiDynamicCapabilities("qp", "log-barrier")},
      /*barrier=*/true, [](const FormulationInputs& inputs) {
        return std::make_unique<PyramidLogBarrierProgram>(ResolveKappa(inputs));
      });
}

}  // namespace quasidyn
