#include "quasidyn/formulations/stewart_trinkle/stewart_trinkle_formulation.h"

#include "quasidyn/formulations/second_order/second_order_plugin.h"
#include "quasidyn/formulations/stewart_trinkle/stewart_trinkle_program.h"

namespace quasidyn {

FormulationPlugin StewartTrinkleFormulation() {
  return SecondOrderPlugin(
      {"stewart-trinkle",
       "second-order LCP on the friction pyramid (Stewart & Trinkle 1996; Anitescu & Potra 1997)",
       "docs/formulations.md#stewart-trinkle", SecondOrderCapabilities("stewart-trinkle")},
      [] { return std::make_unique<StewartTrinkleProgram>(); });
}

}  // namespace quasidyn
