#include "quasidyn/formulations/anitescu/anitescu_formulation.h"

#include "quasidyn/formulations/anitescu/anitescu_program.h"
#include "quasidyn/formulations/second_order/second_order_plugin.h"

namespace quasidyn {

FormulationPlugin AnitescuFormulation() {
  return SecondOrderPlugin({"anitescu",
                            "second-order convex relaxation on the friction pyramid, a QP "
                            "(Anitescu 2006)",
                            "docs/formulations.md#anitescu", SecondOrderCapabilities("anitescu")},
                           [] { return std::make_unique<AnitescuProgram>(); });
}

}  // namespace quasidyn
