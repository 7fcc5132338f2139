#include "quasidyn/gradients/contact_data_derivative.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "quasidyn/formulations/programs/step_data_derivative.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/outcome_checks.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

using testing::ExampleState;
using testing::LoadExample;
using testing::StateAfter;

// Both paths are central differences with δ = 6e-6 of the same data, one along each q ⊕ ±δ e_k
// by re-running the whole contact query and building dense matrices (step_data_derivative.h),
// the other with the geometry differenced along the relative motions of each pair
// (pair_motion_derivative.h) and contracted. Where the geometry is differentiable they differ
// by round-off, ε_machine·|data|/δ ≈ 4e-11 relative, and by two O(δ²) truncation errors,
// ≈ δ²·|third derivative|/|first derivative| ≈ 4e-11 for curvatures of order 1. 1e-8 leaves a
// margin of over 100, while a missed term (a moved contact treated as fixed, a wrong sign or
// row) changes entries by O(1) relative.
constexpr double kRoundOffTolerance = 1e-8;

// A contact's geometry is taken as differentiable at q when, along every direction, its
// one-sided differences agree: |x₊ − 2x₀ + x₋|/δ <= kKinkThreshold for φ, both witness points
// and the normal. A smooth x gives ≈ δ|x''|: at most 1.7e-3 on these examples (the planar
// hand's round fingertips on the object). A kink gives the jump of the slope: 4e-2 to 15 here,
// from boxes resting face on face, whose normal is either box's face normal once they tilt.
constexpr double kKinkThreshold = 1e-2;

// Per contact of `contacts` (the set at q): true when its geometry is differentiable at q
// (above), from the contact model at q ⊕ ±δ e_k (independent of both paths under test).
std::vector<bool> DifferentiableContacts(const ContactModel& model, const Eigen::VectorXd& q,
                                         const ContactSet& contacts, double delta) {
  const Scene& scene = model.scene();
  std::vector<bool> smooth(contacts.size(), true);
  ContactData plus_data = model.CreateData(), minus_data = model.CreateData();
  for (int k = 0; k < scene.nv; ++k) {
    const Eigen::VectorXd e_k = Eigen::VectorXd::Unit(scene.nv, k);
    model.Compute(IntegrateConfiguration(scene, q, e_k, delta), &plus_data);
    model.Compute(IntegrateConfiguration(scene, q, e_k, -delta), &minus_data);
    const ContactSet& plus = plus_data.contacts();
    const ContactSet& minus = minus_data.contacts();
    for (int i = 0; i < contacts.size(); ++i) {
      const Contact& at = contacts[i];
      auto nearest = [&at](const ContactSet& set) {
        const Contact* best = nullptr;
        double best_distance = 1e300;
        for (const Contact& c : set) {
          if (c.geometry_a != at.geometry_a || c.geometry_b != at.geometry_b) continue;
          const double distance = (c.p_A - at.p_A).norm() + (c.p_B - at.p_B).norm();
          if (distance < best_distance) {
            best = &c;
            best_distance = distance;
          }
        }
        return best;
      };
      const Contact* p = nearest(plus);
      const Contact* m = nearest(minus);
      if (p == nullptr || m == nullptr) {
        smooth[i] = false;
        continue;
      }
      const double second = std::max({std::abs(p->phi - 2.0 * at.phi + m->phi),
                                      (p->p_A - 2.0 * at.p_A + m->p_A).norm(),
                                      (p->p_B - 2.0 * at.p_B + m->p_B).norm(),
                                      (p->normal - 2.0 * at.normal + m->normal).norm()});
      if (second / delta > kKinkThreshold) smooth[i] = false;
    }
  }
  return smooth;
}

// max |a − b| / max(max |b|, scale): relative to the reference, or to `scale`, the size of
// the undifferentiated quantity (e.g. |Gᵀβ| for ∂(Gᵀβ)/∂ε), when the derivative itself
// vanishes (a sphere's normals do not turn, a cube's isotropic inertia does not change):
// the round-off of a central difference is ε_machine·scale/δ.
double ScaledError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double scale) {
  EXPECT_EQ(a.rows(), b.rows());
  EXPECT_EQ(a.cols(), b.cols());
  if (a.rows() != b.rows() || a.cols() != b.cols()) return 1e300;
  if (b.size() == 0) return 0.0;
  return (a - b).cwiseAbs().maxCoeff() / std::max(scale, b.cwiseAbs().maxCoeff());
}

double MaxAbs(const Eigen::MatrixXd& x) { return x.size() == 0 ? 0.0 : x.cwiseAbs().maxCoeff(); }

struct Case {
  std::string example;
  int steps;
};

class ContractionAgainstDenseDifferences : public ::testing::TestWithParam<Case> {};

// Random v and β (the contractions are linear in them, so any values test the same maps; the
// QP's own are sparse and would leave rows unchecked).
TEST_P(ContractionAgainstDenseDifferences, EveryTermMatches) {
  const Case c = GetParam();
  const ScenePtr scene_ptr = LoadExample(c.example);
  const Scene& scene = *scene_ptr;
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "qp";
  const ExampleState s = StateAfter(scene_ptr, settings, c.steps);

  const ContactModel model(scene_ptr);
  ContactData contact_data = model.CreateData();
  PyramidStepData data;
  ASSERT_TRUE(testing::IsOk(BuildPyramidStepData(model, &contact_data, settings, s.q, s.u, &data)));
  const ContactSet& contacts = contact_data.contacts();
  ASSERT_GT(contacts.size(), 0);
  const int nv = scene.nv, m = static_cast<int>(data.G.rows());
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::VectorXd v(nv), beta(m);
  for (int i = 0; i < nv; ++i) v[i] = uniform(random);
  for (int j = 0; j < m; ++j) beta[j] = uniform(random);
  // The joint-limit rows (G's last rows, step_data_derivative.h) are constant: their
  // multipliers never enter λ = Rᵀβ, so they are left out (zero) here.
  const int limit_rows = data.limits.size();
  ASSERT_EQ(data.first_limit_row + limit_rows, m);
  beta.tail(limit_rows).setZero();

  // The comparison is where the geometry has a derivative: the rows of the other contacts are
  // left out and their impulses set to zero. Where it has none (a kink), the two differences
  // are different conventions; there the contraction must still be finite and deterministic.
  const double delta = 6.0555e-6;
  const std::vector<bool> smooth = DifferentiableContacts(model, s.q, contacts, delta);
  const int smooth_count = static_cast<int>(std::count(smooth.begin(), smooth.end(), true));
  RecordProperty("differentiable_contacts", smooth_count);
  if (scene.planar) {
    EXPECT_EQ(smooth_count, contacts.size());  // vertex–face and smooth shapes only
  } else {
    EXPECT_GE(2 * smooth_count, contacts.size());  // at least half are compared
  }
  std::vector<bool> smooth_row(m, true);
  for (int i = 0; i < contacts.size(); ++i) {
    const PyramidStepData::ContactKey& key = data.contact_keys[i];
    for (int j = 0; j < key.rows; ++j) {
      smooth_row[key.first_row + j] = smooth[i];
      if (!smooth[i]) beta[key.first_row + j] = 0.0;
    }
  }
  auto smooth_rows = [&smooth_row](Eigen::MatrixXd x) {
    for (int j = 0; j < static_cast<int>(smooth_row.size()); ++j)
      if (!smooth_row[j]) x.row(j).setZero();
    return x;
  };
  const Eigen::VectorXd lambda = ContactImpulseOf(data, beta);
  ASSERT_EQ(lambda.size(), contacts.size() * ContactRows(scene));

  // The structure: G = R J_c, Gᵀβ = J_cᵀλ.
  const Eigen::MatrixXd J_c = StackedContactJacobian(contacts);
  const int contact_rows = data.first_limit_row;
  EXPECT_LT(ScaledError(PyramidRowsOf(data, J_c).topRows(contact_rows),
                        data.G.topRows(contact_rows), 0.0),
            1e-14);
  EXPECT_LT(ScaledError(J_c.transpose() * lambda, data.G.transpose() * beta, 0.0), 1e-13);

  StepDataContraction d, again;
  ASSERT_TRUE(testing::IsOk(
      DifferentiateStepData(model, settings, s.q, s.u, contacts, v, lambda, delta, &d)));
  ASSERT_TRUE(testing::IsOk(
      DifferentiateStepData(model, settings, s.q, s.u, contacts, v, lambda, delta, &again)));
  EXPECT_TRUE(d.d_Jc_v.allFinite() && d.d_JcT_lambda.allFinite() && d.d_phi.allFinite());
  EXPECT_TRUE(d.d_Jc_v == again.d_Jc_v && d.d_JcT_lambda == again.d_JcT_lambda &&
              d.d_phi == again.d_phi);
  PyramidStepDataDerivative dense;
  ASSERT_TRUE(
      testing::IsOk(DifferentiatePyramidStepData(model, settings, s.q, s.u, data, delta, &dense)));
  Eigen::MatrixXd dG_v(m, nv), dGt_beta(nv, nv), dP_v(nv, nv), d_offset(m, nv);
  for (int k = 0; k < nv; ++k) {
    dG_v.col(k) = dense.d_G[k] * v;
    dGt_beta.col(k) = dense.d_G[k].transpose() * beta;
    dP_v.col(k) = dense.d_P[k] * v;
  }
  for (int i = 0; i < contacts.size(); ++i) {
    const PyramidStepData::ContactKey& key = data.contact_keys[i];
    for (int j = 0; j < key.rows; ++j)
      d_offset.row(key.first_row + j) = d.d_phi.row(i) / settings.time_step;
  }
  // The limit rows' offsets move with their joint: G_l/h (arm_cubes: 18 rows, 2 per joint).
  d_offset.bottomRows(limit_rows) = JointLimitRowDerivative(data, settings.time_step);
  const double h = settings.time_step;
  EXPECT_LT(ScaledError(smooth_rows(PyramidRowsOf(data, d.d_Jc_v)), smooth_rows(dG_v),
                        MaxAbs(data.G * v)),
            kRoundOffTolerance);
  EXPECT_LT(ScaledError(d.d_JcT_lambda, dGt_beta, MaxAbs(data.G.transpose() * beta)),
            kRoundOffTolerance);
  EXPECT_LT(ScaledError(smooth_rows(d_offset), smooth_rows(dense.d_offset), MaxAbs(data.G) / h),
            kRoundOffTolerance);
  EXPECT_LT(ScaledError(d.d_tau_h, dense.d_tau_h, MaxAbs(data.tau_h)), kRoundOffTolerance);
  EXPECT_LT(ScaledError(d.d_P_v, dP_v, MaxAbs(data.P * v)), kRoundOffTolerance);
  // Closed form, independent of both difference paths: τ_h,a = h K_a (u − q_a).
  const Eigen::VectorXd K = scene.ActuatedStiffness();
  for (int a = 0; a < scene.nv_a; ++a)
    EXPECT_DOUBLE_EQ(d.d_tau_h(scene.nv_u + a, scene.nv_u + a), -settings.time_step * K[a]);
  // Planar manifold points are vertices against a face (narrow_phase_2d.h), for which
  // dφ/dε_k = J_n e_k exactly (contact_set.h): the central difference agrees up to its
  // truncation O(δ² |φ'''|) and round-off ≈ 1e-16·|φ|/δ, both far below 1e-7.
  if (scene.planar) {
    EXPECT_LT((d.d_phi - contacts.NormalJacobian()).cwiseAbs().maxCoeff(), 1e-7);
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, ContractionAgainstDenseDifferences,
                         ::testing::Values(Case{"planar_gripper", 6}, Case{"planar_gripper", 15},
                                           Case{"planar_hand", 25}, Case{"planar_hand", 60},
                                           Case{"planar_pushing", 50}, Case{"arm_cubes", 87},
                                           Case{"arm_cubes", 201}),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           return param_info.param.example + "_" +
                                  std::to_string(param_info.param.steps);
                         });

TEST(DifferentiateStepData, RowsPerContact) {
  EXPECT_EQ(ContactRows(*LoadExample("planar_hand")), 2);
  EXPECT_EQ(ContactRows(*LoadExample("arm_cubes")), 3);
}

TEST(DifferentiateStepData, RejectsBadInput) {
  const ScenePtr scene = LoadExample("planar_gripper");
  const testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  const ExampleState s = StateAfter(scene, settings, 6);
  const ContactModel model(scene);
  ContactData data = model.CreateData();
  ASSERT_TRUE(model.Compute(s.q, &data));
  const ContactSet& contacts = data.contacts();
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(scene->nv);
  const Eigen::VectorXd lambda = Eigen::VectorXd::Zero(contacts.size() * ContactRows(*scene));
  constexpr double kStep = 6.0555e-6;
  StepDataContraction d;
  EXPECT_TRUE(testing::IsOk(
      DifferentiateStepData(model, settings, s.q, s.u, contacts, v, lambda, kStep, &d)));
  EXPECT_THROW(static_cast<void>(DifferentiateStepData(model, settings, s.q, s.u, contacts, v,
                                                       lambda, kStep, nullptr)),
               std::invalid_argument);
  EXPECT_THROW(static_cast<void>(DifferentiateStepData(model, settings, s.q, s.u, contacts, v,
                                                       lambda.head(1), kStep, &d)),
               std::invalid_argument);
  EXPECT_THROW(static_cast<void>(DifferentiateStepData(model, settings, s.q, s.u, contacts,
                                                       v.head(1), lambda, kStep, &d)),
               std::invalid_argument);
  EXPECT_THROW(static_cast<void>(DifferentiateStepData(model, settings, s.q.head(2), s.u, contacts,
                                                       v, lambda, kStep, &d)),
               std::invalid_argument);
  EXPECT_THROW(static_cast<void>(
                   DifferentiateStepData(model, settings, s.q, s.u, contacts, v, lambda, 0.0, &d)),
               std::invalid_argument);
  EXPECT_THROW(static_cast<void>(DifferentiateStepData(model, settings, s.q, s.u, contacts, v,
                                                       lambda, -1e-6, &d)),
               std::invalid_argument);
}

// A contact of q that is gone at q ⊕ ±δ e_k (here: one 5 cm away, outside the contact
// tolerance, injected into the set) has no derivative: false, and the message says so.
TEST(DifferentiateStepData, ReportsAContactThatDisappears) {
  const ScenePtr scene = LoadExample("planar_gripper");
  const testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
  const ExampleState s = StateAfter(scene, settings, 6);
  const ContactModel model(scene);
  ContactData data = model.CreateData();
  ASSERT_TRUE(model.Compute(s.q, &data));
  std::vector<ContactCandidate> moved = data.geometry().candidates();
  ASSERT_GT(moved.size(), 0u);
  moved[0].point.p_A += Eigen::Vector3d(0.05, 0.0, 0.0);
  moved[0].point.p_B += Eigen::Vector3d(0.05, 0.0, 0.0);
  ContactSet contacts;
  UpdateContactSet(*scene, data.kinematics(), moved, &contacts);
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(scene->nv);
  const Eigen::VectorXd lambda = Eigen::VectorXd::Zero(contacts.size() * ContactRows(*scene));
  StepDataContraction d;
  const Outcome outcome =
      DifferentiateStepData(model, settings, s.q, s.u, contacts, v, lambda, 6.0555e-6, &d);
  EXPECT_FALSE(outcome.ok());
  EXPECT_NE(outcome.message().find("disappears"), std::string::npos) << outcome.message();
}

}  // namespace
}  // namespace quasidyn
