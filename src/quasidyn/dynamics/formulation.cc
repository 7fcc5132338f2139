#include "quasidyn/dynamics/formulation.h"

#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/log_barrier_cone.h"
#include "quasidyn/dynamics/log_barrier_pyramid.h"
#include "quasidyn/dynamics/quasi_dynamic_qp.h"
#include "quasidyn/dynamics/quasi_dynamic_socp.h"
#include "quasidyn/dynamics/quasistatic_lcp.h"

namespace quasidyn {

void ThrowWorkspaceMismatch(const char* formulation) {
  ThrowInvalidArgument(formulation, "the workspace was made by another formulation");
}

std::unique_ptr<const Formulation> MakeFormulation(FormulationType type) {
  switch (type) {
    case FormulationType::kQp:
      return std::make_unique<PyramidQpFormulation>();
    case FormulationType::kSocp:
      return std::make_unique<FrictionConeSocpFormulation>();
    case FormulationType::kLogBarrierPyramid:
      return std::make_unique<PyramidLogBarrierFormulation>();
    case FormulationType::kLogBarrierCone:
      return std::make_unique<ConeLogBarrierFormulation>();
    case FormulationType::kLcp:
      return std::make_unique<QuasistaticLcpFormulation>();
    case FormulationType::kStewartTrinkle:
      return std::make_unique<QuasistaticLcpFormulation>(FormulationType::kStewartTrinkle);
    case FormulationType::kAnitescu:
      return std::make_unique<PyramidQpFormulation>(FormulationType::kAnitescu,
                                                    ContactQpSettings());
    case FormulationType::kHalmPosa:
      ThrowInvalidArgument("MakeFormulation",
                           "halm-posa is not a program of the quasi-dynamic model: it is its own "
                           "step model (stepping/halm_posa_model.h, made by MakeStepModel)");
    case FormulationType::kEcp:
      ThrowInvalidArgument("MakeFormulation",
                           "ecp is not a program of the quasi-dynamic model: it is its own step "
                           "model (stepping/ecp_model.h, made by MakeStepModel)");
  }
  ThrowInvalidArgument("MakeFormulation",
                       "unknown formulation type " + std::to_string(static_cast<int>(type)));
}

}  // namespace quasidyn
