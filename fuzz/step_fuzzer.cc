// libFuzzer target: three steps of every registered formulation (formulations/registry.h; the
// second-order stewart-trinkle, anitescu and ecp included, from the scene's initial velocity) on
// a fuzzed scene that loads (fuzz_scene_input.h), from its initial state with its own commands.
// The step model may refuse the formulation when it is built (std::invalid_argument or
// SceneError, e.g. a barrier that would levitate an object; halm-posa refuses 3D scenes and
// in-plane gravity; ecp refuses robots, planar scenes and capsules); Calc must never throw on
// the scene's own state and commands (ScheduledCommand): a failed step is a status. Scenes
// above kMaxVelocities velocities are skipped to keep an execution short. After the steps, one
// CalcDiff (A and B) of the last step taken, for every formulation with a derivative: it must
// not throw either (a failed step or a point without a derivative is a status), and a solved
// derivative has the sizes StepDerivatives documents.
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "fuzz_scene_input.h"
#include "quasidyn/formulations/registry.h"

namespace {

constexpr int kMaxVelocities = 60;
constexpr int kSteps = 3;

// A, B of the last Calc on `step` (quasidyn/stepping/step_model.h); aborts (a finding) when a
// solved derivative has other sizes than the state and the command.
void DifferentiateLastStep(const quasidyn::StepModel& model, quasidyn::StepData* step) {
  using quasidyn::GradientMode;
  if (!model.capabilities().differentiable()) return;
  model.CalcDiff(GradientMode::kAAndB, step);
  const quasidyn::StepDerivatives& d = step->derivatives;
  if (!d.ok()) return;
  const int n_x = model.state_q_size() + model.state_v_size();
  if (d.A.rows() != n_x || d.A.cols() != n_x || d.B.rows() != n_x ||
      d.B.cols() != model.control_size())
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace quasidyn;
  std::optional<Scene> loaded = fuzz::LoadFuzzScene(data, size);
  if (!loaded || loaded->nv > kMaxVelocities) return 0;
  const auto scene = std::make_shared<const Scene>(std::move(*loaded));
  for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins()) {
    std::shared_ptr<const StepModel> model;
    try {
      // The scene's h and parameter block (validated by the loader).
      model = MakeStepModel(scene, FormulationChoice(plugin->info.name));
    } catch (const SceneError&) {
      continue;
    } catch (const std::invalid_argument&) {
      continue;
    }
    const std::unique_ptr<StepData> step = model->CreateData();
    State x = InitialState(*model);
    for (int k = 1; k <= kSteps; ++k) {
      Eigen::VectorXd u;
      try {
        u = model->ScheduledCommand(k * model->time_step(), x);
      } catch (const std::invalid_argument&) {
        break;  // a schedule whose velocity overflows (halm-posa): refused with a message
      }
      model->Calc(x, u, step.get());
      if (!step->result.ok()) break;
      x = step->result.next;
    }
    if (step->calculated()) DifferentiateLastStep(*model, step.get());
  }
  return 0;
}
