#pragma once
// The time-stepping formulation a scene asks for, as its file gave it, and the table of the
// names and parameters a scene may give: the loader checks a scene against it (with file and
// line), the dynamics layer (dynamics/formulation_settings.h) interprets it.

#include <Eigen/Core>
#include <map>
#include <string>

namespace quasidyn {

struct FormulationSpec {
  std::string type = "qp";  // one of FormulationSpecNames()
  std::map<std::string, double> parameters;
  // halm-posa's relative feedback gains B (Halm & Posa 2018, eq. (15)) as the file gave them:
  // 0 × 0 when absent (B = I), 1 × 1 for b·I, n × 1 for diag(b_1 … b_n), n × n for the matrix.
  Eigen::MatrixXd feedback_gains;
};

// "qp, socp, log-barrier, log-barrier-cone, lcp, halm-posa, stewart-trinkle, anitescu, ecp".
const char* FormulationSpecNames();
bool IsFormulationSpecName(const std::string& name);

// Empty when `value` is valid for formulation parameter `key`; otherwise what is wrong:
//   kappa              κ [1/(N·m)], finite and > 0 (log-barrier weight)
//   object_mass_scale  s [-], finite and >= 0 (objects' regularisation ½ s vᵀ M_u v)
//   unactuated_mass_scale  c_u [-], finite and >= 0: s from the reference simulator's rule
//                      (dynamics/object_mass_scale.h); not together with object_mass_scale
//   c                  feedback scaling c [-], finite and >= 0 (halm-posa, Halm & Posa 2018,
//                      eq. (15); c = 0 is perfect velocity control)
//   tracking_gain      k_p [1/s], finite and >= 0 (halm-posa: how the commanded velocity read
//                      from a schedule corrects the robots' tracking error)
//   e_t, e_o           [-], finite and > 0; e_r [m], finite and > 0: the semi-axes of the
//                      friction ellipsoid (ecp, Xie & Chakraborty eq. (6))
// (`B`, halm-posa's gains, is a matrix: FeedbackGainsProblem.)
std::string FormulationParameterProblem(const std::string& key, double value);

// Empty when `gains` is a valid FormulationSpec::feedback_gains (0 × 0; or finite and 1 × 1
// or n × 1 with every entry > 0; or n × n symmetric positive definite); otherwise what is
// wrong, e.g. "B must be positive definite (smallest eigenvalue -1)".
std::string FeedbackGainsProblem(const Eigen::MatrixXd& gains);

// The n × n matrix B of valid `gains` for n actuated coordinates (0 × 0: I; 1 × 1: b·I;
// n × 1: diag; n × n: itself). Sets *problem (and returns an empty matrix) when the size does
// not fit n, e.g. "B has 3 diagonal entries; the scene has 4 actuated coordinates".
Eigen::MatrixXd FeedbackGainMatrix(const Eigen::MatrixXd& gains, int n, std::string* problem);

}  // namespace quasidyn
