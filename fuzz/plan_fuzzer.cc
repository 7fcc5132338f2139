// libFuzzer target: one RRT extension (planning/rrt.h) from the initial state of a fuzzed scene
// that loads (fuzz_scene_input.h) and has a `planning:` block. The scene's own formulation and
// planning settings, bounded to one extension: a tree of at most 2 nodes (the root, linearised,
// and one child; 3 × 2 iterations at most, idle or failed extensions adding no node), no
// regrasps (p_grasp = 0), no goal connection, one extension per round, and the costly settings
// capped (kMax* below) so that an execution stays short under the sanitizers.
//
// The planner may refuse the query before it searches: the step model refusing the scene
// (SceneError, std::invalid_argument), a formulation the planner cannot step
// (CheckPlannableFormulation) or settings CheckPlanningSettings rejects (ValidatePlanningSettings;
// all std::invalid_argument). Those are checked here first; after them PlanThroughContact must
// not throw (a failed step or linearisation is counted in the plan's statistics): any exception
// out of it escapes and is a finding.
#include <algorithm>
#include <memory>
#include <stdexcept>

#include "fuzz_scene_input.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/rrt.h"

namespace {

constexpr int kMaxVelocities = 60;
constexpr int kMaxSamples = 4;       // randomized-smoothing samples per linearisation
constexpr int kMaxExtendSteps = 3;   // steps of the extension
constexpr int kMaxSubsteps = 8;      // substeps of an extension that overlaps too deeply
constexpr double kTimeLimit = 60.0;  // [s], below run_fuzzer.sh's 120 s hang limit

// The scene's planning settings bounded to one extension (see the file's comment).
quasidyn::PlanningSettings OneExtension(quasidyn::PlanningSettings settings) {
  settings.max_nodes = 2;
  settings.p_grasp = 0.0;
  settings.goal_connection.reset();
  settings.extension_batch = 1;
  settings.samples = std::min(settings.samples, kMaxSamples);
  settings.extend_steps = std::min(settings.extend_steps, kMaxExtendSteps);
  settings.max_substeps = std::min(settings.max_substeps, kMaxSubsteps);
  settings.time_limit = std::min(settings.time_limit, kTimeLimit);
  return settings;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace quasidyn;
  std::optional<Scene> loaded = fuzz::LoadFuzzScene(data, size);
  if (!loaded || !loaded->planning || loaded->nv > kMaxVelocities) return 0;
  const PlanningSettings settings = OneExtension(*loaded->planning);
  const auto scene = std::make_shared<const Scene>(std::move(*loaded));
  const FormulationChoice stepping = PlanningFormulation(*scene, settings);
  try {
    const std::shared_ptr<const StepModel> model = MakeStepModel(scene, stepping);
    CheckPlannableFormulation(model->formulation());
    ValidatePlanningSettings(settings, *scene);
  } catch (const SceneError&) {
    return 0;
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const PlanResult plan = PlanThroughContact(scene, stepping, settings);
  (void)plan;
  return 0;
}
