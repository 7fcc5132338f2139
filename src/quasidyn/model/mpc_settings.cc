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

// Size `expected` (what it counts in `name`); an empty vector passes unless `required`. (Each
// entry's finiteness and range are the schema's.)
Problem CheckSize(const std::string& field, const Eigen::VectorXd& x, int expected,
                  const std::string& name, bool required) {
  if (x.size() == 0) {
    if (required)
      return Wrong(field,
                   "missing: expected " + std::to_string(expected) + " numbers (" + name + ")");
    return std::nullopt;
  }
  if (x.size() != expected)
    return Wrong(field, "expected " + name + " = " + std::to_string(expected) + " numbers, got " +
                            std::to_string(x.size()));
  return std::nullopt;
}

Problem CheckBox(const std::string& lower_field, const Eigen::VectorXd& lower,
                 const std::string& upper_field, const Eigen::VectorXd& upper, int expected,
                 const std::string& name, bool required) {
  if (Problem p = CheckSize(lower_field, lower, expected, name, required)) return p;
  if (Problem p = CheckSize(upper_field, upper, expected, name, required)) return p;
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

const SettingsSchema<MpcSettings>& MpcSettingsSchema() {
  static const SettingsSchema<MpcSettings>* const schema = [] {
    using M = MpcSettings;
    auto* s = new SettingsSchema<M>(
        "mpc",
        "MPC through contact of the 2D frictional contact notes: an MIQP per control step on the "
        "second-order step linearised at the state (docs/mpc.md)");
    const char* x = "n_x = n_q + n_v numbers";
    const char* a = "n_a = n_v,a numbers";
    s->Integer("horizon", &M::horizon).AtLeast(1).Doc("N, the steps of the horizon");
    s->Number("time_step", &M::time_step)
        .Name("h")
        .Unit("s")
        .AtLeast(0)
        .Doc("h of the controller's model and its plant; 0: the scene's time_step");
    s->Field("target", &M::target)
        .Unit("m, rad, m/s, rad/s")
        .Doc(std::string("x_d = (q, v), the target state: ") + x);
    s->Field("weights.state", &M::state_weight)
        .Name("state_weight")
        .AtLeast(0)
        .Doc(std::string("the diagonal of Q, steps 0 … N−1 (") + x + "; absent: all 1)");
    s->Field("weights.terminal", &M::terminal_weight)
        .Name("terminal_weight")
        .AtLeast(0)
        .Doc(std::string("the diagonal of Q_f, step N (") + x + "; absent: Q)");
    s->Field("weights.force", &M::force_weight)
        .Name("force_weight")
        .Unit("1/N², 1/(N·m)²")
        .Within(kSettingWeightRange)
        .Doc(std::string("the diagonal of R, the force's weight (") + a + "; absent: all 1)");
    s->Field("bounds.state_lower", &M::state_lower)
        .Name("state_lower")
        .Doc(std::string("x_min (") + x + "); finite, the big-M constants come from the bounds");
    s->Field("bounds.state_upper", &M::state_upper)
        .Name("state_upper")
        .Doc(std::string("x_max (") + x + ")");
    s->Field("bounds.force_lower", &M::force_lower)
        .Name("force_lower")
        .Unit("N, N·m")
        .Doc(std::string("τ_min (") + a + ")");
    s->Field("bounds.force_upper", &M::force_upper)
        .Name("force_upper")
        .Unit("N, N·m")
        .Doc(std::string("τ_max (") + a + ")");
    s->Number("contact_distance", &M::contact_distance)
        .Unit("m")
        .AtLeast(0)
        .Doc(
            "contacts with φ at most this enter the horizon's model; 0: the scene's "
            "contact_tolerance");
    s->Number("big_m.impulse_margin", &M::impulse_margin)
        .Name("impulse_margin")
        .AtLeast(1)
        .Doc(
            "each impulse's cap: this times the impulse that alone balances the largest "
            "momentum change the boxes allow");
    s->Number("big_m.value", &M::big_m)
        .Name("big_m")
        .AtLeast(0)
        .Doc("one M for every complementarity (the notes' single M); 0: derived per impulse");
    s->Integer("solver.node_limit", &M::node_limit)
        .Name("node_limit")
        .AtLeast(1)
        .Doc("branch-and-bound nodes per solve");
    s->Number("solver.time_limit", &M::time_limit)
        .Name("time_limit")
        .Unit("s")
        .Within(kSettingTimeLimitRange)
        .MayBeInfinite()
        .Doc("wall time per solve");
    s->Number("solver.absolute_gap", &M::absolute_gap)
        .Name("absolute_gap")
        .AtLeast(0)
        .Doc("a solve stops when the bound is within this of the incumbent (objective units)");
    s->Number("solver.relative_gap", &M::relative_gap)
        .Name("relative_gap")
        .AtLeast(0)
        .Doc("likewise, relative to the incumbent");
    s->Custom(
         "solver.branching", SettingKind::kChoice,
         [](const M& m) {
           return SettingValue(
               std::string(m.pseudo_cost_branching ? "pseudo-cost" : "most-fractional"));
         },
         [](const SettingValue& v, M* m) {
           m->pseudo_cost_branching = std::get<std::string>(v) == "pseudo-cost";
         })
        .Name("branching")
        .Choices({"pseudo-cost", "most-fractional"})
        .Noun("branching rule")
        .Doc("the variable a node branches on");
    return s;
  }();
  return *schema;
}

std::optional<MpcSettingsProblem> CheckMpcSettings(const MpcSettings& s, const Scene& scene,
                                                   bool complete) {
  if (scene.nq != scene.nv)
    return Wrong("state", "the MPC needs n_q = n_v (no floating bodies); this scene has n_q = " +
                              std::to_string(scene.nq) + ", n_v = " + std::to_string(scene.nv));
  if (scene.nv_a == 0) return Wrong("robots", "the scene has no robot: nothing to control");
  if (Problem p = CheckSettingsBlock(MpcSettingsSchema(), s)) return p;
  const int nx = scene.nq + scene.nv, na = scene.nv_a;
  const std::string x_name = "n_x = n_q + n_v", a_name = "n_a = n_v,a";
  if (Problem p = CheckSize("target", s.target, nx, x_name, complete)) return p;
  if (Problem p = CheckSize("weights.state", s.state_weight, nx, x_name, false)) return p;
  if (Problem p = CheckSize("weights.terminal", s.terminal_weight, nx, x_name, false)) return p;
  if (Problem p = CheckSize("weights.force", s.force_weight, na, a_name, false)) return p;
  if (Problem p = CheckBox("bounds.state_lower", s.state_lower, "bounds.state_upper", s.state_upper,
                           nx, x_name, complete))
    return p;
  if (Problem p = CheckBox("bounds.force_lower", s.force_lower, "bounds.force_upper", s.force_upper,
                           na, a_name, complete))
    return p;
  return std::nullopt;
}

}  // namespace quasidyn
