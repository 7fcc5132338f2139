#include "quasidyn/formulations/halm_posa/halm_posa_formulation.h"

#include "quasidyn/formulations/halm_posa/halm_posa_keys.h"
#include "quasidyn/formulations/halm_posa/halm_posa_model.h"

namespace quasidyn {

FormulationPlugin HalmPosaFormulation() {
  FormulationPlugin plugin;
  FormulationCapabilities& can = plugin.info.capabilities;
  can.state = StateKind::kConfiguration;
  can.command = CommandKind::kRobotVelocities;
  can.spatial_scenes = false;
  can.external_forces = false;
  can.exact_linearization = kHalmPosaName;
  plugin.info.name = kHalmPosaName;
  plugin.info.title =
      "planar quasi-static LCP with finite velocity feedback (Halm & Posa 2018, eqs. 31-38)";
  plugin.info.docs = "docs/formulations.md#halm-posa";
  plugin.parameters = HalmPosaParameterSpecs();
  plugin.scene_keys = {{"limit_surface", "objects",
                        "the Hessian Ã of the object's ellipsoidal limit surface (Halm & Posa "
                        "2018, eq. 11): {principal: [a_x, a_y, a_θ]} or {matrix: 3 × 3}"}};
  plugin.read_scene_keys = ReadHalmPosaSceneKeys;
  plugin.make_model =
      [info = plugin.info](const FormulationInputs& in) -> std::shared_ptr<const StepModel> {
    HalmPosaParameters parameters;
    parameters.feedback_scale = in.parameters.Number("c", parameters.feedback_scale);
    parameters.tracking_gain = in.parameters.Number("tracking_gain", parameters.tracking_gain);
    const std::optional<Eigen::MatrixXd> gains = in.parameters.Value("B");
    parameters.feedback_gains = FeedbackGainMatrix(gains ? *gains : Eigen::MatrixXd(),
                                                   in.scene->nq_a, in.parameters.Source("B"));
    ParameterBlock reported;
    reported.Set("c", parameters.feedback_scale);
    reported.Set("B", parameters.feedback_gains, ValueSource{"", 0, "B"});
    reported.Set("tracking_gain", parameters.tracking_gain);
    return std::make_shared<const HalmPosaModel>(in.scene, in.time_step, info, std::move(reported),
                                                 parameters);
  };
  return plugin;
}

}  // namespace quasidyn
