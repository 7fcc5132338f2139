// quasidyn.Linearizer (A = ∂q⁺/∂q and B = ∂q⁺/∂u of one step, gradients/linearize.h),
// quasidyn.BatchLinearizer (many points on several threads, gradients/batch_linearize.h, and
// the randomized-smoothing gradients of gradients/randomized_smoothing.h), and their results
// quasidyn.Linearization and quasidyn.SmoothedLinearization (docs/python.md, "Gradients").
// C++ std::invalid_argument becomes ValueError with the same message (pybind11's translation).

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/gradients/batch_linearize.h"
#include "quasidyn/gradients/linearize.h"
#include "quasidyn/gradients/randomized_smoothing.h"

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

// A linearizer that owns (a share of) its scene.
class PyLinearizer {
 public:
  PyLinearizer(std::shared_ptr<Scene> scene, const FormulationSettings& settings)
      : scene_(std::move(scene)), linearizer_(*scene_, settings) {}
  const ScenePtr& scene() const { return scene_; }
  Linearization Linearize(const Eigen::VectorXd& q, const Eigen::VectorXd& u, GradientMode mode,
                          GradientMethod method) {
    return linearizer_.Linearize(q, u, mode, method);
  }

 private:
  ScenePtr scene_;  // declared first: constructed before, destroyed after the linearizer
  Linearizer linearizer_;
};

class PyBatchLinearizer {
 public:
  PyBatchLinearizer(std::shared_ptr<Scene> scene, const FormulationSettings& settings, int threads)
      : scene_(std::move(scene)), batch_(*scene_, settings, threads) {}
  const ScenePtr& scene() const { return scene_; }
  BatchLinearizer& batch() { return batch_; }

 private:
  ScenePtr scene_;
  BatchLinearizer batch_;
};

// Rows of Q and U as points; sizes are checked by the C++ batch ("point i: ...").
std::vector<LinearizationPoint> Points(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& U) {
  if (Q.rows() != U.rows()) {
    throw py::value_error("Q has " + std::to_string(Q.rows()) + " rows but U has " +
                          std::to_string(U.rows()) + ": one row per point in both");
  }
  std::vector<LinearizationPoint> points(static_cast<size_t>(Q.rows()));
  for (Eigen::Index i = 0; i < Q.rows(); ++i) {
    points[i].q = Q.row(i).transpose();
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

std::unique_ptr<PyLinearizer> MakeLinearizer(std::shared_ptr<Scene> scene,
                                             std::optional<std::string> formulation,
                                             std::optional<double> h, std::optional<double> kappa,
                                             std::optional<double> object_mass_scale) {
  if (!scene) throw py::value_error("Linearizer: scene is None");
  const FormulationSettings settings =
      ResolveSettings(*scene, formulation, h, kappa, object_mass_scale);
  return std::make_unique<PyLinearizer>(std::move(scene), settings);
}

constexpr const char* kSettingsDoc =
    "formulation: qp | socp | log-barrier | log-barrier-cone | lcp (which step is "
    "differentiated: the pyramid formulations give the QP / barrier-pyramid gradients, the cone "
    "formulations the SOCP / barrier-cone ones); h: time step [s] > 0; kappa: log-barrier weight "
    "κ [1/(N·m)] > 0; object_mass_scale: s [-] >= 0. None takes the scene's value. Raises "
    "ValueError for an unknown formulation or a value out of range.";

constexpr const char* kModeMethodDoc =
    "mode: 'a_and_b' (A and B), 'b_only' (B only, cheaper), 'none' (the step only); method: "
    "'exact' (implicit differentiation of the step's optimality conditions) or 'log_barrier' "
    "(the log-barrier smoothed step of weight kappa, Pang 2022).";

// Both randomized estimators (randomized_smoothing.h) take the same arguments.
using SmoothingEstimator = SmoothedLinearization (*)(BatchLinearizer*, const Eigen::VectorXd&,
                                                     const Eigen::VectorXd&, GradientMode,
                                                     GradientMethod,
                                                     const RandomizedSmoothingSettings&);

void DefineSmoothing(py::class_<PyBatchLinearizer>& cls, const char* name,
                     SmoothingEstimator estimator, const char* doc) {
  cls.def(
      name,
      [estimator](PyBatchLinearizer& b, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                  const std::string& mode, const std::string& method, int samples, double u_std,
                  double q_std, std::uint64_t seed) {
        const GradientMode parsed_mode = ParseMode(mode);
        const GradientMethod parsed_method = ParseMethod(method);
        const RandomizedSmoothingSettings settings = SmoothingSettings(samples, u_std, q_std, seed);
        py::gil_scoped_release release;
        return estimator(&b.batch(), q, u, parsed_mode, parsed_method, settings);
      },
      py::arg("q"), py::arg("u"), py::arg("mode") = "b_only", py::arg("method") = "exact",
      py::arg("samples") = 100, py::arg("u_std") = 0.01, py::arg("q_std") = 0.0,
      py::arg("seed") = 0, doc);
}

}  // namespace

void BindGradients(py::module_& m) {
  py::class_<Linearization>(
      m, "Linearization",
      "One step q⁺ = f(q, u) with A = ∂f/∂q (n_q × n_q) and B = ∂f/∂u (n_q × n_q,a); A acts on "
      "raw coordinate perturbations δq (docs/gradients.md).")
      .def_property_readonly(
          "status", [](const Linearization& r) { return std::string(ToString(r.status)); },
          "solved | solved_inaccurate | max_iterations | infeasible | numerical_failure | ...")
      .def_property_readonly("ok", &Linearization::ok,
                             "True when status is solved or solved_inaccurate.")
      .def_readonly("message", &Linearization::message,
                    "'' on success; otherwise what failed (solve or non-differentiable point).")
      .def_property_readonly(
          "q_next", [](const Linearization& r) -> const Eigen::VectorXd& { return r.q_next; },
          kView, "f(q, u) (n_q,) [m, rad]; q when the step failed. A read-only view.")
      .def_property_readonly(
          "v", [](const Linearization& r) -> const Eigen::VectorXd& { return r.v; }, kView,
          "The step's velocity v* (n_v,) [m/s, rad/s].")
      .def_property_readonly(
          "A", [](const Linearization& r) -> const Eigen::MatrixXd& { return r.A; }, kView,
          "∂q⁺/∂q (n_q, n_q) [-] for mode 'a_and_b'; shape (0, 0) otherwise.")
      .def_property_readonly(
          "B", [](const Linearization& r) -> const Eigen::MatrixXd& { return r.B; }, kView,
          "∂q⁺/∂u (n_q, n_q,a) [-] for modes 'a_and_b' and 'b_only'; shape (0, 0) otherwise.")
      .def_readonly("active_rows", &Linearization::active_rows,
                    "Exact QP: active pyramid rows; exact SOCP: binding conditions; barriers: "
                    "all rows.")
      .def("__repr__", [](const Linearization& r) {
        return "<quasidyn.Linearization " + std::string(ToString(r.status)) + ", A " +
               std::to_string(r.A.rows()) + "×" + std::to_string(r.A.cols()) + ", B " +
               std::to_string(r.B.rows()) + "×" + std::to_string(r.B.cols()) + ">";
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
      .def(py::init(&MakeLinearizer), py::arg("scene"), py::arg("formulation") = py::none(),
           py::arg("h") = py::none(), py::arg("kappa") = py::none(),
           py::arg("object_mass_scale") = py::none(),
           (std::string("Linearizer(scene, formulation=None, h=None, kappa=None, "
                        "object_mass_scale=None).\n") +
            kSettingsDoc)
               .c_str())
      .def_property_readonly(
          "scene", [](const PyLinearizer& l) { return std::const_pointer_cast<Scene>(l.scene()); })
      .def(
          "linearize",
          [](PyLinearizer& l, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
             const std::string& mode, const std::string& method) {
            const GradientMode parsed_mode = ParseMode(mode);
            const GradientMethod parsed_method = ParseMethod(method);
            py::gil_scoped_release release;
            return l.Linearize(q, u, parsed_mode, parsed_method);
          },
          py::arg("q"), py::arg("u"), py::arg("mode") = "a_and_b", py::arg("method") = "exact",
          (std::string("linearize(q, u, mode='a_and_b', method='exact') -> Linearization.\n"
                       "q: configuration (n_q,) [m, rad]; u: commanded robot positions "
                       "(n_q,a,) [m, rad]. ") +
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
             if (!scene) throw py::value_error("BatchLinearizer: scene is None");
             const FormulationSettings settings =
                 ResolveSettings(*scene, formulation, h, kappa, object_mass_scale);
             return std::make_unique<PyBatchLinearizer>(std::move(scene), settings, threads);
           }),
           py::arg("scene"), py::arg("threads") = 1, py::arg("formulation") = py::none(),
           py::arg("h") = py::none(), py::arg("kappa") = py::none(),
           py::arg("object_mass_scale") = py::none(),
           (std::string("BatchLinearizer(scene, threads=1, formulation=None, h=None, kappa=None, "
                        "object_mass_scale=None).\nthreads: worker threads >= 1. ") +
            kSettingsDoc)
               .c_str())
      .def_property_readonly("threads", [](PyBatchLinearizer& b) { return b.batch().threads(); })
      .def(
          "linearize",
          [](PyBatchLinearizer& b, const Eigen::MatrixXd& Q, const Eigen::MatrixXd& U,
             const std::string& mode, const std::string& method) {
            const GradientMode parsed_mode = ParseMode(mode);
            const GradientMethod parsed_method = ParseMethod(method);
            const std::vector<LinearizationPoint> points = Points(Q, U);
            py::gil_scoped_release release;
            return b.batch().Run(points, parsed_mode, parsed_method);
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
