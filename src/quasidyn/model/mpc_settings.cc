#include "quasidyn/model/mpc_settings.h"

#include <cmath>
#include <sstream>

#include "quasidyn/model/scene.h"

namespace quasidyn {
namespace {

using Problem = std::optional<MpcSettingsProblem>;

std::string Text(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

Problem Wrong(const std::string& field, const std::string& problem) {
  return MpcSettingsProblem{field, problem};
}

// Size `expected` (what it counts in `name`), every entry finite and >= `minimum` (strictly
// when `strict`); an empty vector passes unless `required`.
Problem CheckVector(const std::string& field, const Eigen::VectorXd& x, int expected,
                    const std::string& name, bool required, double minimum, bool strict) {
  if (x.size() == 0) {
    if (required)
      return Wrong(field,
                   "missing: expected " + std::to_string(expected) + " numbers (" + name + ")");
    return std::nullopt;
  }
  if (x.size() != expected)
    return Wrong(field, "expected " + name + " = " + std::to_string(expected) + " numbers, got " +
                            std::to_string(x.size()));
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]))
      return Wrong(field, "entry " + std::to_string(i) + " is not finite (" + Text(x[i]) + ")");
    if (strict ? !(x[i] > minimum) : !(x[i] >= minimum))
      return Wrong(field, "entry " + std::to_string(i) + " must be " + (strict ? "> " : ">= ") +
                              Text(minimum) + " (got " + Text(x[i]) + ")");
  }
  return std::nullopt;
}

Problem CheckBox(const std::string& lower_field, const Eigen::VectorXd& lower,
                 const std::string& upper_field, const Eigen::VectorXd& upper, int expected,
                 const std::string& name, bool required) {
  constexpr double kAny = -std::numeric_limits<double>::infinity();
  if (Problem p = CheckVector(lower_field, lower, expected, name, required, kAny, false)) return p;
  if (Problem p = CheckVector(upper_field, upper, expected, name, required, kAny, false)) return p;
  if (lower.size() != upper.size())
    return Wrong(lower.size() == 0 ? lower_field : upper_field, "both bounds of a box are needed");
  for (Eigen::Index i = 0; i < lower.size(); ++i) {
    if (lower[i] > upper[i])
      return Wrong(lower_field, "entry " + std::to_string(i) + " is above the upper bound (" +
                                    Text(lower[i]) + " > " + Text(upper[i]) + ")");
  }
  return std::nullopt;
}

}  // namespace

std::optional<MpcSettingsProblem> CheckMpcSettings(const MpcSettings& s, const Scene& scene,
                                                   bool complete) {
  if (scene.nq != scene.nv)
    return Wrong("state", "the MPC needs n_q = n_v (no floating bodies); this scene has n_q = " +
                              std::to_string(scene.nq) + ", n_v = " + std::to_string(scene.nv));
  if (scene.nv_a == 0) return Wrong("robots", "the scene has no robot: nothing to control");
  if (s.horizon < 1)
    return Wrong("horizon", "must be >= 1 (got " + std::to_string(s.horizon) + ")");
  if (!std::isfinite(s.time_step) || s.time_step < 0)
    return Wrong("time_step", "must be finite and >= 0 [s] (got " + Text(s.time_step) + ")");
  const int nx = scene.nq + scene.nv, na = scene.nv_a;
  const std::string x_name = "n_x = n_q + n_v", a_name = "n_a = n_v,a";
  constexpr double kAny = -std::numeric_limits<double>::infinity();
  if (Problem p = CheckVector("target", s.target, nx, x_name, complete, kAny, false)) return p;
  if (Problem p = CheckVector("weights.state", s.state_weight, nx, x_name, false, 0.0, false))
    return p;
  if (Problem p = CheckVector("weights.terminal", s.terminal_weight, nx, x_name, false, 0.0, false))
    return p;
  if (Problem p = CheckVector("weights.force", s.force_weight, na, a_name, false, 0.0, true))
    return p;
  if (Problem p = CheckBox("bounds.state_lower", s.state_lower, "bounds.state_upper", s.state_upper,
                           nx, x_name, complete))
    return p;
  if (Problem p = CheckBox("bounds.force_lower", s.force_lower, "bounds.force_upper", s.force_upper,
                           na, a_name, complete))
    return p;
  if (!std::isfinite(s.contact_distance) || s.contact_distance < 0)
    return Wrong("contact_distance",
                 "must be finite and >= 0 [m] (got " + Text(s.contact_distance) + ")");
  if (!std::isfinite(s.impulse_margin) || s.impulse_margin < 1)
    return Wrong("big_m.impulse_margin",
                 "must be finite and >= 1 (got " + Text(s.impulse_margin) + ")");
  if (!std::isfinite(s.big_m) || s.big_m < 0)
    return Wrong("big_m.value",
                 "must be finite and > 0, or 0 for derived (got " + Text(s.big_m) + ")");
  if (s.node_limit < 1)
    return Wrong("solver.node_limit", "must be >= 1 (got " + std::to_string(s.node_limit) + ")");
  if (!(s.time_limit > 0))
    return Wrong("solver.time_limit", "must be > 0 [s] (got " + Text(s.time_limit) + ")");
  if (!std::isfinite(s.absolute_gap) || s.absolute_gap < 0)
    return Wrong("solver.absolute_gap",
                 "must be finite and >= 0 (got " + Text(s.absolute_gap) + ")");
  if (!std::isfinite(s.relative_gap) || s.relative_gap < 0)
    return Wrong("solver.relative_gap",
                 "must be finite and >= 0 (got " + Text(s.relative_gap) + ")");
  return std::nullopt;
}

}  // namespace quasidyn
