#include "quasidyn/formulations/builtin.h"

#include "quasidyn/formulations/anitescu/anitescu_formulation.h"
#include "quasidyn/formulations/anitescu_cone/anitescu_cone_formulation.h"
#include "quasidyn/formulations/ecp/ecp_formulation.h"
#include "quasidyn/formulations/halm_posa/halm_posa_formulation.h"
#include "quasidyn/formulations/lcp/lcp_formulation.h"
#include "quasidyn/formulations/log_barrier/log_barrier_formulation.h"
#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone_formulation.h"
#include "quasidyn/formulations/qp/qp_formulation.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/formulations/socp/socp_formulation.h"
#include "quasidyn/formulations/stewart_trinkle/stewart_trinkle_formulation.h"

namespace quasidyn {

void RegisterBuiltinFormulations(FormulationRegistry* registry) {
  registry->Register(QpFormulation());
  registry->Register(SocpFormulation());
  registry->Register(LogBarrierFormulation());
  registry->Register(LogBarrierConeFormulation());
  registry->Register(LcpFormulation());
  registry->Register(HalmPosaFormulation());
  registry->Register(StewartTrinkleFormulation());
  registry->Register(AnitescuFormulation());
  registry->Register(AnitescuConeFormulation());
  registry->Register(EcpFormulation());
}

}  // namespace quasidyn
