#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_plugin.h"

#include "quasidyn/formulations/quasi_dynamic/barrier_stand_off.h"
#include "quasidyn/formulations/quasi_dynamic/object_mass_scale.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"

namespace quasidyn {
namespace {

constexpr const char* kObjectMassScale = "object_mass_scale";
constexpr const char* kUnactuatedMassScale = "unactuated_mass_scale";
constexpr const char* kKappa = "kappa";

// Fails at the second of the two mass-scale keys when the block gives both.
void CheckOneMassScale(const ParameterBlock& block) {
  const ParameterValue* scale = block.Find(kObjectMassScale);
  const ParameterValue* divisor = block.Find(kUnactuatedMassScale);
  if (scale == nullptr || divisor == nullptr) return;
  const ParameterValue* second = scale->source.line > divisor->source.line ? scale : divisor;
  FailAt(second->source,
         "give object_mass_scale (s itself) or unactuated_mass_scale (the reference simulator's "
         "rule for s), not both");
}

}  // namespace

std::vector<ParameterSpec> ObjectMassScaleParameters() {
  return {NumberParameter(kObjectMassScale, kMassScaleRange, "1",
                          "s of the objects' regularisation ½ s vᵀ M_u v: 1 is Mason's "
                          "quasi-dynamics (Pang, Suh, Yang & Tedrake 2023, eq. 23b), 0 the pure "
                          "quasistatic model of Pang & Tedrake 2021"),
          NumberParameter(kUnactuatedMassScale, kMassScaleRange, "unset",
                          "c_u of the reference simulator's rule s = min_j h² K_a,j / (c_u "
                          "λ_max(M_u(q0))) (0 keeps s = 1); not together with object_mass_scale")};
}

ParameterSpec KappaParameter() {
  return NumberParameter(kKappa, kKappaRange,
                         "the least κ that keeps every resting object within 1 % of its size "
                         "of its support (DefaultKappa)",
                         "the log-barrier weight: −(1/κ) Σ log(·) is added to the objective "
                         "(Pang, Suh, Yang & Tedrake 2023, eqs. 27, 34); κ → ∞ recovers the "
                         "QP / SOCP");
}

QuasiDynamicCostParameters ResolveCostParameters(const FormulationInputs& inputs) {
  const ParameterValue* scale = inputs.parameters.block().Find(kObjectMassScale);
  const ParameterValue* divisor = inputs.parameters.block().Find(kUnactuatedMassScale);
  // One of the two alternatives: both from one source (the scene's file, or the caller) is a
  // mistake; a caller's value replaces the scene's other one.
  if (scale != nullptr && divisor != nullptr) {
    const bool scale_given = scale->source.file.empty(),
               divisor_given = divisor->source.file.empty();
    if (scale_given == divisor_given) CheckOneMassScale(inputs.parameters.block());
    (scale_given ? divisor : scale) = nullptr;
  }
  QuasiDynamicCostParameters cost;
  cost.time_step = inputs.time_step;
  if (scale != nullptr) {
    cost.object_mass_scale = *inputs.parameters.Number(kObjectMassScale);
  } else if (divisor != nullptr) {
    cost.object_mass_scale = ReferenceObjectMassScale(
        *inputs.scene, inputs.time_step, *inputs.parameters.Number(kUnactuatedMassScale));
  }
  return cost;
}

double ResolveKappa(const FormulationInputs& inputs) {
  const std::optional<double> kappa = inputs.parameters.Number(kKappa);
  return kappa ? *kappa : DefaultKappa(*inputs.scene);
}

FormulationCapabilities QuasiDynamicCapabilities(std::string exact, std::string smoothed,
                                                 std::string no_gradient) {
  FormulationCapabilities can;
  can.state = StateKind::kConfiguration;
  can.command = CommandKind::kRobotPositions;
  can.no_gradient = std::move(no_gradient);
  can.exact_linearization = std::move(exact);
  can.smoothed_linearization = std::move(smoothed);
  return can;
}

FormulationPlugin QuasiDynamicPlugin(
    FormulationInfo info, bool barrier,
    std::function<std::unique_ptr<const QuasiDynamicProgram>(const FormulationInputs&)>
        make_program) {
  FormulationPlugin plugin;
  plugin.info = std::move(info);
  plugin.parameters = ObjectMassScaleParameters();
  if (barrier) plugin.parameters.push_back(KappaParameter());
  plugin.check_parameters = CheckOneMassScale;
  plugin.make_model = [info = plugin.info, make_program](
                          const FormulationInputs& inputs) -> std::shared_ptr<const StepModel> {
    const QuasiDynamicCostParameters cost = ResolveCostParameters(inputs);
    std::unique_ptr<const QuasiDynamicProgram> program = make_program(inputs);
    ParameterBlock reported;
    reported.Set(kObjectMassScale, cost.object_mass_scale);
    program->ReportParameters(&reported);
    return std::make_shared<const QuasiDynamicModel>(inputs.scene, info, std::move(reported), cost,
                                                     std::move(program));
  };
  return plugin;
}

}  // namespace quasidyn
