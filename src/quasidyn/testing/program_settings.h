#pragma once
// The formulation and the resolved parameter values of a step, as the tests that build a
// program's problem themselves (a reference solve, a finite-difference check) need them in one
// place: the name, h, κ and s, and halm-posa's and ecp's parameters when a test sets them. It
// converts to the FormulationChoice of MakeStepModel (formulations/registry.h), so a test steps a
// model with exactly the values its reference uses. Header only; tests only.

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/formulations/ecp/ecp_system.h"
#include "quasidyn/formulations/lcp/lcp_program.h"
#include "quasidyn/formulations/log_barrier/log_barrier_program.h"
#include "quasidyn/formulations/log_barrier_cone/log_barrier_cone.h"
#include "quasidyn/formulations/qp/qp_program.h"
#include "quasidyn/formulations/quasi_dynamic/barrier_stand_off.h"
#include "quasidyn/formulations/quasi_dynamic/object_mass_scale.h"
#include "quasidyn/formulations/socp/socp_program.h"
#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"

namespace quasidyn::testing {

struct ProgramSettings {
  std::string type = "qp";                          // a registered formulation
  double time_step = 0.01;                          // h [s]
  double kappa = 100.0;                             // κ [1/(N·m)] of the log barriers
  double object_mass_scale = 1.0;                   // s [-] of the quasi-dynamic cost
  std::optional<double> feedback_scale;             // halm-posa's c
  std::optional<Eigen::MatrixXd> feedback_gains;    // halm-posa's B
  std::optional<double> command_tracking_gain;      // halm-posa's tracking_gain
  std::optional<double> ecp_e_t, ecp_e_o, ecp_e_r;  // ecp's friction ellipsoid

  QuasiDynamicCostParameters cost() const { return {time_step, object_mass_scale}; }

  // The values above on top of the scene's block (which keeps what is not set here).
  FormulationChoice choice() const {
    // Named as a scene's block names them, so that messages read alike.
    const auto set = [](FormulationChoice* c, const std::string& key, Eigen::MatrixXd value) {
      c->parameters.Set(key, std::move(value), ValueSource{"", 0, "formulation." + key});
    };
    const auto number = [](double x) { return Eigen::MatrixXd::Constant(1, 1, x); };
    FormulationChoice c(type, {}, time_step);
    set(&c, "kappa", number(kappa));
    set(&c, "object_mass_scale", number(object_mass_scale));
    if (feedback_scale) set(&c, "c", number(*feedback_scale));
    if (feedback_gains) set(&c, "B", *feedback_gains);
    if (command_tracking_gain) set(&c, "tracking_gain", number(*command_tracking_gain));
    if (ecp_e_t) set(&c, "e_t", number(*ecp_e_t));
    if (ecp_e_o) set(&c, "e_o", number(*ecp_e_o));
    if (ecp_e_r) set(&c, "e_r", number(*ecp_e_r));
    return c;
  }
  operator FormulationChoice() const { return choice(); }         // NOLINT: a test's shorthand
  operator QuasiDynamicCostParameters() const { return cost(); }  // NOLINT
  operator EcpParameters() const {                                // NOLINT
    return {time_step, ecp_e_t.value_or(1.0), ecp_e_o.value_or(1.0), ecp_e_r.value_or(1.0)};
  }

  // The quasi-dynamic program of `type` with its default solver settings, as the formulation's
  // registration makes it (formulations/<type>/).
  std::unique_ptr<const QuasiDynamicProgram> program() const {
    if (type == "qp") return std::make_unique<QpProgram>();
    if (type == "socp") return std::make_unique<SocpProgram>();
    if (type == "log-barrier") return std::make_unique<PyramidLogBarrierProgram>(kappa);
    if (type == "log-barrier-cone") return std::make_unique<ConeLogBarrierProgram>(kappa);
    if (type == "lcp") return std::make_unique<QuasistaticLcpProgram>();
    throw std::invalid_argument("ProgramSettings: " + type + " is not a quasi-dynamic program");
  }
  // The distance up to which the program keeps contacts (a barrier's stand-off).
  double CandidateDistance(const Scene& scene) const { return program()->CandidateDistance(scene); }
};

// The scene's own: its formulation and h, κ = the scene's kappa else DefaultKappa, s = the
// scene's object_mass_scale, else the reference rule for its unactuated_mass_scale, else 1.
inline ProgramSettings SceneProgramSettings(const Scene& scene) {
  ProgramSettings s;
  s.type = scene.formulation.name;
  s.time_step = scene.time_step;
  const ParameterBlock& block = scene.formulation.parameters;
  s.kappa = block.Find("kappa") ? block.Find("kappa")->value(0, 0) : DefaultKappa(scene);
  if (const ParameterValue* e = block.Find("e_t")) s.ecp_e_t = e->value(0, 0);
  if (const ParameterValue* e = block.Find("e_o")) s.ecp_e_o = e->value(0, 0);
  if (const ParameterValue* e = block.Find("e_r")) s.ecp_e_r = e->value(0, 0);
  if (const ParameterValue* c = block.Find("c")) s.feedback_scale = c->value(0, 0);
  if (const ParameterValue* b = block.Find("B")) s.feedback_gains = b->value;
  if (const ParameterValue* k = block.Find("tracking_gain"))
    s.command_tracking_gain = k->value(0, 0);
  if (const ParameterValue* scale = block.Find("object_mass_scale")) {
    s.object_mass_scale = scale->value(0, 0);
  } else if (const ParameterValue* divisor = block.Find("unactuated_mass_scale")) {
    s.object_mass_scale = ReferenceObjectMassScale(scene, s.time_step, divisor->value(0, 0));
  }
  return s;
}

}  // namespace quasidyn::testing
