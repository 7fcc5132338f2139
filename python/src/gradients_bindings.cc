// quasidyn.Linearizer (A = ∂q⁺/∂q and B = ∂q⁺/∂u of one step: StepModel::Calc then CalcDiff),
// quasidyn.BatchLinearizer (many points on several threads, stepping/batch_step.h, and the
// randomized-smoothing gradients of stepping/randomized_smoothing.h), and their results
// quasidyn.Linearization and quasidyn.SmoothedLinearization (docs/python.md, "Gradients").
// C++ std::invalid_argument becomes ValueError with the same message (pybind11's translation).

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/stepping/batch_step.h"
#include "quasidyn/stepping/formulation_table.h"
#include "quasidyn/stepping/randomized_smoothing.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

constexpr auto kView = py::return_value_policy::reference_internal;

GradientMode ParseMode(const std::string& mode) {
  if (mode == "a_and_b") return GradientMode::kAAndB;
  if (mode == "b_only") return GradientMode::kBOnly;
  if (mode == "none") return GradientMode::kNone;
  throw py::value_error("unknown gradient mode '" + mode + "' (a_and_b, b_only, none)");
}

GradientMethod ParseMethod(const std::string& method) {
  if (method == "exact") return GradientMethod::kExact;
  if (method == "log_barrier") return GradientMethod::kLogBarrier;
  throw py::value_error("unknown gradient method '" + method + "' (exact, log_barrier)");
}

// The batch evaluator of each gradient method: the model of the program that method
// differentiates for the settings' formulation (formulation_table.h), made on first use, with
// `threads` data objects. A Linearizer is one with a single thread. Every use of a batch holds
// the mutex (called without the GIL: threads sharing the object take turns).
class MethodBatches {
 public:
  MethodBatches(ScenePtr scene, const FormulationSettings& settings, int threads)
      : scene_(std::move(scene)), settings_(settings), threads_(threads) {
    Batch(GradientMethod::kExact);  // validates the settings and the thread count now
  }
  const ScenePtr& scene() const { return scene_; }
  int threads() const { return threads_; }

  template <typename Use>
  auto With(GradientMethod method, Use use) {
    const std::lock_guard<std::mutex> lock(mutex_);
    return use(Batch(method));
  }

 private:
  BatchStepper& Batch(GradientMethod method) {
    std::unique_ptr<BatchStepper>& batch = batches_[method == GradientMethod::kExact ? 0 : 1];
    if (!batch) {
      FormulationSettings differentiated = settings_;
      differentiated.type = DifferentiatedFormulation(settings_.type, method);
      batch = std::make_unique<BatchStepper>(MakeStepModel(scene_, differentiated), threads_);
    }
    return *batch;
  }

  ScenePtr scene_;
  FormulationSettings settings_;
  int threads_;
  std::unique_ptr<BatchStepper> batches_[2];  // exact, log-barrier
  std::mutex mutex_;
};

// The two Python classes (pybind11 binds one C++ type once).
struct PyLinearizer : MethodBatches {
  using MethodBatches::MethodBatches;
};
struct PyBatchLinearizer : MethodBatches {
  using MethodBatches::MethodBatches;
};

// Rows of Q and U as points; sizes are checked by the C++ batch ("point i: ...").
std::vector<StepPoint> Points(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& U) {
  if (Q.rows() != U.rows()) {
    throw py::value_error("Q has " + std::to_string(Q.rows()) + " rows but U has " +
                          std::to_string(U.rows()) + ": one row per point in both");
  }
  std::vector<StepPoint> points(static_cast<size_t>(Q.rows()));
  for (Eigen::Index i = 0; i < Q.rows(); ++i) {
    points[i].x.q = Q.row(i).transpose();
    points[i].u = U.row(i).transpose();
  }
  return points;
}

RandomizedSmoothingSettings SmoothingSettings(int samples, double u_std, double q_std,
                                              std::uint64_t seed) {
  RandomizedSmoothingSettings settings;
  settings.samples = samples;
  settings.u_std = u_std;
  settings.q_std = q_std;
  settings.seed = seed;
  return settings;
}

template <typename Batches>
std::unique_ptr<Batches> MakeMethodBatches(const char* who, std::shared_ptr<Scene> scene,
                                           int threads, std::optional<std::string> formulation,
                                           std::optional<double> h, std::optional<double> kappa,
                                           std::optional<double> object_mass_scale) {
  const FormulationSettings settings =
      ResolveSettings(who, scene, formulation, h, kappa, object_mass_scale);
  return std::make_unique<Batches>(std::move(scene), settings, threads);
}

constexpr const char* kSettingsDoc =
    "formulation: qp | socp | log-barrier | log-barrier-cone | lcp | halm-posa (which step is "
    "differentiated: the pyramid formulations give the QP / barrier-pyramid gradients, the cone "
    "formulations the SOCP / barrier-cone ones); h: time step [s] > 0; kappa: log-barrier weight "
    "κ [1/(N·m)] > 0; object_mass_scale: s [-] >= 0. None takes the scene's value. Raises "
    "ValueError for an unknown formulation or a value out of range.";

constexpr const char* kModeMethodDoc =
    "mode: 'a_and_b' (A and B), 'b_only' (B only, cheaper), 'none' (the step only); method: "
    "'exact' (implicit differentiation of the step's optimality conditions) or 'log_barrier' "
    "(the log-barrier smoothed step of weight kappa; Pang, Suh, Yang & Tedrake, T-RO 2023).";

// Both randomized estimators (randomized_smoothing.h) take the same arguments.
using SmoothingEstimator = SmoothedLinearization (*)(BatchStepper*, const Eigen::VectorXd&,
                                                     const Eigen::VectorXd&, GradientMode,
                                                     const RandomizedSmoothingSettings&);

void DefineSmoothing(py::class_<PyBatchLinearizer>& cls, const char* name,
                     SmoothingEstimator estimator, const char* doc) {
  cls.def(
      name,
      [estimator](PyBatchLinearizer& b, const RealVector& q_in, const RealVector& u_in,
                  const std::string& mode, const std::string& method, int samples, double u_std,
                  double q_std, std::uint64_t seed) {
        const Eigen::VectorXd& q = q_in.value;
        const Eigen::VectorXd& u = u_in.value;
        const GradientMode parsed_mode = ParseMode(mode);
        const GradientMethod parsed_method = ParseMethod(method);
        const RandomizedSmoothingSettings settings = SmoothingSettings(samples, u_std, q_std, seed);
        py::gil_scoped_release release;
        return b.With(parsed_method, [&](BatchStepper& batch) {
          return estimator(&batch, q, u, parsed_mode, settings);
        });
      },
      py::arg("q"), py::arg("u"), py::arg("mode") = "b_only", py::arg("method") = "exact",
      py::arg("samples") = 100, py::arg("u_std") = 0.01, py::arg("q_std") = 0.0,
      py::arg("seed") = 0, doc);
}

}  // namespace

void BindGradients(py::module_& m) {
  py::class_<StepEvaluation>(
      m, "Linearization",
      "One step q⁺ = f(q, u) with A = ∂f/∂q (n_q × n_q) and B = ∂f/∂u (n_q × n_q,a); A acts on "
      "raw coordinate perturbations δq (docs/gradients.md).")
      .def_property_readonly(
          "status",
          [](const StepEvaluation& r) { return std::string(ToString(r.derivatives.status)); },
          "solved | solved_inaccurate | max_iterations | infeasible | numerical_failure | ...: "
          "the step's status when it failed, else the derivative's.")
      .def_property_readonly(
          "ok", [](const StepEvaluation& r) { return r.derivatives.ok(); },
          "True when status is solved or solved_inaccurate.")
      .def_property_readonly(
          "message", [](const StepEvaluation& r) { return r.derivatives.message; },
          "'' on success; otherwise what failed (solve or non-differentiable point).")
      .def_property_readonly(
          "q_next",
          [](const StepEvaluation& r) -> const Eigen::VectorXd& { return r.result.next.q; }, kView,
          "f(q, u) (n_q,) [m, rad]; q when the step failed. A read-only view.")
      .def_property_readonly(
          "v", [](const StepEvaluation& r) -> const Eigen::VectorXd& { return r.result.velocity; },
          kView, "The step's velocity v* (n_v,) [m/s, rad/s].")
      .def_property_readonly(
          "A", [](const StepEvaluation& r) -> const Eigen::MatrixXd& { return r.derivatives.A; },
          kView, "∂q⁺/∂q (n_q, n_q) [-] for mode 'a_and_b'; shape (0, 0) otherwise.")
      .def_property_readonly(
          "B", [](const StepEvaluation& r) -> const Eigen::MatrixXd& { return r.derivatives.B; },
          kView,
          "∂q⁺/∂u (n_q, n_q,a) [-] for modes 'a_and_b' and 'b_only'; shape (0, 0) otherwise.")
      .def_property_readonly(
          "active_rows", [](const StepEvaluation& r) { return r.derivatives.active_rows; },
          "Exact QP: active pyramid rows; exact SOCP: binding conditions; barriers: all rows.")
      .def("__repr__", [](const StepEvaluation& r) {
        const StepDerivatives& d = r.derivatives;
        return "<quasidyn.Linearization " + std::string(ToString(d.status)) + ", A " +
               std::to_string(d.A.rows()) + "×" + std::to_string(d.A.cols()) + ", B " +
               std::to_string(d.B.rows()) + "×" + std::to_string(d.B.cols()) + ">";
      });

  py::class_<SmoothedLinearization>(
      m, "SmoothedLinearization",
      "A randomized-smoothing estimate of the step and its gradients (Suh, Pang & Tedrake, "
      "RA-L 2022): q_next is the mean of f over the samples, A and B the estimated gradients "
      "of the Gaussian-smoothed step, with entrywise standard errors.")
      .def_property_readonly(
          "status", [](const SmoothedLinearization& r) { return std::string(ToString(r.status)); })
      .def_property_readonly("ok", &SmoothedLinearization::ok, "True when status is solved.")
      .def_readonly("message", &SmoothedLinearization::message)
      .def_property_readonly(
          "q_next",
          [](const SmoothedLinearization& r) -> const Eigen::VectorXd& { return r.q_next; }, kView,
          "Mean of f over the successful samples (n_q,) [m, rad].")
      .def_property_readonly(
          "A", [](const SmoothedLinearization& r) -> const Eigen::MatrixXd& { return r.A; }, kView,
          "(n_q, n_q) for mode 'a_and_b', else (0, 0).")
      .def_property_readonly(
          "B", [](const SmoothedLinearization& r) -> const Eigen::MatrixXd& { return r.B; }, kView,
          "(n_q, n_q,a) for modes 'a_and_b' and 'b_only', else (0, 0).")
      .def_property_readonly(
          "A_standard_error",
          [](const SmoothedLinearization& r) -> const Eigen::MatrixXd& {
            return r.A_standard_error;
          },
          kView, "Entrywise standard error of A.")
      .def_property_readonly(
          "B_standard_error",
          [](const SmoothedLinearization& r) -> const Eigen::MatrixXd& {
            return r.B_standard_error;
          },
          kView, "Entrywise standard error of B.")
      .def_readonly("samples_used", &SmoothedLinearization::samples_used)
      .def_readonly("samples_failed", &SmoothedLinearization::samples_failed)
      .def_readonly("first_failure", &SmoothedLinearization::first_failure);

  py::class_<PyLinearizer>(m, "Linearizer",
                           "Linearizes the quasi-dynamic step: q⁺, A = ∂q⁺/∂q, B = ∂q⁺/∂u.")
      .def(py::init([](std::shared_ptr<Scene> scene, std::optional<std::string> formulation,
                       std::optional<double> h, std::optional<double> kappa,
                       std::optional<double> object_mass_scale) {
             return MakeMethodBatches<PyLinearizer>("Linearizer", std::move(scene), 1, formulation,
                                                    h, kappa, object_mass_scale);
           }),
           py::arg("scene"), py::arg("formulation") = py::none(), py::arg("h") = py::none(),
           py::arg("kappa") = py::none(), py::arg("object_mass_scale") = py::none(),
           (std::string("Linearizer(scene, formulation=None, h=None, kappa=None, "
                        "object_mass_scale=None).\n") +
            kSettingsDoc)
               .c_str())
      .def_property_readonly(
          "scene", [](const PyLinearizer& l) { return std::const_pointer_cast<Scene>(l.scene()); })
      .def(
          "linearize",
          [](PyLinearizer& l, const RealVector& q_in, const RealVector& u_in,
             const std::string& mode, const std::string& method) {
            const Eigen::VectorXd& q = q_in.value;
            const Eigen::VectorXd& u = u_in.value;
            const GradientMode parsed_mode = ParseMode(mode);
            const GradientMethod parsed_method = ParseMethod(method);
            const std::vector<StepPoint> point{StepPoint{State{q, Eigen::VectorXd()}, u}};
            py::gil_scoped_release release;
            return l.With(parsed_method, [&](BatchStepper& batch) {
              return std::move(batch.Run(point, parsed_mode).front());
            });
          },
          py::arg("q"), py::arg("u"), py::arg("mode") = "a_and_b", py::arg("method") = "exact",
          (std::string("linearize(q, u, mode='a_and_b', method='exact') -> Linearization.\n"
                       "q: configuration (n_q,) [m, rad]; u: commanded robot positions "
                       "(n_q,a,) [m, rad] (halm-posa: velocities [m/s, rad/s]). ") +
           kModeMethodDoc +
           " A failed solve is reported in status/message, not raised; ValueError for bad "
           "sizes or NaN.")
              .c_str());

  py::class_<PyBatchLinearizer> batch(
      m, "BatchLinearizer",
      "Linearizes many points on several threads; results are identical for every thread "
      "count. Also the randomized-smoothing gradients.");
  batch
      .def(py::init([](std::shared_ptr<Scene> scene, int threads,
                       std::optional<std::string> formulation, std::optional<double> h,
                       std::optional<double> kappa, std::optional<double> object_mass_scale) {
             return MakeMethodBatches<PyBatchLinearizer>("BatchLinearizer", std::move(scene),
                                                         threads, formulation, h, kappa,
                                                         object_mass_scale);
           }),
           py::arg("scene"), py::arg("threads") = 1, py::arg("formulation") = py::none(),
           py::arg("h") = py::none(), py::arg("kappa") = py::none(),
           py::arg("object_mass_scale") = py::none(),
           (std::string("BatchLinearizer(scene, threads=1, formulation=None, h=None, kappa=None, "
                        "object_mass_scale=None).\nthreads: worker threads >= 1. ") +
            kSettingsDoc)
               .c_str())
      .def_property_readonly("threads", [](const PyBatchLinearizer& b) { return b.threads(); })
      .def(
          "linearize",
          [](PyBatchLinearizer& b, const RealMatrix& Q, const RealMatrix& U,
             const std::string& mode, const std::string& method) {
            const GradientMode parsed_mode = ParseMode(mode);
            const GradientMethod parsed_method = ParseMethod(method);
            const std::vector<StepPoint> points = Points(Q.value, U.value);
            py::gil_scoped_release release;
            return b.With(parsed_method,
                          [&](BatchStepper& stepper) { return stepper.Run(points, parsed_mode); });
          },
          py::arg("Q"), py::arg("U"), py::arg("mode") = "a_and_b", py::arg("method") = "exact",
          (std::string("linearize(Q, U, mode='a_and_b', method='exact') -> list of "
                       "Linearization.\nQ: (M, n_q) configurations, U: (M, n_q,a) commands, one "
                       "point per row; the loop runs in C++ without the GIL. ") +
           kModeMethodDoc +
           " A failed point keeps its status and message; ValueError 'point i: ...' for bad "
           "sizes or NaN.")
              .c_str());
  DefineSmoothing(
      batch, "smooth_first_order", &FirstOrderSmoothing,
      "smooth_first_order(q, u, mode='b_only', method='exact', samples=100, u_std=0.01, "
      "q_std=0.0, seed=0) -> SmoothedLinearization.\nThe bundled gradient: the mean of the "
      "gradients at `samples` >= 1 points u + u_std·ξ_u [m, rad], q ⊕ q_std·ξ_q [m, rad], "
      "ξ ~ N(0, I) drawn from `seed` (equal seeds give equal results).");
  DefineSmoothing(
      batch, "smooth_zeroth_order", &ZerothOrderSmoothing,
      "smooth_zeroth_order(q, u, mode='b_only', method='exact', samples=100, u_std=0.01, "
      "q_std=0.0, seed=0) -> SmoothedLinearization.\nLeast squares of the sampled steps "
      "against their perturbations (no gradients solved). 'b_only' needs u_std > 0, "
      "'a_and_b' also q_std > 0 [m, rad]; equal seeds give equal results.");
}

}  // namespace quasidyn::python
