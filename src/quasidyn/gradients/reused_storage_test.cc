// A call into the storage of an earlier call clears only what that call wrote (large matrices)
// or zeroes it whole (small ones): BuildPyramidStepData's P and G (step_data_derivative.h) and
// DifferentiateStepData's contraction with kept buffers (contact_data_derivative.h). Either
// way the result must be the fresh call's, entry for entry. The second call is at the same
// state with the contacts in reverse order: the matrices keep their shape and storage, and
// each row is another contact's, so a stale entry would stay.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/formulations/programs/step_data_derivative.h"
#include "quasidyn/gradients/contact_data_derivative.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/outcome_checks.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

using testing::ExampleState;
using testing::LoadExample;

// The contacts of `contacts` in reverse order, rebuilt at the configuration of `kinematics`
// (contact/contact_set.h): the same number of contacts, each index another contact.
ContactSet Reversed(const Scene& scene, const Kinematics& kinematics, const ContactSet& contacts) {
  std::vector<ContactCandidate> candidates;
  for (int i = contacts.size() - 1; i >= 0; --i) {
    const Contact& c = contacts[i];
    candidates.push_back({c.geometry_a, c.geometry_b, ContactPoint{c.phi, c.p_A, c.p_B, c.normal}});
  }
  ContactSet reversed;
  UpdateContactSet(scene, kinematics, candidates, &reversed);
  return reversed;
}

testing::ProgramSettings QpSettings(const Scene& scene) {
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "qp";
  return settings;
}

TEST(ReusedStorage, ABuildIntoAnEarlierBuildIsTheFreshBuild) {
  const ScenePtr scene = LoadExample("arm_cubes");
  const testing::ProgramSettings settings = QpSettings(*scene);
  const ExampleState s = testing::StateAfter(scene, settings, 201);
  const ContactModel model(scene);
  ContactData contact_data = model.CreateData();
  PyramidStepData reused, fresh;
  ASSERT_TRUE(
      testing::IsOk(BuildPyramidStepData(model, &contact_data, settings, s.q, s.u, &reused)));
  const SparseRowMatrix first_pattern = reused.G_rows;
  const QuasiDynamicCost cost = BuildQuasiDynamicCost(contact_data.kinematics(), s.u, settings);
  const ContactSet reversed = Reversed(*scene, contact_data.kinematics(), contact_data.contacts());
  const StepProblem problem{*scene, reversed, cost, settings.time_step};
  BuildPyramidStepData(problem, &reused);
  BuildPyramidStepData(problem, &fresh);
  ASSERT_GT(reused.G.size(), 1024);  // cleared by pattern (step_data_derivative.cc)
  ASSERT_GT(reused.P.size(), 1024);
  ASSERT_FALSE(reused.G_rows.SamePattern(first_pattern));
  EXPECT_TRUE(reused.G == fresh.G);
  EXPECT_TRUE(reused.P == fresh.P);
  EXPECT_TRUE(reused.offset == fresh.offset);
  EXPECT_TRUE(reused.G_rows.SamePattern(fresh.G_rows));
}

void ExpectReusedContractionIsTheFreshOne(const std::string& example, int steps) {
  const ScenePtr scene = LoadExample(example);
  const testing::ProgramSettings settings = QpSettings(*scene);
  const ExampleState s = testing::StateAfter(scene, settings, steps);
  const ContactModel model(scene);
  ContactData contact_data = model.CreateData();
  ASSERT_TRUE(model.Compute(s.q, &contact_data));
  const ContactSet reversed = Reversed(*scene, contact_data.kinematics(), contact_data.contacts());
  ChainKinematics kinematics(scene);
  StepDataDerivativeBuffers buffers;
  StepDataContraction reused, fresh;
  std::mt19937 random(11);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  constexpr double kStep = 6.0555e-6;
  Eigen::VectorXd v(scene->nv), lambda(reversed.size() * ContactRows(*scene));
  for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = uniform(random);
  for (Eigen::Index i = 0; i < lambda.size(); ++i) lambda[i] = uniform(random);
  ASSERT_TRUE(
      testing::IsOk(DifferentiateStepData(model, settings, s.q, s.u, contact_data.contacts(), v,
                                          lambda, kStep, &kinematics, &buffers, &reused)));
  const double* storage = reused.d_Jc_v.data();
  ASSERT_TRUE(testing::IsOk(DifferentiateStepData(model, settings, s.q, s.u, reversed, v, lambda,
                                                  kStep, &kinematics, &buffers, &reused)));
  ASSERT_EQ(reused.d_Jc_v.data(), storage);  // the same matrices, reused
  ASSERT_TRUE(testing::IsOk(
      DifferentiateStepData(model, settings, s.q, s.u, reversed, v, lambda, kStep, &fresh)));
  EXPECT_TRUE(reused.d_phi == fresh.d_phi);
  EXPECT_TRUE(reused.d_Jc_v == fresh.d_Jc_v);
  EXPECT_TRUE(reused.d_JcT_lambda == fresh.d_JcT_lambda);
  EXPECT_TRUE(reused.d_P_v == fresh.d_P_v);
  EXPECT_TRUE(reused.d_tau_h == fresh.d_tau_h);
}

TEST(ReusedStorage, AContractionIntoAnEarlierCallsMatricesIsTheFreshOne) {
  ExpectReusedContractionIsTheFreshOne("arm_cubes", 201);   // recorded entries cleared
  ExpectReusedContractionIsTheFreshOne("planar_hand", 60);  // zeroed whole
}

}  // namespace
}  // namespace quasidyn
