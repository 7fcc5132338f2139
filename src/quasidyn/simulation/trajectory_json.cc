#include "quasidyn/simulation/trajectory_json.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/simulation/trajectory_values.h"

namespace quasidyn {
namespace {

using nlohmann::json;

constexpr const char* kFormatName = "quasidyn-trajectory";

// ---- writing ----

json Number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

json NumberArray(const Eigen::Ref<const Eigen::VectorXd>& x) {
  json out = json::array();
  for (Eigen::Index i = 0; i < x.size(); ++i) out.push_back(Number(x[i]));
  return out;
}

json ContactToJson(const ContactRecord& c, bool torsion) {
  json out = {{"shape_a", c.shape_a},
              {"shape_b", c.shape_b},
              {"body_a", c.body_a},
              {"body_b", c.body_b},
              {"point", NumberArray(c.point)},
              {"normal", NumberArray(c.normal)},
              {"phi_start", Number(c.phi_start)},
              {"phi_end", Number(c.phi_end)},
              {"normal_force", Number(c.normal_force)},
              {"friction_force", NumberArray(c.friction_force)},
              {"normal_impulse", Number(c.normal_impulse)},
              {"friction_impulse", NumberArray(c.friction_impulse)}};
  if (torsion) {  // ecp: the moment about the normal at the equivalent contact point
    out["torsional_impulse"] = Number(c.torsional_impulse);
    out["torsional_moment"] = Number(c.torsional_moment);
  }
  return out;
}

// Row-major: an array of rows.
json MatrixToJson(const Eigen::MatrixXd& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) rows.push_back(NumberArray(m.row(i).transpose()));
  return rows;
}

json StepToJson(const TrajectoryStep& step, bool torsion) {
  json contacts = json::array();
  for (const ContactRecord& c : step.contacts) contacts.push_back(ContactToJson(c, torsion));
  json out = {{"k", step.k},
              {"t", Number(step.t)},
              {"q", NumberArray(step.q)},
              {"u", NumberArray(step.u)},
              {"status", std::string(ToString(step.status))},
              {"solver",
               {{"iterations", step.solver.iterations},
                {"primal_residual", Number(step.solver.primal_residual)},
                {"dual_residual", Number(step.solver.dual_residual)},
                {"complementarity_gap", Number(step.solver.complementarity_gap)},
                {"solve_time", Number(step.solver.solve_time_seconds)},
                {"polished", step.solver.polished}}},
              {"step_time", Number(step.step_time_seconds)},
              {"contacts", contacts}};
  // Optional fields: written when the step has them.
  if (step.v.size() > 0) out["v"] = NumberArray(step.v);
  if (step.momentum_force.size() > 0) out["momentum_force"] = NumberArray(step.momentum_force);
  if (step.large_motion) {  // the warning and its size, on the steps that carry it
    out["large_motion"] = true;
    out["max_body_motion"] = Number(step.max_body_motion);
  }
  if (step.joint_limit_impulse.size() > 0)
    out["joint_limit_impulse"] = NumberArray(step.joint_limit_impulse);
  if (step.gradient_status != SolverStatus::kNotRun) {
    out["gradient_status"] = std::string(ToString(step.gradient_status));
    out["gradient_message"] = step.gradient_message;
    if (step.A.size() > 0) out["A"] = MatrixToJson(step.A);
    if (step.B.size() > 0) out["B"] = MatrixToJson(step.B);
  }
  return out;
}

// ---- reading: every helper names the field it reads in its errors ----

[[noreturn]] void Fail(const std::string& where, const std::string& problem) {
  throw std::invalid_argument(where + ": " + problem);
}

const json& Field(const json& object, const char* key, const std::string& where) {
  if (!object.is_object()) Fail(where, "expected an object");
  const auto it = object.find(key);
  if (it == object.end()) Fail(where.empty() ? key : where + "." + key, "missing");
  return *it;
}

std::string Path(const std::string& where, const char* key) {
  return where.empty() ? key : where + "." + key;
}

double ReadNumber(const json& j, const std::string& where) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  Fail(where, "expected a number (or \"NaN\", \"Infinity\", \"-Infinity\"), got " + j.dump());
}

double ReadNumber(const json& object, const char* key, const std::string& where) {
  return ReadNumber(Field(object, key, where), Path(where, key));
}

int ReadInt(const json& object, const char* key, const std::string& where, int minimum) {
  const json& j = Field(object, key, where);
  if (!j.is_number_integer()) Fail(Path(where, key), "expected an integer, got " + j.dump());
  const auto value = j.get<long long>();
  if (value < minimum || value > std::numeric_limits<int>::max())
    Fail(Path(where, key),
         "must be >= " + std::to_string(minimum) + " (got " + std::to_string(value) + ")");
  return static_cast<int>(value);
}

std::string ReadString(const json& object, const char* key, const std::string& where) {
  const json& j = Field(object, key, where);
  if (!j.is_string()) Fail(Path(where, key), "expected a string, got " + j.dump());
  return j.get<std::string>();
}

Eigen::VectorXd ReadVector(const json& object, const char* key, const std::string& where,
                           int size) {
  const json& j = Field(object, key, where);
  const std::string path = Path(where, key);
  if (!j.is_array()) Fail(path, "expected an array of numbers");
  if (static_cast<int>(j.size()) != size)
    Fail(path, "expected " + std::to_string(size) + " numbers, got " + std::to_string(j.size()));
  Eigen::VectorXd x(size);
  for (int i = 0; i < size; ++i) x[i] = ReadNumber(j[i], path + "[" + std::to_string(i) + "]");
  return x;
}

SolverStatus ReadStatus(const json& object, const char* key, const std::string& where) {
  const std::string name = ReadString(object, key, where);
  for (SolverStatus status :
       {SolverStatus::kSolved, SolverStatus::kSolvedInaccurate, SolverStatus::kMaxIterations,
        SolverStatus::kInfeasible, SolverStatus::kNumericalFailure, SolverStatus::kNotRun})
    if (name == ToString(status)) return status;
  Fail(Path(where, key), "unknown solver status '" + name + "'");
}

const json& ReadArray(const json& object, const char* key, const std::string& where) {
  const json& j = Field(object, key, where);
  if (!j.is_array()) Fail(Path(where, key), "expected an array");
  return j;
}

// Row-major matrix of `rows` × `cols` numbers.
Eigen::MatrixXd ReadMatrix(const json& object, const char* key, const std::string& where, int rows,
                           int cols) {
  const json& j = Field(object, key, where);
  const std::string path = Path(where, key);
  if (!j.is_array() || static_cast<int>(j.size()) != rows)
    Fail(path,
         "expected " + std::to_string(rows) + " rows of " + std::to_string(cols) + " numbers");
  Eigen::MatrixXd m(rows, cols);
  for (int i = 0; i < rows; ++i) {
    const std::string row_path = path + "[" + std::to_string(i) + "]";
    if (!j[i].is_array() || static_cast<int>(j[i].size()) != cols)
      Fail(row_path, "expected " + std::to_string(cols) + " numbers");
    for (int c = 0; c < cols; ++c)
      m(i, c) = ReadNumber(j[i][c], row_path + "[" + std::to_string(c) + "]");
  }
  return m;
}

bool Has(const json& object, const char* key) { return object.contains(key); }

ContactRecord ContactFromJson(const json& j, const std::string& where, double h) {
  ContactRecord c;
  c.shape_a = ReadString(j, "shape_a", where);
  c.shape_b = ReadString(j, "shape_b", where);
  c.body_a = ReadString(j, "body_a", where);
  c.body_b = ReadString(j, "body_b", where);
  c.point = ReadVector(j, "point", where, 3);
  c.normal = ReadVector(j, "normal", where, 3);
  c.phi_start = ReadNumber(j, "phi_start", where);
  c.phi_end = ReadNumber(j, "phi_end", where);
  c.normal_force = ReadNumber(j, "normal_force", where);
  c.friction_force = ReadVector(j, "friction_force", where, 3);
  // Files without impulses (before they were recorded): force · h.
  c.normal_impulse =
      Has(j, "normal_impulse") ? ReadNumber(j, "normal_impulse", where) : c.normal_force * h;
  if (Has(j, "friction_impulse")) {
    c.friction_impulse = ReadVector(j, "friction_impulse", where, 3);
  } else {
    c.friction_impulse = c.friction_force * h;
  }
  if (Has(j, "torsional_impulse")) c.torsional_impulse = ReadNumber(j, "torsional_impulse", where);
  if (Has(j, "torsional_moment")) c.torsional_moment = ReadNumber(j, "torsional_moment", where);
  return c;
}

TrajectoryStep StepFromJson(const json& j, const std::string& where, const Trajectory& t,
                            int default_k) {
  const int nq = t.nq, nv_u = t.nv - (t.nq - t.nq_u);
  TrajectoryStep step;
  step.k = Has(j, "k") ? ReadInt(j, "k", where, 1) : default_k;
  step.t = ReadNumber(j, "t", where);
  step.q = ReadVector(j, "q", where, nq);
  if (Has(j, "v")) step.v = ReadVector(j, "v", where, t.nv);
  step.u = ReadVector(j, "u", where, t.CommandSize());
  step.status = ReadStatus(j, "status", where);
  const json& solver = Field(j, "solver", where);
  const std::string solver_where = Path(where, "solver");
  step.solver.iterations = ReadInt(solver, "iterations", solver_where, 0);
  step.solver.primal_residual = ReadNumber(solver, "primal_residual", solver_where);
  step.solver.dual_residual = ReadNumber(solver, "dual_residual", solver_where);
  step.solver.complementarity_gap = ReadNumber(solver, "complementarity_gap", solver_where);
  step.solver.solve_time_seconds = ReadNumber(solver, "solve_time", solver_where);
  if (Has(solver, "polished")) {
    const json& polished = solver["polished"];
    if (!polished.is_boolean()) Fail(Path(solver_where, "polished"), "expected true or false");
    step.solver.polished = polished.get<bool>();
  }
  step.step_time_seconds = ReadNumber(j, "step_time", where);
  if (Has(j, "max_body_motion")) step.max_body_motion = ReadNumber(j, "max_body_motion", where);
  if (Has(j, "large_motion")) {
    if (!j["large_motion"].is_boolean()) Fail(where + ".large_motion", "expected true or false");
    step.large_motion = j["large_motion"].get<bool>();
  }
  const json& contacts = ReadArray(j, "contacts", where);
  for (size_t i = 0; i < contacts.size(); ++i)
    step.contacts.push_back(
        ContactFromJson(contacts[i], where + ".contacts[" + std::to_string(i) + "]", t.time_step));
  if (Has(j, "momentum_force")) step.momentum_force = ReadVector(j, "momentum_force", where, nv_u);
  if (Has(j, "joint_limit_impulse"))
    step.joint_limit_impulse = ReadVector(j, "joint_limit_impulse", where, t.nv);
  if (Has(j, "gradient_status")) {
    step.gradient_status = ReadStatus(j, "gradient_status", where);
    step.gradient_message = ReadString(j, "gradient_message", where);
    // x = q, or (q, v) for the models with velocities (the trajectory's v0 says which).
    const int nx = nq + static_cast<int>(t.v0.size());
    if (Has(j, "A")) step.A = ReadMatrix(j, "A", where, nx, nx);
    if (Has(j, "B")) step.B = ReadMatrix(j, "B", where, nx, t.CommandSize());
  }
  return step;
}

}  // namespace

nlohmann::json TrajectoryToJson(const Trajectory& trajectory) {
  json steps = json::array();
  const bool torsion = HasTorsionalFriction(trajectory);
  for (const TrajectoryStep& step : trajectory.steps) steps.push_back(StepToJson(step, torsion));
  json out;  // keys in insertion order would need ordered_json; readers look them up by name
  out["format"] = kFormatName;
  out["format_version"] = kTrajectoryFormatVersion;
  out["scene"] = {{"name", trajectory.scene_name}, {"file", trajectory.scene_file}};
  out["formulation"] = {{"type", trajectory.formulation},
                        {"time_step", Number(trajectory.time_step)}};
  for (const ParameterValue& p : trajectory.parameters.values())  // the numbers (not B's matrix)
    if (p.value.size() == 1) out["formulation"][p.key] = Number(p.value(0, 0));
  out["nq"] = trajectory.nq;
  out["nv"] = trajectory.nv;
  out["nq_u"] = trajectory.nq_u;
  out["nq_a"] = trajectory.nq - trajectory.nq_u;
  if (trajectory.nu >= 0 && trajectory.nu != trajectory.nq - trajectory.nq_u) {
    out["nu"] = trajectory.nu;  // ecp: the objects' applied impulse
  }
  out["coordinate_names"] = trajectory.coordinate_names;
  out["q0"] = NumberArray(trajectory.q0);
  if (trajectory.v0.size() > 0) out["v0"] = NumberArray(trajectory.v0);
  out["steps_requested"] = trajectory.steps_requested;
  out["steps_done"] = trajectory.steps_done;
  if (trajectory.large_motion_steps > 0) out["large_motion_steps"] = trajectory.large_motion_steps;
  out["status"] = std::string(ToString(trajectory.status));
  out["message"] = trajectory.message;
  out["steps"] = std::move(steps);
  return out;
}

Trajectory TrajectoryFromJson(const nlohmann::json& j) {
  if (!j.is_object()) Fail("trajectory", "expected a JSON object");
  if (ReadString(j, "format", "") != kFormatName)
    Fail("format", std::string("expected \"") + kFormatName + "\"");
  const int version = ReadInt(j, "format_version", "", 0);
  if (version != kTrajectoryFormatVersion)
    Fail("format_version", "version " + std::to_string(version) +
                               " is not supported (this "
                               "reader knows version " +
                               std::to_string(kTrajectoryFormatVersion) + ")");
  Trajectory t;
  const json& scene = Field(j, "scene", "");
  t.scene_name = ReadString(scene, "name", "scene");
  t.scene_file = ReadString(scene, "file", "scene");
  const json& formulation = Field(j, "formulation", "");
  t.formulation = ReadString(formulation, "type", "formulation");
  t.time_step = ReadNumber(formulation, "time_step", "formulation");
  if (!(t.time_step > 0)) Fail("formulation.time_step", "must be > 0");
  if (!formulation.is_object()) Fail("formulation", "expected an object");
  for (const auto& [key, value] : formulation.items())
    if (key != "type" && key != "time_step")
      t.parameters.Set(key, ReadNumber(value, Path("formulation", key.c_str())));
  t.nq = ReadInt(j, "nq", "", 0);
  t.nv = ReadInt(j, "nv", "", 0);
  t.nq_u = ReadInt(j, "nq_u", "", 0);
  if (t.nq_u > t.nq) Fail("nq_u", "must be <= nq");
  const int nq_a = ReadInt(j, "nq_a", "", 0);
  if (nq_a != t.nq - t.nq_u) Fail("nq_a", "must equal nq - nq_u");
  if (t.nv < nq_a) Fail("nv", "must be >= nq_a (the robots' velocities are part of v)");
  if (Has(j, "nu")) t.nu = ReadInt(j, "nu", "", 0);  // ecp: n_v,u; otherwise n_q,a
  const json& names = ReadArray(j, "coordinate_names", "");
  if (static_cast<int>(names.size()) != t.nq)
    Fail("coordinate_names",
         "expected " + std::to_string(t.nq) + " names, got " + std::to_string(names.size()));
  for (size_t i = 0; i < names.size(); ++i) {
    if (!names[i].is_string())
      Fail("coordinate_names[" + std::to_string(i) + "]", "expected a string");
    t.coordinate_names.push_back(names[i].get<std::string>());
  }
  t.q0 = ReadVector(j, "q0", "", t.nq);
  if (Has(j, "v0")) t.v0 = ReadVector(j, "v0", "", t.nv);  // models with velocities only
  t.steps_requested = ReadInt(j, "steps_requested", "", 0);
  t.status = ReadStatus(j, "status", "");
  t.message = ReadString(j, "message", "");
  const json& steps = ReadArray(j, "steps", "");
  // Files before steps_done held every step.
  t.steps_done =
      Has(j, "steps_done") ? ReadInt(j, "steps_done", "", 0) : static_cast<int>(steps.size());
  if (t.steps_done > t.steps_requested) Fail("steps_done", "is more than steps_requested");
  if (Has(j, "large_motion_steps")) t.large_motion_steps = ReadInt(j, "large_motion_steps", "", 0);
  if (static_cast<int>(steps.size()) > t.steps_done)
    Fail("steps", "holds " + std::to_string(steps.size()) + " steps, more than steps_done");
  t.steps.reserve(steps.size());
  int previous = 0;
  for (size_t k = 0; k < steps.size(); ++k) {
    const std::string where = "steps[" + std::to_string(k) + "]";
    t.steps.push_back(StepFromJson(steps[k], where, t, static_cast<int>(k) + 1));
    const int number = t.steps.back().k;
    if (number <= previous || number > t.steps_done)
      Fail(where + ".k", "step numbers must increase and stay <= steps_done (got " +
                             std::to_string(number) + " after " + std::to_string(previous) + ")");
    previous = number;
  }
  CheckTrajectoryValuesFinite(t);
  return t;
}

void WriteTrajectoryFile(const Trajectory& trajectory, const std::string& path, int indent) {
  if (path.empty()) throw std::invalid_argument("WriteTrajectoryFile: the output path is empty");
  WriteFileAtomically(path, TrajectoryToJson(trajectory).dump(indent) + "\n");
}

Trajectory ReadTrajectoryFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot open trajectory file '" + path + "'");
  json j;
  try {
    j = json::parse(file);
  } catch (const json::parse_error& e) {
    throw std::runtime_error("'" + path + "' is not valid JSON: " + e.what());
  }
  try {
    return TrajectoryFromJson(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

}  // namespace quasidyn
