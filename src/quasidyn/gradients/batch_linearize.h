#pragma once
// Batch evaluation of the time step and its linearisation (issue 4, "Batch evaluation"):
// f(q_i, u_i) and, by GradientMode, A_i and B_i (linearize.h) for N pairs (q_i, u_i), on T
// worker threads (std::thread).
//
// Determinism: the result is bitwise identical for every T. Each thread owns its own
// Linearizer; item i goes to thread i mod T; every item is computed on its own by the same
// code from the same inputs (Linearizer::Linearize keeps no state that changes its result
// from one call to the next: its solvers are re-started from scratch each call), and nothing
// is reduced across threads. The batch is the building block of the planners and of
// randomized smoothing (randomized_smoothing.h).
//
// Failures: a failed item (solver failure, non-differentiable point, or an exception thrown
// while computing it) keeps its status and message in its Linearization and does not stop
// the batch. Bad input (sizes, NaN, T < 1) throws std::invalid_argument naming the item
// before any work starts.

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/gradients/linearize.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// One point of a batch: q (size n_q; quaternions need not be normalised, as for
// Linearizer::Linearize) and u (size n_q,a, the commanded robot positions [m or rad]).
struct LinearizationPoint {
  Eigen::VectorXd q;
  Eigen::VectorXd u;
};

class BatchLinearizer {
 public:
  // threads T >= 1 (std::invalid_argument otherwise). Keeps a reference to scene, which must
  // outlive the batch linearizer. Settings are validated as by Linearizer.
  BatchLinearizer(const Scene& scene, const FormulationSettings& settings, int threads,
                  const LinearizeSettings& linearize_settings = LinearizeSettings());
  ~BatchLinearizer();
  BatchLinearizer(const BatchLinearizer&) = delete;
  BatchLinearizer& operator=(const BatchLinearizer&) = delete;

  int threads() const { return static_cast<int>(linearizers_.size()); }
  const Scene& scene() const { return scene_; }

  // result[i] = Linearizer::Linearize(points[i].q, points[i].u, mode, method). Throws
  // std::invalid_argument "point i: ..." when q_i or u_i has the wrong size or a non-finite
  // entry. Not reentrant: one Run at a time per BatchLinearizer.
  std::vector<Linearization> Run(const std::vector<LinearizationPoint>& points, GradientMode mode,
                                 GradientMethod method);

 private:
  const Scene& scene_;
  std::vector<std::unique_ptr<Linearizer>> linearizers_;  // one per thread
};

// Convenience: a BatchLinearizer with `threads` threads, used once.
std::vector<Linearization> LinearizeBatch(
    const Scene& scene, const FormulationSettings& settings,
    const std::vector<LinearizationPoint>& points, GradientMode mode, GradientMethod method,
    int threads, const LinearizeSettings& linearize_settings = LinearizeSettings());

}  // namespace quasidyn
