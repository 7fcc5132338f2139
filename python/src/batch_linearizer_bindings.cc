// quasidyn.BatchLinearizer: the library's lineariser (linearization/linearizer.h) for many
// points on several threads (LinearizeBatch), and its randomized-smoothing estimates
// (docs/python.md, "Gradients"); gradients_bindings.cc has the one-point Linearizer.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "interruptible_call.h"
#include "linearizers.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// `work(lock)` on b's lineariser with b's mutex held (lock) and Ctrl-C able to stop it at the
// next point or sample (interruptible_call.h): `work` picks the lineariser with b.Get and hands it
// to Cancellable, which gives it the call's token for the call's duration.
class CancellationScope {
 public:
  CancellationScope(Linearizer& linearizer, const CancellationToken* token)
      : linearizer_(linearizer) {
    linearizer_.SetCancellation(token);
  }
  ~CancellationScope() { linearizer_.SetCancellation(nullptr); }
  CancellationScope(const CancellationScope&) = delete;
  CancellationScope& operator=(const CancellationScope&) = delete;

 private:
  Linearizer& linearizer_;
};

template <typename Work>
auto Interruptibly(PyBatchLinearizer& b, Work&& work) {
  CancellationToken cancel;
  return CallInterruptibly(&cancel, [&] {
    const std::lock_guard<std::mutex> lock(b.mutex);
    return work(&cancel);
  });
}

// Rows of Q, U (and V) as points.
std::vector<StepPoint> Points(const char* who, const Eigen::MatrixXd& Q, const Eigen::MatrixXd& U,
                              const std::optional<RealMatrix>& V) {
  if (Q.rows() != U.rows() || (V && V->value.rows() != Q.rows()))
    throw py::value_error(std::string(who) + ": Q has " + std::to_string(Q.rows()) +
                          " rows but U has " + std::to_string(U.rows()) +
                          (V ? " and V " + std::to_string(V->value.rows()) : std::string()) +
                          ": one row per point in each");
  std::vector<StepPoint> points(static_cast<size_t>(Q.rows()));
  for (Eigen::Index i = 0; i < Q.rows(); ++i) {
    points[i].x.q = Q.row(i).transpose();
    if (V) points[i].x.v = V->value.row(i).transpose();
    points[i].u = U.row(i).transpose();
  }
  return points;
}

// The keywords of the smoothing's calls, from the linearization block: smoothing_samples', the
// smooth_* calls' (the estimator is the call's), smoothing_estimate's (the samples are the
// evaluations').
const std::vector<std::string> kSamplesKeywords = {"estimator", "samples", "u_std", "q_std",
                                                   "seed"};
const std::vector<std::string> kSmoothKeywords = {"samples", "u_std", "q_std", "seed"};
const std::vector<std::string> kEstimateKeywords = {"estimator", "u_std", "q_std", "seed"};

// The one default of the smoothing's gradients: A and B, except where A cannot be estimated (the
// zeroth-order fit without q perturbations), as `quasidyn linearize --method randomized` does.
GradientMode SmoothingMode(const std::string& who, const std::optional<std::string>& gradients,
                           RandomizedEstimator estimator, double q_std) {
  if (gradients) return ParseGradients(who.c_str(), *gradients);
  return estimator == RandomizedEstimator::kZerothOrder && !(q_std > 0) ? GradientMode::kBOnly
                                                                        : GradientMode::kAAndB;
}

// The smoothing in parts (Linearizer::EvaluateSamples, EstimateFromSamples): samples evaluated on
// other machines, the estimate here (quasidyn.distributed.smoothed_linearize).
void DefineSmoothingParts(py::class_<PyBatchLinearizer>& cls) {
  cls.def(
      "smoothing_samples",
      [](PyBatchLinearizer& b, const RealVector& q, const RealVector& u, int first, int count,
         const std::optional<std::string>& gradients, const std::string& method,
         const py::kwargs& kwargs) {
        const char* who = "BatchLinearizer.smoothing_samples";
        const LinearizationOptions o = LinearizationKeywords(who, kwargs, kSamplesKeywords);
        return Named(who, [&] {
          const GradientMode mode = SmoothingMode(who, gradients, o.estimator, o.randomized.q_std);
          const bool barrier = ParseLinearizationMethod(method) == LinearizationMethod::kLogBarrier;
          return Interruptibly(b, [&](const CancellationToken* cancel) {
            Linearizer& linearizer =
                b.Get(LinearizationMethod::kRandomized, mode, o.estimator, barrier);
            const CancellationScope scope(linearizer, cancel);
            linearizer.SetRandomized(o.randomized);
            const StepModel& model = linearizer.model();
            return PyBatchResult{linearizer.EvaluateSamples(State{q.value, Eigen::VectorXd()},
                                                            u.value, first, count),
                                 model.state_q_size(), model.state_v_size(),
                                 model.state_q_size() + model.state_v_size(), model.control_size()};
          });
        });
      },
      py::arg("q"), py::arg("u"), py::arg("first"), py::arg("count"),
      py::arg("gradients") = py::none(), py::arg("method") = "exact",
      ("smoothing_samples(q, u, first, count, gradients=None, method='exact', **settings) -> "
       "BatchLinearization.\n"
       "Samples first … first + count - 1 of smooth_first_order's (estimator 'first-order') or "
       "smooth_zeroth_order's ('zeroth-order', steps only) sample set, each linearised: a part of "
       "the work, for another machine. Sample i depends on (seed, i) only. " +
       LinearizationKeywordsDoc(kSamplesKeywords))
          .c_str());
  cls.def(
      "smoothing_estimate",
      [](PyBatchLinearizer& b, const RealVector& q, const RealVector& u,
         const PyBatchResult& evaluations, const std::optional<std::string>& gradients,
         const std::string& method, const py::kwargs& kwargs) {
        const char* who = "BatchLinearizer.smoothing_estimate";
        LinearizationOptions o = LinearizationKeywords(who, kwargs, kEstimateKeywords);
        return Named(who, [&] {
          const GradientMode mode = SmoothingMode(who, gradients, o.estimator, o.randomized.q_std);
          const bool barrier = ParseLinearizationMethod(method) == LinearizationMethod::kLogBarrier;
          o.randomized.samples = static_cast<int>(evaluations.items.size());
          py::gil_scoped_release release;
          const std::lock_guard<std::mutex> lock(b.mutex);
          Linearizer& linearizer =
              b.Get(LinearizationMethod::kRandomized, mode, o.estimator, barrier);
          linearizer.SetRandomized(o.randomized);
          return PySmoothed{linearizer.EstimateFromSamples(State{q.value, Eigen::VectorXd()},
                                                           u.value, evaluations.items)};
        });
      },
      py::arg("q"), py::arg("u"), py::arg("evaluations"), py::arg("gradients") = py::none(),
      py::arg("method") = "exact",
      ("smoothing_estimate(q, u, evaluations, gradients=None, method='exact', **settings) -> "
       "SmoothedLinearization.\n"
       "The estimate from smoothing_samples' parts of all samples = len(evaluations), "
       "concatenated in sample order (BatchLinearization.concatenate): bitwise equal to "
       "smooth_first_order or smooth_zeroth_order with the same arguments. " +
       LinearizationKeywordsDoc(kEstimateKeywords))
          .c_str());
}

void DefineSmoothing(py::class_<PyBatchLinearizer>& cls, const char* name,
                     RandomizedEstimator estimator, const char* doc) {
  cls.def(
      name,
      [estimator, name](PyBatchLinearizer& b, const RealVector& q, const RealVector& u,
                        const std::optional<std::string>& gradients, const std::string& method,
                        const py::kwargs& kwargs) {
        const std::string who = std::string("BatchLinearizer.") + name;
        const RandomizedSmoothingSettings settings =
            LinearizationKeywords(who.c_str(), kwargs, kSmoothKeywords).randomized;
        const GradientMode mode = SmoothingMode(who, gradients, estimator, settings.q_std);
        return Named(who.c_str(), [&] {
          const bool barrier = ParseLinearizationMethod(method) == LinearizationMethod::kLogBarrier;
          return Interruptibly(b, [&](const CancellationToken* cancel) {
            Linearizer& linearizer =
                b.Get(LinearizationMethod::kRandomized, mode, estimator, barrier);
            const CancellationScope scope(linearizer, cancel);
            linearizer.SetRandomized(settings);
            return PySmoothed{linearizer.Linearize(State{q.value, Eigen::VectorXd()}, u.value)};
          });
        });
      },
      py::arg("q"), py::arg("u"), py::arg("gradients") = py::none(), py::arg("method") = "exact",
      (std::string(doc) + " " + LinearizationKeywordsDoc(kSmoothKeywords)).c_str());
}

}  // namespace

void BindBatchLinearizer(py::module_& m) {
  py::class_<PyBatchLinearizer> batch(
      m, "BatchLinearizer",
      "Linearizes many points on several threads; results are identical for every thread "
      "count. Also the randomized-smoothing gradients.");
  batch
      .def(py::init([](std::shared_ptr<Scene> scene, int threads,
                       std::optional<std::string> formulation, std::optional<double> h,
                       std::optional<double> contact_tolerance,
                       std::optional<std::map<std::string, double>> parameters, py::kwargs by_key) {
             return MakeLinearizers<PyBatchLinearizer>("BatchLinearizer", std::move(scene), threads,
                                                       {formulation, h, parameters, by_key},
                                                       contact_tolerance);
           }),
           py::arg("scene"), py::arg("threads") = 1, py::arg("formulation") = py::none(),
           py::arg("h") = py::none(), py::arg("contact_tolerance") = py::none(),
           py::arg("parameters") = py::none(),
           (std::string("BatchLinearizer(scene, threads=1, formulation=None, h=None, "
                        "contact_tolerance=None, parameters=None, **parameter).\n"
                        "threads: worker threads >= 1. ") +
            kLinearizerKeywordsDoc + kParameterKeywordsDoc)
               .c_str())
      .def_property_readonly("threads", &PyBatchLinearizer::threads, "Worker threads of the batch.")
      .def_property_readonly(
          "scene",
          [](const PyBatchLinearizer& b) { return std::const_pointer_cast<Scene>(b.scene()); },
          "The scene it linearises.")
      .def_property_readonly(
          "contact_tolerance", &PyBatchLinearizer::contact_tolerance,
          "ε [m] of the linearised step (the scene's unless contact_tolerance was given).")
      .def(
          "linearize",
          [](PyBatchLinearizer& b, const RealMatrix& Q, const RealMatrix& U,
             const std::string& gradients, const std::optional<RealMatrix>& V,
             const py::kwargs& kwargs) {
            const char* who = "BatchLinearizer.linearize";
            const GradientMode mode = ParseGradients(who, gradients);
            const LinearizationMethod parsed =
                LinearizationKeywords(who, kwargs, {"method"}).method;
            const std::vector<StepPoint> points = Points(who, Q.value, U.value, V);
            return Named(
                who,
                [&] {
                  return Interruptibly(b, [&](const CancellationToken* cancel) {
                    Linearizer& linearizer = b.Get(parsed, mode);
                    const CancellationScope scope(linearizer, cancel);
                    const StepModel& model = linearizer.model();
                    return PyBatchResult{linearizer.LinearizeBatch(points), model.state_q_size(),
                                         model.state_v_size(),
                                         model.state_q_size() + model.state_v_size(),
                                         model.control_size()};
                  });
                },
                /*items=*/true);
          },
          py::arg("Q"), py::arg("U"), py::arg("gradients") = "a_and_b", py::arg("V") = py::none(),
          (std::string("linearize(Q, U, gradients='a_and_b', V=None, **settings) -> "
                       "BatchLinearization (stacked arrays).\nQ: (M, n_q) configurations, U: "
                       "(M, nu) commands, V: (M, n_v) velocities (the formulations with a "
                       "velocity state), one point per row; the loop runs in C++ without the "
                       "GIL. ") +
           kLinearizerModeMethodDoc +
           " A failed point keeps its status and message; ValueError 'Q[i] ...' for bad "
           "sizes or NaN. " +
           LinearizationKeywordsDoc({"method"}))
              .c_str());
  DefineSmoothingParts(batch);
  DefineSmoothing(
      batch, "smooth_first_order", RandomizedEstimator::kFirstOrder,
      "smooth_first_order(q, u, gradients=None, method='exact', **settings) -> "
      "SmoothedLinearization.\nThe bundled gradient: the mean of the "
      "gradients at `samples` >= 1 points u + u_std·ξ_u [m, rad], q ⊕ q_std·ξ_q [m, rad], "
      "ξ ~ N(0, I) drawn from `seed` (equal seeds give equal results). gradients: None (A "
      "and B), 'a_and_b', 'b_only' or 'none'; method: the samples' gradients, 'exact' or "
      "'log-barrier' (the formulation's log-barrier smoothing).");
  DefineSmoothing(
      batch, "smooth_zeroth_order", RandomizedEstimator::kZerothOrder,
      "smooth_zeroth_order(q, u, gradients=None, method='exact', **settings) -> "
      "SmoothedLinearization.\nLeast squares of the sampled steps "
      "against their perturbations (no gradients solved). 'b_only' needs u_std > 0, "
      "'a_and_b' also q_std > 0 [m, rad]; gradients=None estimates A and B, or B only when "
      "q_std = 0 (as `quasidyn linearize --method randomized`); equal seeds give equal "
      "results.");
}

}  // namespace quasidyn::python
