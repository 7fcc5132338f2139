#include "quasidyn/stepping/formulation_table.h"

#include "quasidyn/common/argument_check.h"
#include "quasidyn/stepping/ecp_model.h"
#include "quasidyn/stepping/halm_posa_model.h"
#include "quasidyn/stepping/quasi_dynamic_model.h"
#include "quasidyn/stepping/second_order_model.h"

namespace quasidyn {

const char* GradientMethodName(GradientMethod method) {
  return method == GradientMethod::kExact ? "exact" : "log-barrier";
}

GradientMethod ParseGradientMethod(const std::string& name) {
  for (GradientMethod method : {GradientMethod::kExact, GradientMethod::kLogBarrier})
    if (name == GradientMethodName(method)) return method;
  ThrowInvalidArgument("gradient method",
                       "unknown method '" + name + "' (expected exact or log-barrier)");
}

std::shared_ptr<const StepModel> MakeStepModel(ScenePtr scene,
                                               const FormulationSettings& settings) {
  if (settings.type == FormulationType::kHalmPosa)
    return std::make_shared<const HalmPosaModel>(std::move(scene), settings);
  if (settings.type == FormulationType::kEcp)
    return std::make_shared<const EcpModel>(std::move(scene), settings);
  if (IsSecondOrder(settings.type))
    return std::make_shared<const SecondOrderModel>(std::move(scene), settings);
  return std::make_shared<const QuasiDynamicModel>(std::move(scene), settings);
}

FormulationType DifferentiatedFormulation(FormulationType type, GradientMethod method) {
  if (type == FormulationType::kHalmPosa) {
    QUASIDYN_CHECK_ARGUMENT(method == GradientMethod::kExact, "gradient method",
                            "halm-posa has no log-barrier smoothing: its gradients are the exact "
                            "ones of its LCP (use exact, or randomized smoothing)");
    return type;
  }
  if (IsSecondOrder(type)) {
    QUASIDYN_CHECK_ARGUMENT(method == GradientMethod::kExact, "gradient method",
                            std::string(FormulationName(type)) +
                                " has no log-barrier smoothing: its gradients are the exact ones "
                                "of its program (use exact, or randomized smoothing)");
    return type;
  }
  if (type == FormulationType::kEcp) {
    QUASIDYN_CHECK_ARGUMENT(method == GradientMethod::kExact, "gradient method",
                            "ecp has no log-barrier smoothing: its gradients are the exact ones "
                            "of its NCP (use exact)");
    return type;
  }
  const bool cone = type == FormulationType::kSocp || type == FormulationType::kLogBarrierCone;
  if (method == GradientMethod::kExact) return cone ? FormulationType::kSocp : FormulationType::kQp;
  return cone ? FormulationType::kLogBarrierCone : FormulationType::kLogBarrierPyramid;
}

bool HasDerivatives(FormulationType type) { return type != FormulationType::kLcp; }

bool CommandsPositions(FormulationType type) {
  return type != FormulationType::kHalmPosa && type != FormulationType::kEcp;
}

}  // namespace quasidyn
