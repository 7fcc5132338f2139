#pragma once
// The conformance suite of the formulation registry (Crocoddyl's test factory: one body of checks
// over every model): every registered formulation, the built-in ten and any plug-in the test
// program registered before gtest's initialisation, is held to the common contract of
// stepping/step_model.h on the scenes it can step. A program instantiates it over a list of
// formulation names:
//
//   INSTANTIATE_TEST_SUITE_P(Registry, FormulationConformance,
//                            ::testing::ValuesIn(conformance::RegisteredFormulations()),
//                            conformance::FormulationTestName);
//
// gtest evaluates that generator in InitGoogleTest, so a plug-in registered by a static
// initializer (or by a main of its own before InitGoogleTest) is in the list; one registered
// later (a test's SetUp) is not, which InstantiatedFormulationsAre() makes a failure.
//
// Each check is one test per formulation (one ctest test per formulation × check); a check the
// formulation's declared capabilities rule out is skipped with the capability named:
//
//   WarmCalcAllocatesNothing        a Calc after warm-up with the same contacts makes 0 heap
//                                   allocations (testing/malloc_counter.h), on every scene
//   BatchesAreBitwiseEqualOnOneTwoAndThreeThreads
//                                   BatchStepper on 1, 2 and 3 threads, steps and
//                                   (differentiable) A and B, bit for bit, each item a lone
//                                   data's answer
//   DerivativesMatchFiniteDifferences
//                                   CalcDiff's A and B against central differences of Calc
//                                   (skipped without a gradient: capabilities().no_gradient)
//   AFailedStepKeepsTheState        a command so large that the step's cost overflows: a status
//                                   and a message, next = x, no exception, CalcDiff a status
//                                   ("the step failed") too
//   CallerMistakesThrowInvalidArgument
//                                   sizes, NaN, null or foreign data, CalcDiff before Calc
//   ParametersOutOfRangeAreRefused  each declared ParameterSpec: NaN and a value outside its
//                                   range make MakeStepModel throw naming the key
//   CompareFormulationsRunsIt       CompareFormulations lists it and runs it
//   RolloutOfTheScheduleCompletes   Rollout of each scene's schedule
//   LinearizerGivesAAndB            the one Linearizer, exact (its CalcDiff when its exact
//                                   linearisation is its own) and log-barrier when declared
//   PlanReplaysExactly              a small RRT run (fixed seed) where CheckPlannableFormulation
//                                   allows it; its path replays bit for bit
//
// The scenes: a shared set of small scenes (ConformanceScenes) filtered by WhyCannotStep, then
// the formulation's own (FormulationPlugin::conformance_scenes, formulations/registry.h).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/model/scene.h"

namespace quasidyn::conformance {

// A scene of the suite, with where along its scheduled rollout the checks look.
struct ConformanceScene {
  std::string name;
  ScenePtr scene;
  // Steps of the scheduled rollout the rollout and allocation checks take (the allocation check
  // counts steps kAllocationWarmUp + 1 … rollout_steps).
  int rollout_steps = 30;
  // The state after this many scheduled steps of the formulation's own model (and the command
  // of the next one) is where the batch, finite-difference, failure and linearisation checks
  // look: a state in contact.
  int probe_step = 10;
  // The finite-difference check takes this scene: its probe state is away from a change of the
  // active set or of a contact manifold by more than the difference's step for every
  // formulation. Not so arm_cubes (its stacked cubes rest face on face, a kink of their
  // manifold) and the GJK scene (its cylinders touch the prism's faces along lines, where the
  // manifold's points are not unique: a 1e-5 m move of the prism moves the can–prism point
  // 1.6e-4 m along the line, so the barriers' step, which every candidate contact's Jacobian
  // enters, is not differentiable there; and the prism's face rests flat on the table, where
  // the exact cone's step has a kink).
  bool finite_differences = true;
};

// Steps of a scene's rollout taken before the allocation check counts.
inline constexpr int kAllocationWarmUp = 10;

// The shared set, loaded once per process: planar pushing seen from above (with a planning
// block), the planar gripper, the GJK scene (testing/gjk_scene.h), arm_cubes, dynamic_push
// (a second-order scene: initial velocities, damping), the pinch (four two-link arms squeezing a
// square seen from above, with halm-posa's gains) and a 3D scene without robots whose object
// carries an impulse (ecp's kind of scene).
const std::vector<ConformanceScene>& ConformanceScenes();

// The scenes `plugin` steps in the suite: the shared ones it can step (WhyCannotStep empty),
// then its own conformance_scenes (the defaults of ConformanceScene). Throws SceneError for a
// declared scene that does not load.
std::vector<ConformanceScene> ScenesFor(const FormulationPlugin& plugin);

// Every registered formulation, in registration order.
std::vector<std::string> RegisteredFormulations();
// The registered formulations that RegisterBuiltinFormulations does not register (a test
// program's plug-ins).
std::vector<std::string> PluginFormulations();

// The gtest name of a formulation (dashes as underscores).
std::string FormulationTestName(const ::testing::TestParamInfo<std::string>& info);

// Success when the suite's tests of this program, with their formulation, are exactly `names`
// × every check: a formulation registered after gtest's initialisation has none.
::testing::AssertionResult InstantiatedFormulationsAre(const std::vector<std::string>& names);

class FormulationConformance : public ::testing::TestWithParam<std::string> {};

}  // namespace quasidyn::conformance
