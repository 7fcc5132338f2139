#include "quasidyn/formulations/halm_posa/halm_posa_keys.h"

#include <Eigen/Eigenvalues>
#include <sstream>
#include <string>
#include <vector>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/io/body_reader.h"

namespace quasidyn {
namespace {

std::string Text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// Ã of one object's `limit_surface` key: symmetric (relative 1e-9, typed values) and positive
// definite, else a failure at the key.
Eigen::Matrix3d ReadLimitSurface(const YamlValue& value) {
  const Eigen::Matrix3d A = ReadPrincipalOrMatrix(value);
  const double scale = A.cwiseAbs().maxCoeff();
  if ((A - A.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale) {
    value.Fail("the limit surface's Hessian must be symmetric");
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(A, Eigen::EigenvaluesOnly);
  if (!(eigen.eigenvalues().minCoeff() > 0.0)) {
    value.Fail("the limit surface's Hessian must be positive definite (smallest eigenvalue " +
               Text(eigen.eigenvalues().minCoeff()) + ")");
  }
  return A;
}

void ReadLimitSurfaces(const YamlValue& root, const Scene* scene, HalmPosaSceneKeys* keys) {
  const auto objects = root.Find("objects");
  if (!objects) return;
  for (const YamlValue& object : objects->Items()) {
    const auto surface = object.Find("limit_surface");
    if (!surface) continue;
    if (!scene->planar) {
      surface->Fail("limit surfaces are for planar scenes (objects sliding on the x-y plane)");
    }
    if (object.Get("joint").AsString() != "planar") {
      surface->Fail("only an object with a planar joint slides on the plane");
    }
    const int instance = scene->InstanceIndex(object.Get("name").AsString());
    keys->limit_surfaces.at(instance) = ReadLimitSurface(*surface);
  }
}

}  // namespace

std::string FeedbackGainsProblem(const Eigen::MatrixXd& gains) {
  if (gains.size() == 0) return "";
  if (!gains.allFinite()) return "B must be finite";
  if (gains.cols() == 1) {
    for (Eigen::Index i = 0; i < gains.rows(); ++i) {
      if (!(gains(i, 0) > 0.0)) {
        return "B must be positive definite: entry " + std::to_string(i) + " is " +
               Text(gains(i, 0)) + " (every diagonal gain must be > 0)";
      }
    }
    return "";
  }
  if (gains.rows() != gains.cols()) {
    return "B must be a number, a list (the diagonal) or a square matrix (got " +
           std::to_string(gains.rows()) + " x " + std::to_string(gains.cols()) + ")";
  }
  const double scale = gains.cwiseAbs().maxCoeff();
  if ((gains - gains.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale) {
    return "B must be symmetric";
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(gains, Eigen::EigenvaluesOnly);
  if (!(eigen.eigenvalues().minCoeff() > 0.0)) {
    return "B must be positive definite (smallest eigenvalue " +
           Text(eigen.eigenvalues().minCoeff()) + ")";
  }
  return "";
}

Eigen::MatrixXd FeedbackGainMatrix(const Eigen::MatrixXd& gains, int n, const ValueSource& source) {
  if (gains.size() == 0) return Eigen::MatrixXd::Identity(n, n);
  if (gains.size() == 1) return gains(0, 0) * Eigen::MatrixXd::Identity(n, n);
  if (gains.rows() != n) {
    FailAt(source, "B has " + std::to_string(gains.rows()) +
                       (gains.cols() == 1 ? " diagonal entries" : " rows") + "; the scene has " +
                       std::to_string(n) + " actuated coordinates");
  }
  if (gains.cols() == 1) return gains.col(0).asDiagonal();
  return gains;
}

std::vector<ParameterSpec> HalmPosaParameterSpecs() {
  ParameterSpec gains;
  gains.key = "B";
  gains.unit = "m/(s·N) prismatic, rad/(s·N·m) revolute";
  gains.range =
      "a number > 0, a list of numbers > 0 (the diagonal) or a symmetric positive "
      "definite n_q,a × n_q,a matrix";
  // A std::string, not the literal: assigning a one-character literal trips GCC 12's
  // -Wrestrict (GCC bug 105329).
  gains.default_text = std::string("I");
  gains.description =
      "the relative feedback gains B of −F_m = (1/c) B⁻¹ (u − q̇_m) (Halm & Posa 2018, eq. 15)";
  gains.problem = FeedbackGainsProblem;
  return {NumberParameter("c", kFeedbackScaleRange, "0.01",
                          "the feedback scaling c of −F_m = (1/c) B⁻¹ (u − q̇_m) (Halm & Posa "
                          "2018, eq. 15); 0 is perfect velocity control (eqs. 13-14)",
                          "feedback scaling c"),
          gains,
          NumberParameter("tracking_gain", kTrackingGainRange, "0",
                          "k_p with which a schedule's commanded velocity corrects the robots' "
                          "tracking error (halm_posa_model.h); 5 in the peg in hole of the "
                          "authors' MATLAB code (not stated in the paper)")};
}

void ReadHalmPosaSceneKeys(const YamlValue& root, Scene* scene) {
  auto keys = std::make_shared<HalmPosaSceneKeys>();
  keys->limit_surfaces.resize(scene->instances.size());
  ReadLimitSurfaces(root, scene, keys.get());
  scene->extensions[kHalmPosaName] = std::move(keys);
  if (scene->formulation.name != kHalmPosaName) return;
  const YamlValue formulation = root.Get("formulation");
  const YamlValue type = formulation.Get("type");
  if (!scene->planar) {
    type.Fail(
        "halm-posa is a planar model (objects sliding on the x-y plane): it needs "
        "dimension: 2");
  }
  if (scene->gravity.head<2>().norm() > 0.0) {
    const std::string problem =
        "halm-posa scenes look down on a horizontal support plane (gravity acts through the "
        "limit surface), so gravity must have no x-y part: set gravity: [0, 0, 0]";
    if (const auto gravity = root.Find("gravity")) gravity->Fail(problem);
    type.Fail(problem + " (the planar default is [0, -9.81, 0])");
  }
  if (const ParameterValue* gains = scene->formulation.parameters.Find("B"))
    FeedbackGainMatrix(gains->value, scene->nq_a, gains->source);
}

}  // namespace quasidyn
