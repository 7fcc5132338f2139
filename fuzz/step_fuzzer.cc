// libFuzzer target: three steps of every formulation (the second-order stewart-trinkle,
// anitescu and ecp included, from the scene's initial velocity) on a fuzzed scene that loads
// (fuzz_scene_input.h), from its initial state with its own commands. The step model may refuse
// the settings when it is built (std::invalid_argument, e.g. a barrier that would levitate an
// object; halm-posa refuses 3D scenes and in-plane gravity; ecp refuses robots, planar scenes
// and capsules); Calc must never throw on the scene's
// own state and commands (ScheduledCommand): a failed step is a
// status. Scenes above kMaxVelocities velocities are skipped to keep an execution short.
#include <memory>
#include <stdexcept>

#include "fuzz_scene_input.h"
#include "quasidyn/stepping/formulation_table.h"

namespace {

constexpr int kMaxVelocities = 60;
constexpr int kSteps = 3;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace quasidyn;
  std::optional<Scene> loaded = fuzz::LoadFuzzScene(data, size);
  if (!loaded || loaded->nv > kMaxVelocities) return 0;
  const auto scene = std::make_shared<const Scene>(std::move(*loaded));
  for (const FormulationType type :
       {FormulationType::kQp, FormulationType::kSocp, FormulationType::kLogBarrierPyramid,
        FormulationType::kLogBarrierCone, FormulationType::kLcp, FormulationType::kHalmPosa,
        FormulationType::kStewartTrinkle, FormulationType::kAnitescu, FormulationType::kEcp}) {
    FormulationSettings settings = SettingsFromScene(*scene);  // validated by the loader
    settings.type = type;
    std::shared_ptr<const StepModel> model;
    try {
      model = MakeStepModel(scene, settings);
    } catch (const std::invalid_argument&) {
      continue;
    }
    const std::unique_ptr<StepData> step = model->CreateData();
    State x = InitialState(*model);
    for (int k = 1; k <= kSteps; ++k) {
      Eigen::VectorXd u;
      try {
        u = model->ScheduledCommand(k * settings.time_step, x);
      } catch (const std::invalid_argument&) {
        break;  // a schedule whose velocity overflows (halm-posa): refused with a message
      }
      model->Calc(x, u, step.get());
      if (!step->result.ok()) break;
      x = step->result.next;
    }
  }
  return 0;
}
