// A file of the reference quasistatic simulator (io/qsim_system_file.h, docs/qsim-files.md)
// loaded with LoadScene, and `quasidyn convert`'s scene of it (io/native_scene_writer.h): the
// two step bitwise alike (io/qsim_files_test.cc reads them with io alone).

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/io/native_scene_writer.h"
#include "quasidyn/io/qsim_system_file.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/qsim_models.h"
#include "quasidyn/testing/scratch_files.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

using namespace testing::qsim;  // the models (testing/qsim_models.h)

class QsimSceneStepsTest : public ::testing::Test {
 protected:
  QsimSceneStepsTest() { WriteModels(folder_); }
  // The system file q_sys/system.yml with `text`.
  std::string System(const std::string& text) const {
    return folder_.Write("q_sys/system.yml", text);
  }
  testing::ScratchDirectory folder_;
};

// The converted scene loads into the same scene and steps bitwise like the system file.
TEST_F(QsimSceneStepsTest, ConvertedSceneStepsBitwiseLikeTheOriginal) {
  // The ball dropped onto the ground beside the arm; the arm swings into it.
  const std::string path = System(kSystem);
  const Scene original = LoadScene(path);
  const QsimScene qsim = ReadQsimSceneFile(path);
  const std::string converted =
      folder_.Write("converted.yaml", NativeSceneYaml(qsim, folder_.path().string()));
  const Scene scene = LoadScene(converted);
  ASSERT_EQ(scene.nq, original.nq);
  EXPECT_EQ(scene.q0, original.q0);
  EXPECT_EQ(scene.gravity, original.gravity);
  EXPECT_EQ(scene.contact_tolerance, original.contact_tolerance);
  // Parity mode (docs/qsim-files.md): the simulator's 2 rays, quaternion update and joint limits.
  EXPECT_EQ(scene.friction_rays, 2);
  EXPECT_TRUE(scene.conventions == QsimConventions());
  EXPECT_TRUE(scene.conventions == original.conventions);
  for (size_t j = 0; j < scene.joints.size(); ++j) {
    EXPECT_TRUE(scene.joints[j].X_PJ.matrix() == original.joints[j].X_PJ.matrix()) << j;
  }
  Eigen::VectorXd q = original.q0;
  q.segment<3>(0) = Eigen::Vector3d(0.1, 0.02, 0.06);  // ball_a resting on the ground
  q.segment<3>(7) = Eigen::Vector3d(0.0, 0.12, 0.3);   // ball_b by the arm's lower link
  for (const char* type : {"qp", "socp"}) {
    SCOPED_TRACE(type);
    testing::Stepper a(original, FormulationChoice(type));
    testing::Stepper b(scene, FormulationChoice(type));
    Eigen::VectorXd qa = q, qb = q;
    Eigen::VectorXd u = q.tail<2>();
    for (int k = 0; k < 10; ++k) {
      u[0] += 0.05;
      const StepResult& ra = a.Step(qa, u);
      ASSERT_TRUE(ra.ok()) << k;
      qa = ra.next.q;
      const StepResult& rb = b.Step(qb, u);
      ASSERT_TRUE(rb.ok()) << k;
      qb = rb.next.q;
      EXPECT_EQ(qa, qb) << "step " << k + 1;
    }
    EXPECT_NE(qa, q);  // it moved
    // ball_b turned: the quaternion update is part of what was compared.
    EXPECT_NE(qa.segment<4>(10), q.segment<4>(10));
  }
}

// The system file's objects' mass term is a parameter of qp, checked as a scene file's.
TEST_F(QsimSceneStepsTest, LoadsAsTheQpFormulationWithItsMassTerm) {
  const Scene scene = LoadScene(System(kSystem));
  EXPECT_EQ(scene.formulation.name, "qp");
  const ParameterValue* c_u = scene.formulation.parameters.Find("unactuated_mass_scale");
  ASSERT_NE(c_u, nullptr);
  EXPECT_EQ(c_u->value(0, 0), 5.0);
  EXPECT_EQ(c_u->source.line, 15);
}

}  // namespace
}  // namespace quasidyn
