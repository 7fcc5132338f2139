#include "quasidyn/io/halm_posa_keys.h"

#include <Eigen/Eigenvalues>
#include <sstream>
#include <string>
#include <vector>

#include "quasidyn/io/body_reader.h"

namespace quasidyn {
namespace {

constexpr const char* kHalmPosa = "halm-posa";

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

void ApplyLimitSurfaces(const YamlValue& root, Scene* scene) {
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
    scene->instances.at(instance).limit_surface = ReadLimitSurface(*surface);
  }
}

}  // namespace

Eigen::MatrixXd ReadFeedbackGains(const YamlValue& value) {
  Eigen::MatrixXd gains;
  if (value.IsScalar()) {
    gains = Eigen::MatrixXd::Constant(1, 1, value.AsDouble());
  } else {
    const std::vector<YamlValue> items = value.Items();
    if (items.empty()) value.Fail("B needs at least one entry");
    if (items.front().IsSequence()) {
      const int n = static_cast<int>(items.size());
      gains.resize(n, n);
      for (int r = 0; r < n; ++r) gains.row(r) = items[r].AsVector(n).transpose();
    } else {
      gains = value.AsVector();
    }
  }
  const std::string problem = FeedbackGainsProblem(gains);
  if (!problem.empty()) value.Fail(problem);
  return gains;
}

void ApplyHalmPosaKeys(const YamlValue& root, Scene* scene) {
  ApplyLimitSurfaces(root, scene);
  if (scene->formulation.type != kHalmPosa) return;
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
  if (const auto gains = formulation.Find("B")) {
    std::string problem;
    FeedbackGainMatrix(scene->formulation.feedback_gains, scene->nq_a, &problem);
    if (!problem.empty()) gains->Fail(problem);
  }
}

}  // namespace quasidyn
