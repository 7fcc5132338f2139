#include "quasidyn/formulations/lcp/lcp_formulation.h"

#include "quasidyn/formulations/lcp/lcp_program.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_plugin.h"

namespace quasidyn {

FormulationPlugin LcpFormulation() {
  return QuasiDynamicPlugin(
      {"lcp", "quasistatic LCP (Pang & Tedrake 2021, eq. 6), Lemke's method",
       "docs/formulations.md#lcp",
       QuasiDynamicCapabilities(
           "qp", "log-barrier",
           "the quasistatic LCP is not differentiated here: its solution, where unique, is the "
           "pyramid QP's, whose derivative an exact linearisation takes")},
      /*barrier=*/false,
      [](const FormulationInputs&) { return std::make_unique<QuasistaticLcpProgram>(); });
}

}  // namespace quasidyn
