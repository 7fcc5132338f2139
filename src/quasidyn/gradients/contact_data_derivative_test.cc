#include "quasidyn/gradients/contact_data_derivative.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "quasidyn/gradients/gradient_test_support.h"
#include "quasidyn/gradients/step_data_derivative.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {
namespace {

using testing::LoadExample;
using testing::State;
using testing::StateAfter;

// Both paths are central differences with δ = 6e-6 of the same data, one along each q ⊕ ±δ e_k
// by re-running the whole contact engine and building dense matrices (step_data_derivative.h),
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
// (above), from the contact engine at q ⊕ ±δ e_k (independent of both paths under test).
std::vector<bool> DifferentiableContacts(const Scene& scene, ContactEngine* engine,
                                         const Eigen::VectorXd& q, const ContactSet& contacts,
                                         double delta) {
  std::vector<bool> smooth(contacts.size(), true);
  for (int k = 0; k < scene.nv; ++k) {
    const Eigen::VectorXd e_k = Eigen::VectorXd::Unit(scene.nv, k);
    const ContactSet plus = engine->Compute(IntegrateConfiguration(scene, q, e_k, delta));
    const ContactSet minus = engine->Compute(IntegrateConfiguration(scene, q, e_k, -delta));
    for (int i = 0; i < contacts.size(); ++i) {
      const Contact& at = contacts.contacts[i];
      auto nearest = [&at](const ContactSet& set) {
        const Contact* best = nullptr;
        double best_distance = 1e300;
        for (const Contact& c : set.contacts) {
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
  engine->Compute(q);
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
  const Scene scene = LoadExample(c.example);
  FormulationSettings settings = SettingsFromScene(scene);
  settings.type = FormulationType::kQp;
  const State s = StateAfter(scene, settings, c.steps);

  ContactEngine engine(scene);
  const PyramidStepData data = BuildPyramidStepData(&engine, settings, s.q, s.u);
  const ContactSet contacts = engine.Compute(s.q);
  ASSERT_GT(contacts.size(), 0);
  const int nv = scene.nv, m = static_cast<int>(data.G.rows());
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::VectorXd v(nv), beta(m);
  for (int i = 0; i < nv; ++i) v[i] = uniform(random);
  for (int j = 0; j < m; ++j) beta[j] = uniform(random);

  // The comparison is where the geometry has a derivative: the rows of the other contacts are
  // left out and their impulses set to zero. Where it has none (a kink), the two differences
  // are different conventions; there the contraction must still be finite and deterministic.
  const double delta = 6.0555e-6;
  const std::vector<bool> smooth = DifferentiableContacts(scene, &engine, s.q, contacts, delta);
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
  EXPECT_LT(ScaledError(PyramidRowsOf(data, J_c), data.G, 0.0), 1e-14);
  EXPECT_LT(ScaledError(J_c.transpose() * lambda, data.G.transpose() * beta, 0.0), 1e-13);

  const StepDataContraction d =
      DifferentiateStepData(&engine, settings, s.q, s.u, contacts, v, lambda, delta);
  const StepDataContraction again =
      DifferentiateStepData(&engine, settings, s.q, s.u, contacts, v, lambda, delta);
  EXPECT_TRUE(d.d_Jc_v.allFinite() && d.d_JcT_lambda.allFinite() && d.d_phi.allFinite());
  EXPECT_TRUE(d.d_Jc_v == again.d_Jc_v && d.d_JcT_lambda == again.d_JcT_lambda &&
              d.d_phi == again.d_phi);
  const PyramidStepDataDerivative dense =
      DifferentiatePyramidStepData(&engine, settings, s.q, s.u, data, delta);
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
                                           Case{"arm_cubes", 200}),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           return param_info.param.example + "_" +
                                  std::to_string(param_info.param.steps);
                         });

TEST(DifferentiateStepData, RowsPerContact) {
  EXPECT_EQ(ContactRows(LoadExample("planar_hand")), 2);
  EXPECT_EQ(ContactRows(LoadExample("arm_cubes")), 3);
}

TEST(DifferentiateStepData, RejectsBadInput) {
  const Scene scene = LoadExample("planar_gripper");
  const FormulationSettings settings = SettingsFromScene(scene);
  const State s = StateAfter(scene, settings, 6);
  ContactEngine engine(scene);
  const ContactSet contacts = engine.Compute(s.q);
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(scene.nv);
  const Eigen::VectorXd lambda = Eigen::VectorXd::Zero(contacts.size() * ContactRows(scene));
  EXPECT_NO_THROW(DifferentiateStepData(&engine, settings, s.q, s.u, contacts, v, lambda));
  EXPECT_THROW(DifferentiateStepData(nullptr, settings, s.q, s.u, contacts, v, lambda),
               std::invalid_argument);
  EXPECT_THROW(DifferentiateStepData(&engine, settings, s.q, s.u, contacts, v, lambda.head(1)),
               std::invalid_argument);
  EXPECT_THROW(DifferentiateStepData(&engine, settings, s.q, s.u, contacts, v.head(1), lambda),
               std::invalid_argument);
  EXPECT_THROW(DifferentiateStepData(&engine, settings, s.q.head(2), s.u, contacts, v, lambda),
               std::invalid_argument);
  EXPECT_THROW(DifferentiateStepData(&engine, settings, s.q, s.u, contacts, v, lambda, 0.0),
               std::invalid_argument);
  EXPECT_THROW(DifferentiateStepData(&engine, settings, s.q, s.u, contacts, v, lambda, -1e-6),
               std::invalid_argument);
}

// A contact of q that is gone at q ⊕ ±δ e_k (here: one 5 cm away, outside the contact
// tolerance, injected into the set) has no derivative: runtime_error naming the direction.
TEST(DifferentiateStepData, ThrowsWhenAContactDisappears) {
  const Scene scene = LoadExample("planar_gripper");
  const FormulationSettings settings = SettingsFromScene(scene);
  const State s = StateAfter(scene, settings, 6);
  ContactEngine engine(scene);
  ContactSet contacts = engine.Compute(s.q);
  ASSERT_GT(contacts.size(), 0);
  contacts.contacts[0].p_A += Eigen::Vector3d(0.05, 0.0, 0.0);
  contacts.contacts[0].p_B += Eigen::Vector3d(0.05, 0.0, 0.0);
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(scene.nv);
  const Eigen::VectorXd lambda = Eigen::VectorXd::Zero(contacts.size() * ContactRows(scene));
  try {
    DifferentiateStepData(&engine, settings, s.q, s.u, contacts, v, lambda);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("disappears"), std::string::npos);
  }
}

}  // namespace
}  // namespace quasidyn
