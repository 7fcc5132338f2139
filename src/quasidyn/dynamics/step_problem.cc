#include "quasidyn/dynamics/step_problem.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace quasidyn {

void FormulationSolution::Start(SolverStatus solver_status, const SolverSummary& summary,
                                const Eigen::VectorXd& x, int contact_count, int limit_count) {
  status = solver_status;
  solver = summary;
  message.clear();
  v = x;
  normal_impulse.assign(contact_count, 0.0);
  friction_impulse.assign(contact_count, Eigen::Vector3d::Zero());
  limit_impulse.setZero(limit_count);
}

void FillContactReports(const StepProblem& problem, const FormulationSolution& solution,
                        std::vector<ContactReport>* reports) {
  const double h = problem.time_step;
  const ContactSet& contacts = problem.contacts;
  reports->resize(contacts.size());
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    ContactReport& report = (*reports)[i];
    report.geometry_a = c.geometry_a;
    report.geometry_b = c.geometry_b;
    report.body_a = c.body_a;
    report.body_b = c.body_b;
    report.point = c.p_B;
    report.normal = c.normal;
    report.phi_start = c.phi;
    report.phi_end = c.phi + h * contacts.NormalVelocity(i, solution.v);
    report.normal_impulse = solution.normal_impulse[i];
    report.friction_impulse = solution.friction_impulse[i];
    report.normal_force = solution.normal_impulse[i] / h;
    report.friction_force = solution.friction_impulse[i] / h;
  }
}

int FirstNonFiniteContact(const ContactSet& contacts) {
  // The Jacobians contact by contact only when one of them is not finite.
  const bool jacobians_finite = contacts.JacobiansFinite();
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const bool finite = std::isfinite(c.phi) && c.p_A.allFinite() && c.p_B.allFinite() &&
                        c.normal.allFinite() &&
                        (jacobians_finite || (contacts.NormalJacobian(i).allFinite() &&
                                              contacts.TangentJacobian(i).allFinite() &&
                                              contacts.RayJacobian(i).allFinite()));
    if (!finite) return i;
  }
  return -1;
}

std::string DescribeWorstContact(const StepProblem& problem, const Eigen::VectorXd& v) {
  const double h = problem.time_step;
  const ContactSet& contacts = problem.contacts;
  double worst = std::numeric_limits<double>::infinity();
  int worst_contact = -1;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const std::span<const int> columns = contacts.Columns(i);
    const ContactSet::RowMap J_n = contacts.NormalJacobian(i);
    const ContactSet::RowsMap J_d = contacts.RayJacobian(i);
    for (int j = 0; j < J_d.rows(); ++j) {
      double rate = 0.0;  // (J_n,i + μ_i J_d,ij) v
      for (size_t k = 0; k < columns.size(); ++k) {
        const int col = static_cast<int>(k);
        rate += (J_n[col] + c.friction * J_d(j, col)) * v[columns[k]];
      }
      const double value = c.phi / h + rate;
      if (value < worst) {
        worst = value;
        worst_contact = i;
      }
    }
  }
  // The joint-limit rows (joint_limit_rows.h) are ranked with the contacts, in the same units.
  const JointLimitRows& limits = problem.cost.limits;
  int worst_limit = -1;
  if (v.size() == problem.scene.nv) {
    for (int l = 0; l < limits.size(); ++l) {
      const double value = JointLimitSlack(limits, l, v);
      if (value < worst) {
        worst = value;
        worst_limit = l;
      }
    }
  }
  if (worst_limit >= 0) {
    const JointLimitRow& row = limits.rows[worst_limit];
    std::ostringstream s;
    s << "the " << (row.direction > 0 ? "lower" : "upper") << " limit " << row.bound << " of joint "
      << problem.scene.joints[row.joint].name;
    return s.str();
  }
  if (worst_contact < 0) return "no contact";
  const Contact& c = contacts[worst_contact];
  std::ostringstream s;
  s << "contact " << worst_contact << " (" << problem.scene.geometries[c.geometry_a].name << " / "
    << problem.scene.geometries[c.geometry_b].name << ", phi = " << c.phi << " m)";
  return s.str();
}

std::string DescribeOverlap(const StepProblem& problem) {
  const ContactSet& contacts = problem.contacts;
  int deepest = -1;
  for (int i = 0; i < contacts.size(); ++i) {
    if (contacts[i].phi < 0.0 && (deepest < 0 || contacts[i].phi < contacts[deepest].phi))
      deepest = i;
  }
  if (deepest < 0) return "";
  const Contact& c = contacts[deepest];
  const Scene& scene = problem.scene;
  std::ostringstream s;
  s << "the start overlaps: deepest " << scene.geometries[c.geometry_a].name << " / "
    << scene.geometries[c.geometry_b].name << " (phi = " << c.phi
    << " m); the step must separate them at J_n v >= -phi/h = " << -c.phi / problem.time_step
    << " m/s";
  // A zero normal row: no velocity of either body moves them apart along n (both pinned along
  // it, e.g. a robot and an object that move along y only, with coincident centres and a normal
  // along x), so φ/h + J_n v >= 0 fails for every v. The scale: the row's largest entry against
  // the lever arm of the contact point (1 m at most).
  const ContactSet::RowMap J_n = contacts.NormalJacobian(deepest);
  if (J_n.size() == 0 || J_n.cwiseAbs().maxCoeff() <= 1e-12) {
    s << ", but its row J_n is zero: neither " << scene.bodies[c.body_a].name << " nor "
      << scene.bodies[c.body_b].name << " can move along the normal (" << c.normal.x() << ", "
      << c.normal.y() << ", " << c.normal.z() << ")";
  } else if (problem.cost.limits.size() > 0) {
    s << " against " << problem.cost.limits.size() << " joint-limit row(s)";
  }
  return s.str();
}

}  // namespace quasidyn
