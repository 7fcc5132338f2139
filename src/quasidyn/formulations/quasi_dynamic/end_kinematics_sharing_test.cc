// The quasi-dynamic step hands its poses at q⁺ (the motion measure's) to the next step's contact
// query when that step starts at q⁺ (quasi_dynamic_model.cc, ContactModel::ShareKinematics).
// Whatever the caller does between steps (continues from q⁺, changes the state, clears the warm
// start, runs another model), each step's contact data must be that of its own q: poses and
// contacts bit for bit those of a fresh query there.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <memory>
#include <stdexcept>
#include <string>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/fresh_contact_query.h"

namespace quasidyn {
namespace {

// data's contact data (its poses and contacts) is bit for bit a fresh query's at q.
void ExpectContactDataOf(const QuasiDynamicModel& model, const Eigen::VectorXd& q,
                         const QuasiDynamicData& data, const std::string& label) {
  testing::ExpectFreshQueryAt(model.contact_model(), q, data.contact(), label);
}

struct HandStep {
  std::shared_ptr<const QuasiDynamicModel> model;
  std::unique_ptr<StepData> data;
  QuasiDynamicData& qd() { return static_cast<QuasiDynamicData&>(*data); }
  // The address of the poses' storage, which changes when the query takes the spare poses
  // (they are exchanged) and stays when it computes them in place.
  const Eigen::Isometry3d* poses() { return qd().contact().kinematics().BodyPoses().data(); }
};

HandStep MakeHandStep() {
  HandStep step;
  step.model = std::dynamic_pointer_cast<const QuasiDynamicModel>(
      MakeStepModel(testing::LoadExample("planar_hand"), FormulationChoice("qp")));
  if (!step.model) throw std::runtime_error("planar_hand qp: not a quasi-dynamic model");
  step.data = step.model->CreateData();
  return step;
}

TEST(EndKinematicsSharing, EachStepQueriesItsOwnConfiguration) {
  HandStep step = MakeHandStep();
  const QuasiDynamicModel& model = *step.model;
  const Scene& scene = model.scene();
  State x = InitialState(model);
  const double h = model.time_step();
  int shared = 0;
  for (int k = 0; k < 12; ++k) {
    const Eigen::VectorXd u = scene.CommandAt((k + 1) * h);
    const Eigen::Isometry3d* before = step.poses();
    const std::string label = "step " + std::to_string(k);
    if (k == 4) x.q[0] += 1e-4;  // the caller moves the state: q⁺'s poses must not be used
    if (k == 6) model.ClearWarmStart(step.data.get());   // a reset
    if (k == 8) x.q[1] = std::nextafter(x.q[1], 1e300);  // one ulp away from q⁺
    model.Calc(x, u, step.data.get());
    ASSERT_TRUE(step.data->result.ok()) << label << ": " << step.data->result.message;
    ExpectContactDataOf(model, x.q, step.qd(), label);
    const bool took_spare = step.poses() != before;
    // From the second step on, a step that starts at the last q⁺ takes its poses; one that
    // starts elsewhere computes them.
    if (k > 0) {
      EXPECT_EQ(took_spare, k != 4 && k != 8) << label;
    }
    shared += took_spare;
    x = step.data->result.next;
  }
  EXPECT_GE(shared, 8);

  // Another model's data is refused before anything is shared.
  HandStep other = MakeHandStep();
  EXPECT_THROW(model.Calc(x, scene.CommandAt(0.5), other.data.get()), std::invalid_argument);
  // That model's own step, at a q its data has not met, queries that q.
  other.model->Calc(x, scene.CommandAt(0.5), other.data.get());
  ASSERT_TRUE(other.data->result.ok()) << other.data->result.message;
  ExpectContactDataOf(*other.model, x.q, other.qd(), "other model");
}

}  // namespace
}  // namespace quasidyn
