#include "quasidyn/dynamics/step_problem.h"

#include <limits>
#include <sstream>

namespace quasidyn {

void FillContactReports(const StepProblem& problem, const FormulationSolution& solution,
                        StepResult* result) {
  const double h = problem.settings.time_step;
  result->contacts.clear();
  for (int i = 0; i < problem.contacts.size(); ++i) {
    const Contact& c = problem.contacts.contacts[i];
    ContactReport report;
    report.geometry_a = c.geometry_a;
    report.geometry_b = c.geometry_b;
    report.body_a = c.body_a;
    report.body_b = c.body_b;
    report.point = c.p_B;
    report.normal = c.normal;
    report.phi_start = c.phi;
    report.phi_end = c.phi + h * c.J_n.dot(solution.v);
    report.normal_force = solution.normal_impulse[i] / h;
    report.friction_force = solution.friction_impulse.col(i) / h;
    result->contacts.push_back(report);
  }
}

std::string DescribeWorstContact(const StepProblem& problem, const Eigen::VectorXd& v) {
  const double h = problem.settings.time_step;
  double worst = std::numeric_limits<double>::infinity();
  int worst_contact = -1;
  for (int i = 0; i < problem.contacts.size(); ++i) {
    const Contact& c = problem.contacts.contacts[i];
    for (int j = 0; j < c.J_d.rows(); ++j) {
      const double value = c.phi / h + (c.J_n + c.friction * c.J_d.row(j)).dot(v);
      if (value < worst) {
        worst = value;
        worst_contact = i;
      }
    }
  }
  if (worst_contact < 0) return "no contact";
  const Contact& c = problem.contacts.contacts[worst_contact];
  std::ostringstream s;
  s << "contact " << worst_contact << " (" << problem.scene.geometries[c.geometry_a].name << " / "
    << problem.scene.geometries[c.geometry_b].name << ", phi = " << c.phi << " m)";
  return s.str();
}

}  // namespace quasidyn
