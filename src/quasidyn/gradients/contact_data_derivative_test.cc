#include "quasidyn/gradients/contact_data_derivative.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "quasidyn/gradients/gradient_test_support.h"
#include "quasidyn/gradients/step_data_derivative.h"

namespace quasidyn {
namespace {

using testing::LoadExample;
using testing::State;
using testing::StateAfter;

// Both paths difference the same data at the same q ⊕ ±δ e_k (δ = 6e-6), one by re-running
// the whole contact engine and building dense matrices (step_data_derivative.h), the other
// pair by pair and contracted; they differ by round-off only: ε_machine·|data|/δ ≈ 4e-11
// relative. 1e-8 leaves a margin of 250, while a missed term (a moved contact treated as
// fixed, a wrong sign or row) changes entries by O(1) relative.
constexpr double kRoundOffTolerance = 1e-8;

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
  const Eigen::VectorXd lambda = ContactImpulseOf(data, beta);
  ASSERT_EQ(lambda.size(), contacts.size() * ContactRows(scene));

  // The structure: G = R J_c, Gᵀβ = J_cᵀλ.
  const Eigen::MatrixXd J_c = StackedContactJacobian(contacts);
  EXPECT_LT(ScaledError(PyramidRowsOf(data, J_c), data.G, 0.0), 1e-14);
  EXPECT_LT(ScaledError(J_c.transpose() * lambda, data.G.transpose() * beta, 0.0), 1e-13);

  const StepDataContraction d =
      DifferentiateStepData(&engine, settings, s.q, s.u, contacts, v, lambda);
  const PyramidStepDataDerivative dense =
      DifferentiatePyramidStepData(&engine, settings, s.q, s.u, data);
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
  EXPECT_LT(ScaledError(PyramidRowsOf(data, d.d_Jc_v), dG_v, MaxAbs(data.G * v)),
            kRoundOffTolerance);
  EXPECT_LT(ScaledError(d.d_JcT_lambda, dGt_beta, MaxAbs(data.G.transpose() * beta)),
            kRoundOffTolerance);
  EXPECT_LT(ScaledError(d_offset, dense.d_offset, MaxAbs(data.G) / h), kRoundOffTolerance);
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
    EXPECT_NE(std::string(error.what()).find("velocity direction"), std::string::npos);
  }
}

}  // namespace
}  // namespace quasidyn
