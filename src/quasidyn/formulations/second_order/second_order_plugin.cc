#include "quasidyn/formulations/second_order/second_order_plugin.h"

#include "quasidyn/formulations/second_order/second_order_model.h"

namespace quasidyn {

FormulationCapabilities SecondOrderCapabilities(std::string name) {
  FormulationCapabilities can;
  can.state = StateKind::kConfigurationAndVelocity;
  can.command = CommandKind::kRobotPositions;
  can.robot_inertia = true;  // M̂ = M(q) + ..., the robots' blocks included
  can.exact_linearization = std::move(name);
  return can;
}

FormulationPlugin SecondOrderPlugin(
    FormulationInfo info, std::function<std::unique_ptr<const SecondOrderProgram>()> make_program) {
  FormulationPlugin plugin;
  plugin.info = std::move(info);
  plugin.make_model = [info = plugin.info, make_program](
                          const FormulationInputs& inputs) -> std::shared_ptr<const StepModel> {
    return std::make_shared<const SecondOrderModel>(inputs.scene, inputs.time_step, info,
                                                    make_program());
  };
  return plugin;
}

}  // namespace quasidyn
