#pragma once
// The Python linearisers' C++ side (gradients_bindings.cc: quasidyn.Linearizer,
// batch_linearizer_bindings.cc: quasidyn.BatchLinearizer) and the Python types of their
// results that are not a C++ type of their own (linearization_bindings.cc binds them).

#include <Eigen/Core>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.h"
#include "quasidyn/linearization/linearizer.h"

namespace quasidyn::python {

// The library's linearisers (linearization/linearizer.h) of one Python object: one per method,
// gradient mode, estimator and samples' program (a Linearizer's options are fixed), made on
// first use from the same formulation choice. Every use holds `mutex` (taken without the GIL:
// threads sharing the object take turns).
class Linearizers {
 public:
  // Makes the exact lineariser of A and B now, so that a bad choice or option raises here.
  Linearizers(ScenePtr scene, FormulationChoice choice, std::optional<double> contact_tolerance,
              int threads);
  const ScenePtr& scene() const { return scene_; }
  int threads() const { return options_.threads; }
  // ε [m] of the linearised steps' contact query.
  double contact_tolerance() const { return contact_tolerance_; }

  // `barrier_samples`: randomized samples of the formulation's log-barrier smoothing (its
  // capability smoothed_linearization) instead of its exact program.
  Linearizer& Get(LinearizationMethod method, GradientMode mode,
                  RandomizedEstimator estimator = RandomizedEstimator::kFirstOrder,
                  bool barrier_samples = false);

  std::mutex mutex;

 private:
  ScenePtr scene_;
  FormulationChoice choice_;
  LinearizationOptions options_;
  double contact_tolerance_ = 0.0;
  std::map<std::tuple<LinearizationMethod, GradientMode, RandomizedEstimator, bool>,
           std::unique_ptr<Linearizer>>
      cache_;
};

// The two Python classes (pybind11 binds one C++ type once).
struct PyLinearizer : Linearizers {
  using Linearizers::Linearizers;
};
struct PyBatchLinearizer : Linearizers {
  using Linearizers::Linearizers;
};

// A PyLinearizer or PyBatchLinearizer of the keywords, errors named after `who`.
template <typename Object>
std::unique_ptr<Object> MakeLinearizers(const char* who, std::shared_ptr<Scene> scene, int threads,
                                        const FormulationKeywords& keywords,
                                        std::optional<double> contact_tolerance) {
  const FormulationChoice choice = Choice(who, keywords);
  return Named(who, [&] {
    return std::make_unique<Object>(std::move(scene), choice, contact_tolerance, threads);
  });
}

// The linearization block's settings `names` (LinearizationSettingsSchema: method, samples,
// u_std, q_std, seed, estimator, ...) of a Python call's keywords, over the block's defaults and
// checked: TypeError for any other keyword or a value of the wrong type, ValueError
// "<who>: linearization.samples: must be >= 1 (got 0)" for a value out of range.
LinearizationOptions LinearizationKeywords(const char* who, const pybind11::kwargs& kwargs,
                                           const std::vector<std::string>& names);
// The docstring's "Keywords: ..." of those settings, with the stubs' marker.
std::string LinearizationKeywordsDoc(const std::vector<std::string>& names);

// The formulation keywords and the gradients / method arguments, as the docstrings say them.
extern const char* const kLinearizerKeywordsDoc;
extern const char* const kLinearizerModeMethodDoc;

// quasidyn.SmoothedLinearization: a randomized Linearization (pybind11 binds the C++
// Linearization once, as quasidyn.Linearization).
struct PySmoothed {
  Linearization r;
};

// quasidyn.BatchLinearization: a batch's results and the sizes of their stacked arrays.
struct PyBatchResult {
  std::vector<Linearization> items;
  Eigen::Index nq = 0, nv = 0;  // q⁺ and v⁺ (0 without a velocity state)
  Eigen::Index nx = 0, nu = 0;  // A is n_x × n_x, B n_x × nu
};

}  // namespace quasidyn::python
