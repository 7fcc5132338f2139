#include "quasidyn/model/formulation_spec.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

namespace quasidyn {

const char* FormulationSpecNames() {
  return "qp, socp, log-barrier, log-barrier-cone, lcp, halm-posa, stewart-trinkle, anitescu, "
         "ecp";
}

bool IsFormulationSpecName(const std::string& name) {
  return name == "qp" || name == "socp" || name == "log-barrier" || name == "log-barrier-cone" ||
         name == "lcp" || name == "halm-posa" || name == "stewart-trinkle" || name == "anitescu" ||
         name == "ecp";
}

std::string FormulationParameterProblem(const std::string& key, double value) {
  if (key != "kappa" && key != "object_mass_scale" && key != "c" && key != "tracking_gain" &&
      key != "unactuated_mass_scale" && key != "e_t" && key != "e_o" && key != "e_r") {
    return "unknown formulation parameter '" + key +
           "' (kappa, object_mass_scale, unactuated_mass_scale, c, B, tracking_gain, e_t, e_o, "
           "e_r)";
  }
  if (!std::isfinite(value)) return key + " must be finite";
  if (key == "kappa" && !(value > 0.0)) return "kappa must be > 0 [1/(N·m)]";
  if (key == "object_mass_scale" && !(value >= 0.0)) return "object_mass_scale must be >= 0";
  if (key == "tracking_gain" && !(value >= 0.0)) return "tracking_gain must be >= 0 [1/s]";
  if (key == "c" && !(value >= 0.0))
    return "c must be >= 0 (the feedback scaling; 0 = perfect "
           "velocity control)";
  if (key == "unactuated_mass_scale" && !(value >= 0.0))
    return "unactuated_mass_scale must be >= 0";
  if ((key == "e_t" || key == "e_o") && !(value > 0.0))
    return key + " must be > 0 (a semi-axis of the friction ellipsoid, dimensionless)";
  if (key == "e_r" && !(value > 0.0))
    return "e_r must be > 0 [m] (the torsional semi-axis of the friction ellipsoid)";
  return "";
}

namespace {

std::string Text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
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

Eigen::MatrixXd FeedbackGainMatrix(const Eigen::MatrixXd& gains, int n, std::string* problem) {
  problem->clear();
  if (gains.size() == 0) return Eigen::MatrixXd::Identity(n, n);
  if (gains.size() == 1) return gains(0, 0) * Eigen::MatrixXd::Identity(n, n);
  if (gains.rows() != n) {
    *problem = "B has " + std::to_string(gains.rows()) +
               (gains.cols() == 1 ? " diagonal entries" : " rows") + "; the scene has " +
               std::to_string(n) + " actuated coordinates";
    return Eigen::MatrixXd();
  }
  if (gains.cols() == 1) return gains.col(0).asDiagonal();
  return gains;
}

}  // namespace quasidyn
