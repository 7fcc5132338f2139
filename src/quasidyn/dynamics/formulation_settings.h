#pragma once
// Which convex time-stepping formulation to use, and its parameters, read from the
// scene's `formulation` block (docs/scene-format.md) and overridable from the command line.

#include <optional>
#include <string>

#include "quasidyn/model/scene.h"

namespace quasidyn {

enum class FormulationType {
  kQp,                 // Anitescu pyramid QP, Pang & Tedrake 2021, eq. (10)
  kSocp,               // exact friction cone SOCP (T-RO 2023, eq. (27))
  kLogBarrierPyramid,  // eq. (10) with its constraints moved into a log barrier
  kLogBarrierCone,     // the SOCP with its cones in a log barrier (T-RO 2023, eq. (34))
  kLcp,                // quasistatic LCP with impedance actuators, Pang & Tedrake 2021, eq. (6)
  kHalmPosa,           // planar quasi-static LCP with finite velocity feedback, Halm & Posa 2018,
                       // eqs. (31)-(38): its own step model (stepping/halm_posa_model.h)
  // The second-order (velocity-level) time steppers, state (q, v), their own step model
  // (stepping/second_order_model.h), inertia M(q) with the robots' impedance implicit:
  kStewartTrinkle,  // the LCP of Stewart & Trinkle 1996 / Anitescu & Potra 1997 (Lemke)
  kAnitescu,        // its convex relaxation, a QP on the friction pyramid (Anitescu 2006)
  kEcp,  // geometrically implicit second-order NCP with one equivalent contact point per pair,
         // Xie & Chakraborty, eqs. (7)-(9), (13)-(17): its own step model
         // (stepping/ecp_model.h), state (q, v) too
};

// "qp", "socp", "log-barrier", "log-barrier-cone", "lcp", "halm-posa", "stewart-trinkle",
// "anitescu", "ecp".
const char* FormulationName(FormulationType type);
// Throws std::invalid_argument naming the accepted names on an unknown one.
FormulationType ParseFormulation(const std::string& name);

// True for the second-order steppers of stepping/second_order_model.h (stewart-trinkle,
// anitescu).
bool IsSecondOrder(FormulationType type);
// True for the formulations whose state has velocities: the second-order steppers and ecp.
bool HasVelocityState(FormulationType type);

struct FormulationSettings {
  FormulationType type = FormulationType::kQp;
  double time_step = 0.01;  // h [s], > 0
  // Log-barrier weight κ [1/(N·m)], > 0: the barrier term is −(1/κ) Σ log(·) added to an
  // objective measured in N·m (see quasi_dynamic_cost.h). κ → ∞ recovers the QP / SOCP.
  // A scene without `kappa` gets DefaultKappa(scene) (barrier_stand_off.h): the least κ that
  // keeps every resting object within 1 % of its size of its support.
  double kappa = 100.0;
  // Scale s >= 0 [-] of the objects' regularisation ½ s vᵀ M_u v: s = 1 is Mason's
  // quasi-dynamics (the objects' momentum is reset every step: of the motions the contacts
  // allow, the objects take the one of least kinetic energy; Pang, Suh, Yang & Tedrake,
  // T-RO 2023, §III-A and eq. (23b)); s = 0 is the pure quasistatic model of
  // Pang & Tedrake 2021, well posed only when contacts hold every object.
  double object_mass_scale = 1.0;
  // halm-posa (Halm & Posa 2018, eq. (15), −F_m = (1/c) B⁻¹ (u − q̇_m)): the feedback scaling
  // c [-], finite and >= 0 (c = 0 is perfect velocity control, eqs. (13)-(14)), and the
  // relative feedback gains B ≻ 0 [m/(s·N) for prismatic, rad/(s·N·m) for revolute joints] as
  // FormulationSpec::feedback_gains gives them (0 × 0: B = I; 1 × 1: b·I; n × 1: the diagonal;
  // n × n: the matrix, n = n_q,a).
  double feedback_scale = 0.01;
  Eigen::MatrixXd feedback_gains;
  // halm-posa: k_p [1/s], finite and >= 0, the proportional gain with which the commanded
  // velocity read from a schedule corrects the robots' tracking error (0: pure velocity
  // schedule; stepping/halm_posa_model.h).
  double command_tracking_gain = 0.0;
  // ecp: the friction ellipsoid (p_t/e_t)² + (p_o/e_o)² + (p_r/e_r)² <= (μ p_n)² (Xie &
  // Chakraborty, eqs. (6) and (9)): e_t, e_o [-] > 0 scale the tangential impulses, e_r [m] > 0
  // the torsional moment (a uniform pressure on a disk of radius a gives e_r = 2a/3). Defaults:
  // the paper's examples, 1, 1, 1 m.
  double ecp_e_t = 1.0;
  double ecp_e_o = 1.0;
  double ecp_e_r = 1.0;
};

// Throws std::invalid_argument naming the first setting outside its documented range (h and κ
// finite and > 0, object_mass_scale and c finite and >= 0, B as FeedbackGainsProblem, e_t, e_o,
// e_r finite and > 0). Step models call it once, when built.
void ValidateFormulationSettings(const FormulationSettings& settings);

// Values that replace a scene's own (the command line's and Python's arguments); unset ones
// keep the scene's.
struct SettingsOverrides {
  std::optional<FormulationType> type;
  std::optional<double> time_step;          // h [s]
  std::optional<double> kappa;              // κ [1/(N·m)]
  std::optional<double> object_mass_scale;  // s [-]
};

// From the scene: its time step and its formulation block (type and the parameters `kappa`,
// `object_mass_scale` or `unactuated_mass_scale`, `c`, `B`, `tracking_gain`, `e_t`, `e_o`, `e_r`),
// with `overrides`
// applied, validated. The values, first given first: κ = override, the scene's `kappa`,
// DefaultKappa(scene); s = override, the scene's `object_mass_scale`,
// ReferenceObjectMassScale(scene, h, c) for the scene's `unactuated_mass_scale` c (with the final
// h), 1. Throws std::invalid_argument naming a bad parameter.
FormulationSettings SettingsFromScene(const Scene& scene, const SettingsOverrides& overrides = {});

}  // namespace quasidyn
