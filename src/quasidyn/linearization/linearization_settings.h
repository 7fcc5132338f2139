#pragma once
// The lineariser's settings block `linearization` (model/settings_schema.h), declared once: the
// method, log-barrier's κ, randomized smoothing's samples, standard deviations, seed and
// estimator, the threads and the linearised step's contact tolerance, each with its unit, range,
// default (LinearizationOptions' and RandomizedSmoothingSettings' own) and doc. `quasidyn
// linearize`'s flags, the Python linearisers' keywords (quasidyn.Linearizer,
// quasidyn.BatchLinearizer), `quasidyn settings linearization` and docs/gradients.md's table are
// made from it.

#include <optional>

#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/model/settings_schema.h"

namespace quasidyn {

// Keys (flag, keyword): method, kappa, samples, std (--std, u_std=), std_q (--std-q, q_std=),
// seed, estimator, threads, contact_tolerance. kappa and contact_tolerance unset: the
// formulation's κ and the scene's ε.
const SettingsSchema<LinearizationOptions>& LinearizationSettingsSchema();

// The first problem of `options`: a setting out of its range (CheckSettingsBlock), or the rule
// across settings, randomized smoothing's zeroth-order estimator of B needs std > 0
// ("std: must be > 0 for the zeroth-order estimator (got 0)").
std::optional<SettingsProblem> CheckLinearizationOptions(const LinearizationOptions& options);

}  // namespace quasidyn
