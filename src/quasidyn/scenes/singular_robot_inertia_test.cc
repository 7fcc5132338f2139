// A robot link whose inertia is singular (positive semidefinite with a zero principal moment,
// as the reference simulator's three_link_arm.sdf rods, mass 1 and iyy = 0): accepted with a
// warning at the model file's line, stepped by the quasi-dynamic formulations (they never use a
// robot's inertia), refused at that line by those that use the robots' mass matrix
// (FormulationCapabilities::robot_inertia). An object's inertia must stay positive definite.

#include <gtest/gtest.h>

#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/contains_text.h"
#include "quasidyn/testing/qsim_models.h"
#include "quasidyn/testing/scratch_files.h"
#include "quasidyn/testing/shared_scene.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

using namespace testing::qsim;  // the models (testing/qsim_models.h)

// `text` with every "<iyy>1e-3</iyy>" made "<iyy>0</iyy>": the moment about the link's y axis
// zero, the other two 1e-3 kg·m².
std::string WithZeroIyy(std::string text) {
  const std::string from = "<iyy>1e-3</iyy>", to = "<iyy>0</iyy>";
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at))
    text.replace(at, from.size(), to);
  return text;
}

class SingularRobotInertiaTest : public ::testing::Test {
 protected:
  SingularRobotInertiaTest() {
    WriteModels(folder_);
    folder_.Write("arm.sdf", WithZeroIyy(kArm));  // the arm's two links: iyy = 0
  }
  std::string System() const { return folder_.Write("q_sys/system.yml", kSystem); }
  testing::ScratchDirectory folder_;
};

// kArm's <inertial> of link 'upper' is at line 6 of arm.sdf.
constexpr const char* kUpperInertial = "arm.sdf:6: link 'upper' <inertial>";

TEST_F(SingularRobotInertiaTest, LoadsWithAWarningAtTheModelFilesLine) {
  const Scene scene = LoadScene(System());
  int warned = 0;
  for (const std::string& warning : scene.warnings) {
    if (testing::Contains(warning, "has a singular inertia")) ++warned;
  }
  EXPECT_EQ(warned, 2);  // upper and lower
  bool upper = false;
  for (const std::string& warning : scene.warnings) {
    upper = upper || (testing::Contains(warning, kUpperInertial) &&
                      testing::Contains(warning, "robot link 'arm/upper' has a singular inertia"));
  }
  EXPECT_TRUE(upper);
  const Body& link = scene.bodies[scene.BodyIndex("arm/upper")];
  EXPECT_TRUE(testing::Contains(link.singular_inertia.file, "arm.sdf"));
  EXPECT_EQ(link.singular_inertia.line, 6);
}

// The quasi-dynamic formulations step it as they step the arm with a positive definite inertia:
// their step never reads a robot's inertia, so the results are bitwise the same.
TEST_F(SingularRobotInertiaTest, QuasiDynamicFormulationsStepIt) {
  const Scene singular = LoadScene(System());
  testing::ScratchDirectory regular_folder;
  WriteModels(regular_folder);
  const Scene regular = LoadScene(regular_folder.Write("q_sys/system.yml", kSystem));
  Eigen::VectorXd q = singular.q0;
  q.segment<3>(0) = Eigen::Vector3d(0.1, 0.02, 0.06);  // ball_a resting on the ground
  q.segment<3>(7) = Eigen::Vector3d(0.0, 0.12, 0.3);   // ball_b by the arm's lower link
  for (const char* type : {"qp", "socp", "lcp", "log-barrier"}) {
    SCOPED_TRACE(type);
    testing::Stepper a(singular, FormulationChoice(type));
    testing::Stepper b(regular, FormulationChoice(type));
    Eigen::VectorXd qa = q, qb = q, u = q.tail<2>();
    for (int k = 0; k < 5; ++k) {
      u[0] += 0.05;
      const StepResult& ra = a.Step(qa, u);
      ASSERT_TRUE(ra.ok()) << k << ": " << ra.message;
      qa = ra.next.q;
      const StepResult& rb = b.Step(qb, u);
      ASSERT_TRUE(rb.ok()) << k << ": " << rb.message;
      qb = rb.next.q;
      EXPECT_EQ(qa, qb) << "step " << k + 1;
    }
    EXPECT_NE(qa, q);  // it moved
  }
}

// Every formulation that declares it uses the robots' mass matrix refuses the scene when its
// model is built, at the link's line; the others build.
TEST_F(SingularRobotInertiaTest, FormulationsUsingTheRobotsMassMatrixRefuseIt) {
  const ScenePtr scene = testing::Shared(LoadScene(System()));
  int refused = 0;
  for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins()) {
    const std::string& name = plugin->info.name;
    SCOPED_TRACE(name);
    if (!plugin->info.capabilities.robots) continue;
    if (!plugin->info.capabilities.robot_inertia) {
      EXPECT_FALSE(testing::Contains(WhyCannotStep(scene, *plugin), "singular inertia"));
      continue;
    }
    ++refused;
    try {
      MakeStepModel(scene, FormulationChoice(name));
      ADD_FAILURE() << "built";
    } catch (const SceneError& e) {
      const std::string what = e.what();
      EXPECT_TRUE(testing::Contains(what, kUpperInertial)) << what;
      EXPECT_TRUE(testing::Contains(what, name + " uses the robots' mass matrix, and robot link "
                                                 "'arm/upper' has a singular inertia"))
          << what;
    }
    EXPECT_TRUE(testing::Contains(WhyCannotStep(scene, *plugin), kUpperInertial));
  }
  EXPECT_EQ(refused, 3);  // stewart-trinkle, anitescu, anitescu-cone
}

// An object's inertia is still refused unless positive definite, at its line.
TEST_F(SingularRobotInertiaTest, AnObjectsSingularInertiaIsRefused) {
  std::string ball = kBall;
  const std::string from = "<iyy>2e-4</iyy>";
  ASSERT_NE(ball.find(from), std::string::npos);
  ball.replace(ball.find(from), from.size(), "<iyy>0</iyy>");
  folder_.Write("ball.sdf", ball);
  try {
    LoadScene(System());
    ADD_FAILURE() << "loaded";
  } catch (const SceneError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(testing::Contains(what, "ball.sdf:")) << what;
    EXPECT_TRUE(
        testing::Contains(what, "inertia must be positive definite (smallest eigenvalue 0)"))
        << what;
  }
}

}  // namespace
}  // namespace quasidyn
