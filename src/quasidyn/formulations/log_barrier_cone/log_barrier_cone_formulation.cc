#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone_formulation.h"

#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_plugin.h"

namespace quasidyn {

FormulationPlugin LogBarrierConeFormulation() {
  return QuasiDynamicPlugin(
      {"log-barrier-cone", "log-barrier cone (Pang, Suh, Yang & Tedrake 2023, eq. 34)",
       "docs/formulations.md#log-barrier-cone",
       QuasiDynamicCapabilities("socp", "log-barrier-cone")},
      /*barrier=*/true, [](const FormulationInputs& inputs) {
        return std::make_unique<ConeLogBarrierProgram>(ResolveKappa(inputs));
      });
}

}  // namespace quasidyn
