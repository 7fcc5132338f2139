#include "quasidyn/formulations/ecp/ecp_formulation.h"

#include <stdexcept>

#include "quasidyn/formulations/ecp/ecp_keys.h"
#include "quasidyn/formulations/ecp/ecp_model.h"

namespace quasidyn {

FormulationInfo EcpFormulationInfo() {
  FormulationInfo info;
  FormulationCapabilities& can = info.capabilities;
  can.state = StateKind::kConfigurationAndVelocity;
  can.command = CommandKind::kObjectImpulses;
  can.planar_scenes = false;
  can.robots = false;
  can.joint_limits = false;
  can.exact_linearization = kEcpName;
  info.name = kEcpName;
  info.title =
      "geometrically implicit NCP with one equivalent contact point per pair (Xie & "
      "Chakraborty, eqs. 7-9, 13-17)";
  info.docs = "docs/ecp.md";
  return info;
}

ParameterBlock ReportedEcpParameters(const EcpParameters& parameters) {
  ParameterBlock reported;
  reported.Set("e_t", parameters.e_t);
  reported.Set("e_o", parameters.e_o);
  reported.Set("e_r", parameters.e_r);
  return reported;
}

FormulationPlugin EcpFormulation() {
  FormulationPlugin plugin;
  plugin.info = EcpFormulationInfo();
  plugin.parameters = EcpParameterSpecs();
  plugin.scene_keys = {{"impulses", "objects",
                        "impulses and force windows applied to the object (once at t, when a "
                        "velocity component reaches a value, or over [from, to))"}};
  plugin.read_scene_keys = ReadEcpSceneKeys;
  plugin.make_model = [](const FormulationInputs& in) -> std::shared_ptr<const StepModel> {
    // ecp integrates each object's rotation exactly (ecp_model.cc) and differentiates that.
    if (in.scene->conventions.quaternion_update != QuaternionUpdate::kExponentialMap)
      throw std::invalid_argument(
          "formulation ecp: conventions.quaternion_update: first_order is not supported (ecp "
          "integrates rotations by the exponential map); use exponential_map");
    EcpParameters parameters;
    parameters.time_step = in.time_step;
    parameters.e_t = in.parameters.Number("e_t", parameters.e_t);
    parameters.e_o = in.parameters.Number("e_o", parameters.e_o);
    parameters.e_r = in.parameters.Number("e_r", parameters.e_r);
    return std::make_shared<const EcpModel>(in.scene, parameters);
  };
  return plugin;
}

}  // namespace quasidyn
