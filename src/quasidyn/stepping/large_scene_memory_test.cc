// Memory linear in the scene: the step's data once sized, for a planar pile
// of N spheres (testing/planar_pile.h). The QP solver kept a dense copy of G (m × n) and the
// barrier solver a dense n × n Hessian on their sparse paths, so the heap grew with N²: about
// 117 MB for one qp step at N = 1000 against 14 MB at N = 300.

#include <gtest/gtest.h>
#include <malloc.h>

#include <memory>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/planar_pile.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/test_names.h"

namespace quasidyn {
namespace {

// Bytes allocated from the heap and in use: the arena's (uordblks) and the blocks glibc maps
// separately (hblkhd: every allocation above its mmap threshold, 128 KiB at first).
double HeapInUseBytes() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<double>(info.uordblks + info.hblkhd);
}

// The heap in use once a model, its data and a first step exist, minus the heap before [bytes].
double StepHeapBytes(int objects, std::string type) {
  const double before = HeapInUseBytes();
  const auto scene = std::make_shared<const Scene>(testing::PlanarPile(objects));
  testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  settings.type = type;
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene, settings);
  const std::unique_ptr<StepData> data = model->CreateData();
  model->Calc(InitialState(*scene), Eigen::VectorXd(), data.get());
  EXPECT_TRUE(data->result.ok()) << data->result.message;
  return HeapInUseBytes() - before;
}

class LargeSceneMemoryTest : public ::testing::TestWithParam<std::string> {};

// Four times the objects: the heap grows at most 1.5 × 4 times (linear, with room for the
// contact count's growth at the pile's border), where a dense n_v × n_v or m × n_v matrix
// makes it grow up to 16 times.
TEST_P(LargeSceneMemoryTest, HeapOfOneStepIsLinearInTheObjectCount) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "the sanitizers own the heap";
  const double small = StepHeapBytes(250, GetParam());
  const double large = StepHeapBytes(1000, GetParam());
  ASSERT_GT(small, 0.0);
  EXPECT_LT(large / small, 1.5 * 4.0)
      << "heap " << small / 1e6 << " MB at 250 objects, " << large / 1e6 << " MB at 1000";
}

INSTANTIATE_TEST_SUITE_P(SparseFormulations, LargeSceneMemoryTest,
                         ::testing::Values("qp", "socp", "log-barrier", "log-barrier-cone"),
                         testing::NameOfParam());

}  // namespace
}  // namespace quasidyn
