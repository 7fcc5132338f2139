#include "quasidyn/formulations/anitescu_cone/anitescu_cone_formulation.h"

#include "quasidyn/formulations/anitescu_cone/anitescu_cone_program.h"
#include "quasidyn/formulations/second_order/second_order_plugin.h"

namespace quasidyn {

FormulationPlugin AnitescuConeFormulation() {
  return SecondOrderPlugin(
      {"anitescu-cone",
       "second-order convex relaxation on the exact friction cone, an SOCP "
       "(Anitescu 2006)",
       "docs/formulations.md#anitescu-cone", SecondOrderCapabilities("anitescu-cone")},
      [] { return std::make_unique<AnitescuConeProgram>(); });
}

}  // namespace quasidyn
