#pragma once
// Which model steps a scene, and which program its gradients come from: the one table of
// docs/formulations.md and docs/gradients.md.
//
//   formulation type    model                      derivative (CalcDiff)
//   qp                  QuasiDynamicModel          pyramid QP, implicit (qp_gradient.h)
//   socp                QuasiDynamicModel          exact-cone SOCP, implicit (socp_gradient.h)
//   log-barrier         QuasiDynamicModel          pyramid barrier (log_barrier_gradient.h)
//   log-barrier-cone    QuasiDynamicModel          cone barrier (log_barrier_cone_gradient.h)
//   lcp                 QuasiDynamicModel          none (the QP's, through the table below)
//   halm-posa           HalmPosaModel              its LCP, implicit (halm_posa_gradient.h)
//   stewart-trinkle     SecondOrderModel           its LCP, implicit (lcp_step_gradient.h)
//   anitescu            SecondOrderModel           pyramid QP, implicit (qp_gradient.h)
//   ecp                 EcpModel                   its NCP, implicit (ecp_gradient.h)
//
// Linearising a scene "exactly" or "smoothed" (the command line's and Python's
// linearize(mode=...)) means differentiating the model of the program below; its step is the
// step of that program (equal to the scene's own step when the two agree):
//
//   scene type                     exact            log-barrier (weight κ = kappa)
//   qp, lcp, log-barrier           qp               log-barrier
//   socp, log-barrier-cone         socp             log-barrier-cone
//   halm-posa                      halm-posa        (none: std::invalid_argument)
//   stewart-trinkle                stewart-trinkle  (none: std::invalid_argument)
//   anitescu                       anitescu         (none: std::invalid_argument)
//   ecp                            ecp              (none: std::invalid_argument)

#include <memory>
#include <string>

#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

enum class GradientMethod {
  kExact,       // the non-smooth program's implicit derivative (pyramid QP or SOCP)
  kLogBarrier,  // the log-barrier smoothed program's (pyramid or cone), weight κ = kappa
};

// "exact", "log-barrier". ParseGradientMethod accepts those (std::invalid_argument naming
// them otherwise).
const char* GradientMethodName(GradientMethod method);
GradientMethod ParseGradientMethod(const std::string& name);

// The model of settings.type (table above); throws std::invalid_argument for bad settings or a
// scene the model rejects (geometry, kinematics).
std::shared_ptr<const StepModel> MakeStepModel(ScenePtr scene, const FormulationSettings& settings);

// The formulation whose derivative `method` takes for a scene of formulation `type`;
// std::invalid_argument for a pair the table above does not have.
FormulationType DifferentiatedFormulation(FormulationType type, GradientMethod method);

// True when models of this formulation implement CalcDiff.
bool HasDerivatives(FormulationType type);

// True when the command u of this formulation's model is the robots' commanded positions q̄_a
// (every quasi-dynamic formulation and the second-order ones); false for halm-posa, whose u is
// a commanded velocity [m/s, rad/s] (halm_posa_model.h), and for ecp, whose u is the objects'
// applied generalized impulse [N·s, N·m·s] (ecp_model.h).
bool CommandsPositions(FormulationType type);

}  // namespace quasidyn
