#include "quasidyn/simulation/trajectory_npz.h"

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "quasidyn/simulation/trajectory_json.h"
#include "quasidyn/simulation/trajectory_values.h"

namespace quasidyn {
namespace {

constexpr const char* kTrajectoryNpzFormatName = "quasidyn-trajectory";
// Version 2: the state arrays k, t, q, v have a first row for the start (k = 0, t = 0, q0, v0),
// as Trajectory's arrays in Python (docs/python.md, "Arrays of a trajectory"). Version 1 (one
// row per step, the start only in q0 and v0) is still read.
constexpr int kTrajectoryNpzFormatVersion = 2;
using Shape = std::vector<std::int64_t>;

[[noreturn]] void TrajectoryNpzFail(const std::string& where, const std::string& problem) {
  throw std::invalid_argument(where + ": " + problem);
}

NpyArray Text(const std::string& value) { return NpyArray::Unicode({}, {value}); }
NpyArray Scalar(double value) { return NpyArray::Float64({}, {value}); }
NpyArray Integer(std::int64_t value) { return NpyArray::Int64({}, {value}); }

std::string Status(SolverStatus s) { return std::string(ToString(s)); }

SolverStatus ParseStatus(const std::string& name, const std::string& where) {
  for (SolverStatus status :
       {SolverStatus::kSolved, SolverStatus::kSolvedInaccurate, SolverStatus::kMaxIterations,
        SolverStatus::kInfeasible, SolverStatus::kNumericalFailure, SolverStatus::kNotRun})
    if (name == ToString(status)) return status;
  TrajectoryNpzFail(where, "unknown solver status '" + name + "'");
}

// Rows of `rows` × width doubles from a per-item getter.
template <typename Get>
NpyArray Rows(size_t rows, int width, Get get) {
  std::vector<double> values;
  values.reserve(rows * static_cast<size_t>(width));
  for (size_t r = 0; r < rows; ++r) {
    const auto row = get(r);
    for (int c = 0; c < width; ++c) values.push_back(row[c]);
  }
  return NpyArray::Float64({static_cast<std::int64_t>(rows), width}, std::move(values));
}

// ---- reading ----

const NpyArray& Find(const NpzArchive& a, const std::string& name) {
  const auto it = a.find(name);
  if (it == a.end()) TrajectoryNpzFail(name, "missing");
  return it->second;
}

const NpyArray& Typed(const NpzArchive& a, const std::string& name, NpyArray::Type type,
                      const Shape& shape) {
  const NpyArray& array = Find(a, name);
  static const char* kNames[] = {"<f8", "<i8", "<i4", "|b1", "<U"};
  if (array.type != type)
    TrajectoryNpzFail(name, std::string("expected dtype ") + kNames[static_cast<int>(type)]);
  if (array.shape != shape) {
    std::string text = "(";
    for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    TrajectoryNpzFail(name, "expected shape " + text + (shape.size() == 1 ? ",)" : ")"));
  }
  return array;
}

// The formulation's number parameters are stored as scalars "parameter_<key>".
constexpr const char* kParameterPrefix = "parameter_";

double ReadScalar(const NpzArchive& a, const std::string& name) {
  return Typed(a, name, NpyArray::Type::kFloat64, {}).f64[0];
}
std::string ReadText(const NpzArchive& a, const std::string& name) {
  return Typed(a, name, NpyArray::Type::kUnicode, {}).text[0];
}
int ReadInt(const NpzArchive& a, const std::string& name, int minimum) {
  const std::int64_t value = Typed(a, name, NpyArray::Type::kInt64, {}).i64[0];
  if (value < minimum || value > std::numeric_limits<int>::max())
    TrajectoryNpzFail(
        name, "must be >= " + std::to_string(minimum) + " (got " + std::to_string(value) + ")");
  return static_cast<int>(value);
}

}  // namespace

NpzArchive TrajectoryToNpz(const Trajectory& t) {
  NpzArchive a;
  const auto n = static_cast<std::int64_t>(t.steps.size());
  const int nq_a = t.nq - t.nq_u, nv_u = t.nv - nq_a, nu = t.CommandSize();
  a["format"] = Text(kTrajectoryNpzFormatName);
  a["format_version"] = Integer(kTrajectoryNpzFormatVersion);
  a["scene_name"] = Text(t.scene_name);
  a["scene_file"] = Text(t.scene_file);
  a["formulation"] = Text(t.formulation);
  a["time_step"] = Scalar(t.time_step);
  for (const ParameterValue& p : t.parameters.values())  // the numbers (not B's matrix)
    if (p.value.size() == 1) a[kParameterPrefix + p.key] = Scalar(p.value(0, 0));
  a["nq"] = Integer(t.nq);
  a["nv"] = Integer(t.nv);
  a["nq_u"] = Integer(t.nq_u);
  a["nq_a"] = Integer(nq_a);
  if (nu != nq_a) a["nu"] = Integer(nu);  // ecp: the objects' applied impulse (n_v,u)
  a["coordinate_names"] =
      NpyArray::Unicode({static_cast<std::int64_t>(t.coordinate_names.size())}, t.coordinate_names);
  a["q0"] = NpyArray::Float64({t.nq}, {t.q0.data(), t.q0.data() + t.q0.size()});
  // The models with velocities: v0 and, per step, v (x = (q, v), so A is n_x × n_x).
  const bool velocities = t.v0.size() == t.nv && t.nv > 0;
  const int nx = t.nq + (velocities ? t.nv : 0);
  if (velocities) a["v0"] = NpyArray::Float64({t.nv}, {t.v0.data(), t.v0.data() + t.v0.size()});
  a["steps_requested"] = Integer(t.steps_requested);
  a["steps_done"] = Integer(t.steps_done);
  a["status"] = Text(Status(t.status));
  a["message"] = Text(t.message);

  const auto& s = t.steps;
  std::vector<std::int64_t> k{0}, count, iterations;  // k and time: the start, then each step
  std::vector<double> time{0.0}, primal, dual, gap, solve, step_time;
  std::vector<std::uint8_t> polished;
  std::vector<std::string> status, gradient_status, gradient_message;
  bool momentum = n > 0, limits = n > 0, has_A = false, has_B = false, gradients = false;
  for (const TrajectoryStep& step : s) {
    k.push_back(step.k);
    time.push_back(step.t);
    status.push_back(Status(step.status));
    iterations.push_back(step.solver.iterations);
    primal.push_back(step.solver.primal_residual);
    dual.push_back(step.solver.dual_residual);
    gap.push_back(step.solver.complementarity_gap);
    solve.push_back(step.solver.solve_time_seconds);
    polished.push_back(step.solver.polished ? 1 : 0);
    step_time.push_back(step.step_time_seconds);
    count.push_back(static_cast<std::int64_t>(step.contacts.size()));
    momentum = momentum && step.momentum_force.size() == nv_u;
    limits = limits && step.joint_limit_impulse.size() == t.nv;
    gradients = gradients || step.gradient_status != SolverStatus::kNotRun;
    has_A = has_A || step.A.size() > 0;
    has_B = has_B || step.B.size() > 0;
    gradient_status.push_back(Status(step.gradient_status));
    gradient_message.push_back(step.gradient_message);
  }
  // The state arrays: row 0 the start, row r the state after the r-th step kept.
  a["k"] = NpyArray::Int64({n + 1}, k);
  a["t"] = NpyArray::Float64({n + 1}, time);
  a["q"] =
      Rows(s.size() + 1, t.nq, [&](size_t r) { return r == 0 ? t.q0.data() : s[r - 1].q.data(); });
  bool step_velocities = velocities;
  for (const TrajectoryStep& step : s) step_velocities = step_velocities && step.v.size() == t.nv;
  if (step_velocities)
    a["v"] = Rows(s.size() + 1, t.nv,
                  [&](size_t r) { return r == 0 ? t.v0.data() : s[r - 1].v.data(); });
  a["u"] = Rows(s.size(), nu, [&](size_t r) { return s[r].u.data(); });
  a["step_status"] = NpyArray::Unicode({n}, status);
  a["iterations"] = NpyArray::Int64({n}, iterations);
  a["primal_residual"] = NpyArray::Float64({n}, primal);
  a["dual_residual"] = NpyArray::Float64({n}, dual);
  a["complementarity_gap"] = NpyArray::Float64({n}, gap);
  a["solve_time"] = NpyArray::Float64({n}, solve);
  a["polished"] = NpyArray::Bool({n}, polished);
  a["step_time"] = NpyArray::Float64({n}, step_time);
  if (momentum)
    a["momentum_force"] =
        Rows(s.size(), nv_u, [&](size_t r) { return s[r].momentum_force.data(); });
  if (limits)
    a["joint_limit_impulse"] =
        Rows(s.size(), t.nv, [&](size_t r) { return s[r].joint_limit_impulse.data(); });
  if (gradients) {
    a["gradient_status"] = NpyArray::Unicode({n}, gradient_status);
    a["gradient_message"] = NpyArray::Unicode({n}, gradient_message);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto stack = [&](bool any, int cols, auto get) {
      std::vector<double> values;
      values.reserve(s.size() * static_cast<size_t>(nx * cols));
      for (const TrajectoryStep& step : s) {
        const Eigen::MatrixXd& m = get(step);
        const bool fits = m.rows() == nx && m.cols() == cols;  // else this step has none
        for (int i = 0; i < nx; ++i)
          for (int j = 0; j < cols; ++j) values.push_back(fits ? m(i, j) : nan);
      }
      return any ? NpyArray::Float64({n, nx, cols}, std::move(values)) : NpyArray();
    };
    if (has_A)
      a["A"] =
          stack(true, nx, [](const TrajectoryStep& x) -> const Eigen::MatrixXd& { return x.A; });
    if (has_B)
      a["B"] =
          stack(true, nu, [](const TrajectoryStep& x) -> const Eigen::MatrixXd& { return x.B; });
  }

  // Contacts, stacked; names as indices into `names`.
  std::vector<std::string> names;
  std::map<std::string, std::int32_t> index;
  const auto name_index = [&](const std::string& name) {
    const auto [it, added] = index.emplace(name, static_cast<std::int32_t>(names.size()));
    if (added) names.push_back(name);
    return it->second;
  };
  std::vector<std::int32_t> shape_a, shape_b, body_a, body_b;
  std::vector<const ContactRecord*> all;
  for (const TrajectoryStep& step : s)
    for (const ContactRecord& c : step.contacts) {
      all.push_back(&c);
      shape_a.push_back(name_index(c.shape_a));
      shape_b.push_back(name_index(c.shape_b));
      body_a.push_back(name_index(c.body_a));
      body_b.push_back(name_index(c.body_b));
    }
  const auto m = static_cast<std::int64_t>(all.size());
  a["contact_count"] = NpyArray::Int64({n}, count);
  a["names"] = NpyArray::Unicode({static_cast<std::int64_t>(names.size())}, names);
  a["contact_shape_a"] = NpyArray::Int32({m}, shape_a);
  a["contact_shape_b"] = NpyArray::Int32({m}, shape_b);
  a["contact_body_a"] = NpyArray::Int32({m}, body_a);
  a["contact_body_b"] = NpyArray::Int32({m}, body_b);
  a["contact_point"] = Rows(all.size(), 3, [&](size_t r) { return all[r]->point.data(); });
  a["contact_normal"] = Rows(all.size(), 3, [&](size_t r) { return all[r]->normal.data(); });
  a["contact_friction_force"] =
      Rows(all.size(), 3, [&](size_t r) { return all[r]->friction_force.data(); });
  a["contact_friction_impulse"] =
      Rows(all.size(), 3, [&](size_t r) { return all[r]->friction_impulse.data(); });
  const auto column = [&](double ContactRecord::*field) {
    std::vector<double> values;
    values.reserve(all.size());
    for (const ContactRecord* c : all) values.push_back(c->*field);
    return NpyArray::Float64({m}, std::move(values));
  };
  if (HasTorsionalFriction(t)) {  // the torsional friction at ecp's equivalent contact point
    a["contact_torsional_impulse"] = column(&ContactRecord::torsional_impulse);
    a["contact_torsional_moment"] = column(&ContactRecord::torsional_moment);
  }
  a["contact_phi_start"] = column(&ContactRecord::phi_start);
  a["contact_phi_end"] = column(&ContactRecord::phi_end);
  a["contact_normal_force"] = column(&ContactRecord::normal_force);
  a["contact_normal_impulse"] = column(&ContactRecord::normal_impulse);
  return a;
}

Trajectory TrajectoryFromNpz(const NpzArchive& a) {
  using T = NpyArray::Type;
  if (ReadText(a, "format") != kTrajectoryNpzFormatName)
    TrajectoryNpzFail("format", std::string("expected \"") + kTrajectoryNpzFormatName + "\"");
  const int version = static_cast<int>(Typed(a, "format_version", T::kInt64, {}).i64[0]);
  if (version != 1 && version != kTrajectoryNpzFormatVersion)
    TrajectoryNpzFail("format_version", "version " + std::to_string(version) +
                                            " is not supported (this reader knows 1 and " +
                                            std::to_string(kTrajectoryNpzFormatVersion) + ")");
  // The rows of the state arrays before the first step's: 1 (the start) from version 2 on.
  const std::int64_t start = version >= 2 ? 1 : 0;
  Trajectory t;
  t.scene_name = ReadText(a, "scene_name");
  t.scene_file = ReadText(a, "scene_file");
  t.formulation = ReadText(a, "formulation");
  t.time_step = ReadScalar(a, "time_step");
  if (!(t.time_step > 0)) TrajectoryNpzFail("time_step", "must be > 0");
  for (const auto& [name, array] : a)
    if (name.rfind(kParameterPrefix, 0) == 0)
      t.parameters.Set(name.substr(std::string(kParameterPrefix).size()), ReadScalar(a, name));
  t.nq = ReadInt(a, "nq", 0);
  t.nv = ReadInt(a, "nv", 0);
  t.nq_u = ReadInt(a, "nq_u", 0);
  if (t.nq_u > t.nq) TrajectoryNpzFail("nq_u", "must be <= nq");
  const int nq_a = ReadInt(a, "nq_a", 0);
  if (nq_a != t.nq - t.nq_u) TrajectoryNpzFail("nq_a", "must equal nq - nq_u");
  if (t.nv < nq_a) TrajectoryNpzFail("nv", "must be >= nq_a");
  const int nv_u = t.nv - nq_a;
  if (a.count("nu") > 0) t.nu = ReadInt(a, "nu", 0);  // ecp: n_v,u; otherwise n_q,a
  const int nu = t.CommandSize();
  t.coordinate_names = Typed(a, "coordinate_names", T::kUnicode, {t.nq}).text;
  const NpyArray& q0 = Typed(a, "q0", T::kFloat64, {t.nq});
  t.q0 = Eigen::Map<const Eigen::VectorXd>(q0.f64.data(), t.nq);
  if (a.count("v0") > 0) {  // models with velocities only
    const NpyArray& v0 = Typed(a, "v0", T::kFloat64, {t.nv});
    t.v0 = Eigen::Map<const Eigen::VectorXd>(v0.f64.data(), t.nv);
  }
  const int nx = t.nq + static_cast<int>(t.v0.size());  // x = q, or (q, v)
  t.steps_requested = ReadInt(a, "steps_requested", 0);
  t.steps_done = ReadInt(a, "steps_done", 0);
  if (t.steps_done > t.steps_requested)
    TrajectoryNpzFail("steps_done", "is more than steps_requested");
  t.status = ParseStatus(ReadText(a, "status"), "status");
  t.message = ReadText(a, "message");

  const NpyArray& k = Find(a, "k");
  if (k.type != T::kInt64 || k.shape.size() != 1)
    TrajectoryNpzFail("k", "expected a 1-d int64 array");
  if (k.shape[0] < start) TrajectoryNpzFail("k", "expected a first row for the start (k = 0)");
  const std::int64_t n = k.shape[0] - start;  // the steps kept
  if (n > t.steps_done) TrajectoryNpzFail("k", "more steps than steps_done");
  const auto& time = Typed(a, "t", T::kFloat64, {start + n}).f64;
  const auto& q = Typed(a, "q", T::kFloat64, {start + n, t.nq}).f64;
  const auto& u = Typed(a, "u", T::kFloat64, {n, nu}).f64;
  const std::vector<double>* v =
      a.count("v") > 0 ? &Typed(a, "v", T::kFloat64, {start + n, t.nv}).f64 : nullptr;
  if (start == 1) {  // row 0 is the start: k = 0, t = 0, q0 (and v0)
    if (k.i64[0] != 0 || time[0] != 0.0) TrajectoryNpzFail("k, t", "row 0 must be k = 0, t = 0");
    if (Eigen::Map<const Eigen::VectorXd>(q.data(), t.nq) != t.q0)
      TrajectoryNpzFail("q", "row 0 must equal q0");
    if (v != nullptr &&
        (t.v0.size() != t.nv || Eigen::Map<const Eigen::VectorXd>(v->data(), t.nv) != t.v0))
      TrajectoryNpzFail("v", "row 0 must equal v0");
  }
  const auto& status = Typed(a, "step_status", T::kUnicode, {n}).text;
  const auto& iterations = Typed(a, "iterations", T::kInt64, {n}).i64;
  const auto& primal = Typed(a, "primal_residual", T::kFloat64, {n}).f64;
  const auto& dual = Typed(a, "dual_residual", T::kFloat64, {n}).f64;
  const auto& gap = Typed(a, "complementarity_gap", T::kFloat64, {n}).f64;
  const auto& solve = Typed(a, "solve_time", T::kFloat64, {n}).f64;
  const auto& polished = Typed(a, "polished", T::kBool, {n}).b1;
  const auto& step_time = Typed(a, "step_time", T::kFloat64, {n}).f64;
  const auto& count = Typed(a, "contact_count", T::kInt64, {n}).i64;
  const bool momentum = a.count("momentum_force") > 0;
  const bool gradients = a.count("gradient_status") > 0;
  const std::vector<double>* momentum_values =
      momentum ? &Typed(a, "momentum_force", T::kFloat64, {n, nv_u}).f64 : nullptr;
  const std::vector<double>* limit_values =
      a.count("joint_limit_impulse") ? &Typed(a, "joint_limit_impulse", T::kFloat64, {n, t.nv}).f64
                                     : nullptr;
  const std::vector<std::string>* gradient_status =
      gradients ? &Typed(a, "gradient_status", T::kUnicode, {n}).text : nullptr;
  const std::vector<std::string>* gradient_message =
      gradients ? &Typed(a, "gradient_message", T::kUnicode, {n}).text : nullptr;
  const std::vector<double>* A =
      a.count("A") ? &Typed(a, "A", T::kFloat64, {n, nx, nx}).f64 : nullptr;
  const std::vector<double>* B =
      a.count("B") ? &Typed(a, "B", T::kFloat64, {n, nx, nu}).f64 : nullptr;

  std::int64_t contacts = 0;
  for (std::int64_t c : count) {
    if (c < 0 || c > std::numeric_limits<std::int32_t>::max())
      TrajectoryNpzFail("contact_count", "out of range");
    contacts += c;
  }
  const auto& names = Find(a, "names");
  if (names.type != T::kUnicode || names.shape.size() != 1)
    TrajectoryNpzFail("names", "expected strings");
  const auto name_at = [&](const std::string& array, std::int32_t i) -> const std::string& {
    if (i < 0 || i >= static_cast<std::int32_t>(names.text.size()))
      TrajectoryNpzFail(array, "index " + std::to_string(i) + " outside names");
    return names.text[i];
  };
  const auto& shape_a = Typed(a, "contact_shape_a", T::kInt32, {contacts}).i32;
  const auto& shape_b = Typed(a, "contact_shape_b", T::kInt32, {contacts}).i32;
  const auto& body_a = Typed(a, "contact_body_a", T::kInt32, {contacts}).i32;
  const auto& body_b = Typed(a, "contact_body_b", T::kInt32, {contacts}).i32;
  const auto& point = Typed(a, "contact_point", T::kFloat64, {contacts, 3}).f64;
  const auto& normal = Typed(a, "contact_normal", T::kFloat64, {contacts, 3}).f64;
  const auto& friction = Typed(a, "contact_friction_force", T::kFloat64, {contacts, 3}).f64;
  const auto& friction_impulse =
      Typed(a, "contact_friction_impulse", T::kFloat64, {contacts, 3}).f64;
  const auto& phi_start = Typed(a, "contact_phi_start", T::kFloat64, {contacts}).f64;
  const auto& phi_end = Typed(a, "contact_phi_end", T::kFloat64, {contacts}).f64;
  const auto& normal_force = Typed(a, "contact_normal_force", T::kFloat64, {contacts}).f64;
  const auto& normal_impulse = Typed(a, "contact_normal_impulse", T::kFloat64, {contacts}).f64;
  const std::vector<double>* torsional_impulse =
      a.count("contact_torsional_impulse")
          ? &Typed(a, "contact_torsional_impulse", T::kFloat64, {contacts}).f64
          : nullptr;
  const std::vector<double>* torsional_moment =
      a.count("contact_torsional_moment")
          ? &Typed(a, "contact_torsional_moment", T::kFloat64, {contacts}).f64
          : nullptr;

  t.steps.resize(static_cast<size_t>(n));
  std::int64_t next = 0;
  int previous = 0;
  for (std::int64_t r = 0; r < n; ++r) {
    TrajectoryStep& step = t.steps[r];
    const std::int64_t row = start + r;  // the step's row in the state arrays
    if (k.i64[row] <= previous || k.i64[row] > t.steps_done)
      TrajectoryNpzFail("k", "step numbers must increase and stay <= steps_done");
    step.k = static_cast<int>(k.i64[row]);
    previous = step.k;
    step.t = time[row];
    step.q = Eigen::Map<const Eigen::VectorXd>(q.data() + row * t.nq, t.nq);
    step.u = Eigen::Map<const Eigen::VectorXd>(u.data() + r * nu, nu);
    if (v != nullptr) step.v = Eigen::Map<const Eigen::VectorXd>(v->data() + row * t.nv, t.nv);
    step.status = ParseStatus(status[r], "step_status");
    if (iterations[r] < 0 || iterations[r] > std::numeric_limits<int>::max())
      TrajectoryNpzFail("iterations", "out of range");
    step.solver.iterations = static_cast<int>(iterations[r]);
    step.solver.primal_residual = primal[r];
    step.solver.dual_residual = dual[r];
    step.solver.complementarity_gap = gap[r];
    step.solver.solve_time_seconds = solve[r];
    step.solver.polished = polished[r] != 0;
    step.step_time_seconds = step_time[r];
    if (momentum_values)
      step.momentum_force =
          Eigen::Map<const Eigen::VectorXd>(momentum_values->data() + r * nv_u, nv_u);
    if (limit_values)
      step.joint_limit_impulse =
          Eigen::Map<const Eigen::VectorXd>(limit_values->data() + r * t.nv, t.nv);
    if (gradients) {
      step.gradient_status = ParseStatus((*gradient_status)[r], "gradient_status");
      step.gradient_message = (*gradient_message)[r];
      const auto matrix = [&](const std::vector<double>* values, int cols, Eigen::MatrixXd* out) {
        if (values == nullptr) return;
        Eigen::MatrixXd m = Eigen::Map<
            const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
            values->data() + r * nx * cols, nx, cols);
        if (!m.hasNaN()) *out = std::move(m);  // NaN: this step has none
      };
      matrix(A, nx, &step.A);
      matrix(B, nu, &step.B);
    }
    step.contacts.resize(static_cast<size_t>(count[r]));
    for (ContactRecord& c : step.contacts) {
      const auto i = next++;
      c.shape_a = name_at("contact_shape_a", shape_a[i]);
      c.shape_b = name_at("contact_shape_b", shape_b[i]);
      c.body_a = name_at("contact_body_a", body_a[i]);
      c.body_b = name_at("contact_body_b", body_b[i]);
      c.point = Eigen::Map<const Eigen::Vector3d>(point.data() + 3 * i);
      c.normal = Eigen::Map<const Eigen::Vector3d>(normal.data() + 3 * i);
      c.friction_force = Eigen::Map<const Eigen::Vector3d>(friction.data() + 3 * i);
      c.friction_impulse = Eigen::Map<const Eigen::Vector3d>(friction_impulse.data() + 3 * i);
      c.phi_start = phi_start[i];
      c.phi_end = phi_end[i];
      c.normal_force = normal_force[i];
      c.normal_impulse = normal_impulse[i];
      if (torsional_impulse) c.torsional_impulse = (*torsional_impulse)[i];
      if (torsional_moment) c.torsional_moment = (*torsional_moment)[i];
    }
  }
  CheckTrajectoryValuesFinite(t);
  return t;
}

}  // namespace quasidyn
