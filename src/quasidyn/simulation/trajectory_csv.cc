#include "quasidyn/simulation/trajectory_csv.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include "quasidyn/simulation/coordinate_names.h"

namespace quasidyn {
namespace {

// A cell as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote or a
// line break.
std::string Cell(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

// The shortest decimal form that reads back to the same double.
void AppendNumber(double x, std::string* out) {
  char buffer[32];
  const std::to_chars_result end = std::to_chars(buffer, buffer + sizeof(buffer), x);
  out->append(buffer, end.ptr);
}

std::vector<std::string> IndexNames(int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(std::to_string(i));
  return names;
}

// The names of v's entries: the scene's when the trajectory holds it and the sizes agree.
std::vector<std::string> VelocityColumns(const Trajectory& trajectory, int nv) {
  if (trajectory.scene && trajectory.scene->nv == nv) return VelocityNames(*trajectory.scene);
  return IndexNames(nv);
}

// The names of u's entries: the actuated coordinates, or (ecp) the objects' applied impulses.
std::vector<std::string> CommandColumns(const Trajectory& trajectory) {
  const int nu = trajectory.CommandSize();
  const int nq_a = trajectory.nq - trajectory.nq_u;
  if (nu == nq_a && static_cast<int>(trajectory.coordinate_names.size()) == trajectory.nq)
    return std::vector<std::string>(trajectory.coordinate_names.end() - nq_a,
                                    trajectory.coordinate_names.end());
  if (trajectory.scene) {
    std::vector<std::string> names = ImpulseNames(*trajectory.scene);
    if (static_cast<int>(names.size()) == nu) return names;
  }
  return IndexNames(nu);
}

void AppendVector(const Eigen::VectorXd& values, int size, std::string* row) {
  for (int i = 0; i < size; ++i) {
    *row += ',';
    if (i < values.size()) AppendNumber(values[i], row);
  }
}

}  // namespace

std::string TrajectoryToCsv(const Trajectory& trajectory) {
  const int nq = static_cast<int>(trajectory.q0.size());
  int nv = static_cast<int>(trajectory.v0.size());
  for (const TrajectoryStep& step : trajectory.steps)
    nv = std::max(nv, static_cast<int>(step.v.size()));
  const int nu = trajectory.CommandSize();
  std::vector<std::string> q_names = trajectory.coordinate_names;
  if (static_cast<int>(q_names.size()) != nq) q_names = IndexNames(nq);

  std::string text = "k,t,status,iterations,contacts";
  const auto add_columns = [&text](const char* prefix, const std::vector<std::string>& names) {
    for (const std::string& name : names) {
      text += ',';
      text += Cell(prefix + name);
    }
  };
  add_columns("q:", q_names);
  add_columns("v:", VelocityColumns(trajectory, nv));
  add_columns("u:", CommandColumns(trajectory));
  text += '\n';

  text += "0,0,initial,0,0";
  AppendVector(trajectory.q0, nq, &text);
  AppendVector(trajectory.v0, nv, &text);
  AppendVector(Eigen::VectorXd(), nu, &text);
  text += '\n';
  for (const TrajectoryStep& step : trajectory.steps) {
    text += std::to_string(step.k);
    text += ',';
    AppendNumber(step.t, &text);
    text += ',';
    text += ToString(step.status);
    text += ',';
    text += std::to_string(step.solver.iterations);
    text += ',';
    text += std::to_string(step.contacts.size());
    AppendVector(step.q, nq, &text);
    AppendVector(step.v, nv, &text);
    AppendVector(step.u, nu, &text);
    text += '\n';
  }
  return text;
}

}  // namespace quasidyn
