// quasidyn.Linearizer (A = ∂q⁺/∂q and B = ∂q⁺/∂u of one step: StepModel::Calc then CalcDiff),
// quasidyn.BatchLinearizer (many points on several threads, stepping/batch_step.h, and the
// randomized-smoothing gradients of stepping/randomized_smoothing.h), and their results
// quasidyn.Linearization and quasidyn.SmoothedLinearization (docs/python.md, "Gradients").
// C++ std::invalid_argument becomes ValueError with the same message (pybind11's translation).

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/common/argument_check.h"
#include "quasidyn/io/scene_edit.h"
#include "quasidyn/stepping/batch_step.h"
#include "quasidyn/stepping/formulation_table.h"
#include "quasidyn/stepping/randomized_smoothing.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

constexpr auto kView = py::return_value_policy::reference_internal;

// The command line's names (exact, log-barrier): one spelling everywhere.
GradientMethod ParseMethod(const char* who, const std::string& method) {
  for (GradientMethod m : {GradientMethod::kExact, GradientMethod::kLogBarrier})
    if (method == GradientMethodName(m)) return m;
  throw py::value_error(std::string(who) + ": method must be 'exact' or 'log-barrier' (got '" +
                        method + "')");
}

// The batch evaluator of each gradient method: the model of the program that method
// differentiates for the settings' formulation (formulation_table.h), made on first use, with
// `threads` data objects. A Linearizer is one with a single thread. Every use of a batch holds
// the mutex (called without the GIL: threads sharing the object take turns).
class MethodBatches {
 public:
  // `scene` is the caller's; `stepped` the scene the models step: the same, or a copy with a
  // larger contact tolerance (the contact_tolerance option).
  MethodBatches(ScenePtr scene, ScenePtr stepped, const FormulationSettings& settings, int threads)
      : scene_(std::move(scene)),
        stepped_(std::move(stepped)),
        settings_(settings),
        threads_(threads) {
    Batch(GradientMethod::kExact);  // validates the settings and the thread count now
  }
  const ScenePtr& scene() const { return scene_; }
  const FormulationSettings& settings() const { return settings_; }
  double contact_tolerance() const { return stepped_->contact_tolerance; }
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
      batch = std::make_unique<BatchStepper>(MakeStepModel(stepped_, differentiated), threads_);
    }
    return *batch;
  }

  ScenePtr scene_, stepped_;
  FormulationSettings settings_;
  int threads_;
  std::unique_ptr<BatchStepper> batches_[2];  // exact, log-barrier
  std::mutex mutex_;
};

// The batch evaluators take points q alone: ValueError for the formulations with a velocity
// state, which Linearizer.linearize(q, u, v=...) serves.
void RequireNoVelocity(const std::string& who, const FormulationSettings& settings) {
  if (HasVelocityState(settings.type))
    throw py::value_error(who + ": " + FormulationName(settings.type) +
                          " has a velocity state, which the batch's points (Q) do not carry; "
                          "use Linearizer.linearize(q, u, v=...)");
}

// The two Python classes (pybind11 binds one C++ type once).
struct PyLinearizer : MethodBatches {
  using MethodBatches::MethodBatches;
};
struct PyBatchLinearizer : MethodBatches {
  using MethodBatches::MethodBatches;
};

// Rows of Q and U as points, each checked under its Python name ("Q[3] has size ...").
std::vector<StepPoint> Points(const char* who, const Scene& scene, const Eigen::MatrixXd& Q,
                              const Eigen::MatrixXd& U) {
  if (Q.rows() != U.rows()) {
    throw py::value_error(std::string(who) + ": Q has " + std::to_string(Q.rows()) +
                          " rows but U has " + std::to_string(U.rows()) +
                          ": one row per point in both");
  }
  std::vector<StepPoint> points(static_cast<size_t>(Q.rows()));
  for (Eigen::Index i = 0; i < Q.rows(); ++i) {
    points[i].x.q = Q.row(i).transpose();
    points[i].u = U.row(i).transpose();
    const std::string row = "[" + std::to_string(i) + "]";
    CheckConfiguration(who, scene, points[i].x.q, ("Q" + row).c_str());
    CheckCommand(who, scene, points[i].u, ("U" + row).c_str());
  }
  return points;
}

// The results of a batch as stacked arrays (BatchLinearization in Python).
struct PyBatchResult {
  std::vector<StepEvaluation> items;
  int nq = 0, nv = 0, nq_a = 0;
};

// (M, rows, cols) of each item's matrix; NaN where an item has none (failed, or not asked).
py::array_t<double> StackItems(const PyBatchResult& r, Eigen::Index rows, Eigen::Index cols,
                               const Eigen::MatrixXd& (*get)(const StepEvaluation&)) {
  const auto n = static_cast<py::ssize_t>(r.items.size());
  py::array_t<double> out({n, static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(cols)});
  auto view = out.mutable_unchecked<3>();
  for (py::ssize_t k = 0; k < n; ++k) {
    const Eigen::MatrixXd& m = get(r.items[k]);
    const bool has = m.rows() == rows && m.cols() == cols;
    for (Eigen::Index i = 0; i < rows; ++i)
      for (Eigen::Index j = 0; j < cols; ++j)
        view(k, i, j) = has ? m(i, j) : std::numeric_limits<double>::quiet_NaN();
  }
  return out;
}

template <typename Get>
Eigen::MatrixXd StackRows(const PyBatchResult& r, int width, Get get) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(r.items.size()), width);
  for (size_t k = 0; k < r.items.size(); ++k) {
    const Eigen::VectorXd& x = get(r.items[k]);
    out.row(static_cast<Eigen::Index>(k)) =
        x.size() == width
            ? Eigen::RowVectorXd(x.transpose())
            : Eigen::RowVectorXd::Constant(width, std::numeric_limits<double>::quiet_NaN());
  }
  return out;
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
                                           std::optional<double> object_mass_scale,
                                           std::optional<double> contact_tolerance) {
  const FormulationSettings settings =
      ResolveSettings(who, scene, formulation, h, kappa, object_mass_scale);
  if (threads < 1)
    throw py::value_error(std::string(who) + ": threads must be >= 1 (got " +
                          std::to_string(threads) + ")");
  ScenePtr stepped = scene;
  if (contact_tolerance)
    stepped = std::make_shared<const Scene>(WithContactTolerance(*scene, *contact_tolerance, who));
  return std::make_unique<Batches>(std::move(scene), std::move(stepped), settings, threads);
}

constexpr const char* kSettingsDoc =
    "formulation: qp | socp | log-barrier | log-barrier-cone | lcp | halm-posa | stewart-trinkle | "
    "anitescu (which step is "
    "differentiated: the pyramid formulations give the QP / barrier-pyramid gradients, the cone "
    "formulations the SOCP / barrier-cone ones); h: time step [s] > 0; kappa: log-barrier weight "
    "κ [1/(N·m)] > 0; object_mass_scale: s [-] >= 0; contact_tolerance: ε [m] >= 0 of the "
    "linearised step, larger than the scene's to let the gradients see contacts further "
    "away (docs/gradients.md, 'Gradients beyond the contact tolerance'; the log-barrier "
    "method feels them as forces at a distance). None takes the scene's value. Raises "
    "ValueError for an unknown formulation or a value out of range.";

constexpr const char* kModeMethodDoc =
    "gradients: 'a_and_b' (A and B), 'b_only' (B only, cheaper), 'none' (the step only); "
    "method: 'exact' (implicit differentiation of the step's optimality conditions) or "
    "'log-barrier' (the log-barrier smoothed step of weight kappa; Pang, Suh, Yang & "
    "Tedrake, T-RO 2023).";

// Both randomized estimators (randomized_smoothing.h) take the same arguments.
using SmoothingEstimator = SmoothedLinearization (*)(BatchStepper*, const Eigen::VectorXd&,
                                                     const Eigen::VectorXd&, GradientMode,
                                                     const RandomizedSmoothingSettings&);

void DefineSmoothing(py::class_<PyBatchLinearizer>& cls, const char* name,
                     SmoothingEstimator estimator, bool zeroth_order, const char* doc) {
  cls.def(
      name,
      [estimator, zeroth_order, name](
          PyBatchLinearizer& b, const RealVector& q_in, const RealVector& u_in,
          const std::optional<std::string>& gradients, const std::string& method, int samples,
          double u_std, double q_std, std::uint64_t seed) {
        const std::string who = std::string("BatchLinearizer.") + name;
        RequireNoVelocity(who, b.settings());
        const Eigen::VectorXd& q = q_in.value;
        const Eigen::VectorXd& u = u_in.value;
        CheckConfiguration(who.c_str(), *b.scene(), q);
        CheckCommand(who.c_str(), *b.scene(), u);
        if (samples < 1)
          throw py::value_error(who + ": samples must be >= 1 (got " + std::to_string(samples) +
                                ")");
        CheckNonNegative(who, "u_std", u_std);
        CheckNonNegative(who, "q_std", q_std);
        // The one default: A and B, except where A cannot be estimated (the zeroth-order fit
        // without q perturbations), as `quasidyn linearize --method randomized` does.
        const GradientMode parsed_mode =
            gradients
                ? ParseGradients(who.c_str(), *gradients)
                : (zeroth_order && !(q_std > 0) ? GradientMode::kBOnly : GradientMode::kAAndB);
        const GradientMethod parsed_method = ParseMethod(who.c_str(), method);
        const RandomizedSmoothingSettings settings = SmoothingSettings(samples, u_std, q_std, seed);
        py::gil_scoped_release release;
        return b.With(parsed_method, [&](BatchStepper& batch) {
          return estimator(&batch, q, u, parsed_mode, settings);
        });
      },
      py::arg("q"), py::arg("u"), py::arg("gradients") = py::none(), py::arg("method") = "exact",
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
          "v_next",
          [](const StepEvaluation& r) -> const Eigen::VectorXd& { return r.result.next.v; }, kView,
          "stewart-trinkle, anitescu: the state's velocity after the step v⁺ (n_v,); (0,) for "
          "the formulations without a velocity state.")
      .def_property_readonly(
          "A", [](const StepEvaluation& r) -> const Eigen::MatrixXd& { return r.derivatives.A; },
          kView,
          "∂q⁺/∂q (n_q, n_q) [-] for gradients 'a_and_b' (stewart-trinkle, anitescu: "
          "∂(q⁺, v⁺)/∂(q, v), (n_q + n_v) square); shape (0, 0) otherwise.")
      .def_property_readonly(
          "B", [](const StepEvaluation& r) -> const Eigen::MatrixXd& { return r.derivatives.B; },
          kView,
          "∂q⁺/∂u (n_q, n_q,a) [-] for gradients 'a_and_b' and 'b_only' (stewart-trinkle, "
          "anitescu: ∂(q⁺, v⁺)/∂u, (n_q + n_v) × n_q,a); shape (0, 0) otherwise.")
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
          "status", [](const SmoothedLinearization& r) { return std::string(ToString(r.status)); },
          "solved, or why the estimate failed (too many failed samples).")
      .def_property_readonly("ok", &SmoothedLinearization::ok, "True when status is solved.")
      .def_readonly("message", &SmoothedLinearization::message, "'' when solved; otherwise why.")
      .def_property_readonly(
          "q_next",
          [](const SmoothedLinearization& r) -> const Eigen::VectorXd& { return r.q_next; }, kView,
          "Mean of f over the successful samples (n_q,) [m, rad].")
      .def_property_readonly(
          "A", [](const SmoothedLinearization& r) -> const Eigen::MatrixXd& { return r.A; }, kView,
          "(n_q, n_q) for gradients 'a_and_b', else (0, 0).")
      .def_property_readonly(
          "B", [](const SmoothedLinearization& r) -> const Eigen::MatrixXd& { return r.B; }, kView,
          "(n_q, n_q,a) for gradients 'a_and_b' and 'b_only', else (0, 0).")
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
      .def_readonly("samples_used", &SmoothedLinearization::samples_used,
                    "Samples whose step (and derivative) succeeded.")
      .def_readonly("samples_failed", &SmoothedLinearization::samples_failed,
                    "Samples that failed and were left out.")
      .def_readonly("first_failure", &SmoothedLinearization::first_failure,
                    "The message of the first failed sample ('' when none failed).");

  py::class_<PyBatchResult>(
      m, "BatchLinearization",
      "The results of BatchLinearizer.linearize as stacked numpy arrays, row i for point i "
      "(q_next (M, n_q), v (M, n_v), A (M, n_q, n_q), B (M, n_q, n_q,a), ok (M,)); NaN rows "
      "where a point failed or the gradients were not asked. Indexing gives point i's "
      "Linearization; len() is M.")
      .def_property_readonly(
          "q_next",
          [](const PyBatchResult& r) {
            return StackRows(r, r.nq, [](const StepEvaluation& e) -> const Eigen::VectorXd& {
              return e.result.next.q;
            });
          },
          "f(q_i, u_i) stacked (M, n_q) [m, rad] (q_i where the step failed).")
      .def_property_readonly(
          "v",
          [](const PyBatchResult& r) {
            return StackRows(r, r.nv, [](const StepEvaluation& e) -> const Eigen::VectorXd& {
              return e.result.velocity;
            });
          },
          "The steps' velocities stacked (M, n_v) [m/s, rad/s].")
      .def_property_readonly(
          "A",
          [](const PyBatchResult& r) {
            return StackItems(r, r.nq, r.nq, [](const StepEvaluation& e) -> const Eigen::MatrixXd& {
              return e.derivatives.A;
            });
          },
          "∂q⁺/∂q stacked (M, n_q, n_q); NaN where not computed.")
      .def_property_readonly(
          "B",
          [](const PyBatchResult& r) {
            return StackItems(
                r, r.nq, r.nq_a,
                [](const StepEvaluation& e) -> const Eigen::MatrixXd& { return e.derivatives.B; });
          },
          "∂q⁺/∂u stacked (M, n_q, n_q,a); NaN where not computed.")
      .def_property_readonly(
          "ok",
          [](const PyBatchResult& r) {
            py::array_t<bool> ok(static_cast<py::ssize_t>(r.items.size()));
            auto view = ok.mutable_unchecked<1>();
            for (size_t i = 0; i < r.items.size(); ++i) view(i) = r.items[i].derivatives.ok();
            return ok;
          },
          "(M,) bool: point i's step and derivative succeeded.")
      .def_property_readonly(
          "status",
          [](const PyBatchResult& r) {
            std::vector<std::string> out;
            for (const StepEvaluation& e : r.items)
              out.emplace_back(ToString(e.derivatives.status));
            return out;
          },
          "Per point, Linearization.status.")
      .def_property_readonly(
          "message",
          [](const PyBatchResult& r) {
            std::vector<std::string> out;
            for (const StepEvaluation& e : r.items) out.push_back(e.derivatives.message);
            return out;
          },
          "Per point, Linearization.message ('' on success).")
      .def("__len__", [](const PyBatchResult& r) { return r.items.size(); })
      .def(
          "__getitem__",
          [](const PyBatchResult& r, py::ssize_t i) {
            const auto n = static_cast<py::ssize_t>(r.items.size());
            if (i < 0) i += n;
            if (i < 0 || i >= n) throw py::index_error("BatchLinearization index out of range");
            return r.items[static_cast<size_t>(i)];
          },
          py::arg("i"), "Point i's Linearization (a copy).");

  py::class_<PyLinearizer>(m, "Linearizer",
                           "Linearizes the quasi-dynamic step: q⁺, A = ∂q⁺/∂q, B = ∂q⁺/∂u.")
      .def(py::init([](std::shared_ptr<Scene> scene, std::optional<std::string> formulation,
                       std::optional<double> h, std::optional<double> kappa,
                       std::optional<double> object_mass_scale,
                       std::optional<double> contact_tolerance) {
             return MakeMethodBatches<PyLinearizer>("Linearizer", std::move(scene), 1, formulation,
                                                    h, kappa, object_mass_scale, contact_tolerance);
           }),
           py::arg("scene"), py::arg("formulation") = py::none(), py::arg("h") = py::none(),
           py::arg("kappa") = py::none(), py::arg("object_mass_scale") = py::none(),
           py::arg("contact_tolerance") = py::none(),
           (std::string("Linearizer(scene, formulation=None, h=None, kappa=None, "
                        "object_mass_scale=None, contact_tolerance=None).\n") +
            kSettingsDoc)
               .c_str())
      .def_property_readonly(
          "scene", [](const PyLinearizer& l) { return std::const_pointer_cast<Scene>(l.scene()); },
          "The scene it linearises.")
      .def_property_readonly(
          "contact_tolerance", [](const PyLinearizer& l) { return l.contact_tolerance(); },
          "ε [m] of the linearised step (the scene's unless contact_tolerance was given).")
      .def(
          "linearize",
          [](PyLinearizer& l, const RealVector& q_in, const RealVector& u_in,
             const std::string& gradients, const std::string& method,
             const std::optional<RealVector>& v_in) {
            const char* who = "Linearizer.linearize";
            const Eigen::VectorXd& q = q_in.value;
            const Eigen::VectorXd& u = u_in.value;
            CheckConfiguration(who, *l.scene(), q);
            CheckCommand(who, l.settings().type, *l.scene(), u);
            const Eigen::VectorXd v = StateVelocity(who, l.settings().type, *l.scene(),
                                                    v_in ? &v_in->value : nullptr, "v", nullptr);
            const GradientMode parsed_mode = ParseGradients(who, gradients);
            const GradientMethod parsed_method = ParseMethod(who, method);
            const std::vector<StepPoint> point{StepPoint{State{q, v}, u}};
            py::gil_scoped_release release;
            return l.With(parsed_method, [&](BatchStepper& batch) {
              return std::move(batch.Run(point, parsed_mode).front());
            });
          },
          py::arg("q"), py::arg("u"), py::arg("gradients") = "a_and_b", py::arg("method") = "exact",
          py::arg("v") = py::none(),
          (std::string("linearize(q, u, gradients='a_and_b', method='exact', v=None) -> "
                       "Linearization.\n"
                       "q: configuration (n_q,) [m, rad]; u: commanded robot positions "
                       "(n_q,a,) [m, rad] (halm-posa: velocities [m/s, rad/s]); v: the state's "
                       "velocity (n_v,), required by stewart-trinkle and anitescu, whose A is "
                       "∂(q⁺, v⁺)/∂(q, v) ((n_q + n_v) square) and B ∂(q⁺, v⁺)/∂u "
                       "(Linearization.v_next). ") +
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
                       std::optional<double> kappa, std::optional<double> object_mass_scale,
                       std::optional<double> contact_tolerance) {
             return MakeMethodBatches<PyBatchLinearizer>("BatchLinearizer", std::move(scene),
                                                         threads, formulation, h, kappa,
                                                         object_mass_scale, contact_tolerance);
           }),
           py::arg("scene"), py::arg("threads") = 1, py::arg("formulation") = py::none(),
           py::arg("h") = py::none(), py::arg("kappa") = py::none(),
           py::arg("object_mass_scale") = py::none(), py::arg("contact_tolerance") = py::none(),
           (std::string("BatchLinearizer(scene, threads=1, formulation=None, h=None, kappa=None, "
                        "object_mass_scale=None, contact_tolerance=None).\nthreads: worker "
                        "threads >= 1. ") +
            kSettingsDoc)
               .c_str())
      .def_property_readonly(
          "threads", [](const PyBatchLinearizer& b) { return b.threads(); },
          "Worker threads of the batch.")
      .def_property_readonly(
          "scene",
          [](const PyBatchLinearizer& b) { return std::const_pointer_cast<Scene>(b.scene()); },
          "The scene it linearises.")
      .def_property_readonly(
          "contact_tolerance", [](const PyBatchLinearizer& b) { return b.contact_tolerance(); },
          "ε [m] of the linearised step (the scene's unless contact_tolerance was given).")
      .def(
          "linearize",
          [](PyBatchLinearizer& b, const RealMatrix& Q, const RealMatrix& U,
             const std::string& gradients, const std::string& method) {
            const char* who = "BatchLinearizer.linearize";
            RequireNoVelocity(who, b.settings());
            const GradientMode parsed_mode = ParseGradients(who, gradients);
            const GradientMethod parsed_method = ParseMethod(who, method);
            const Scene& scene = *b.scene();
            const std::vector<StepPoint> points = Points(who, scene, Q.value, U.value);
            PyBatchResult out{{}, scene.nq, scene.nv, scene.nq_a};
            py::gil_scoped_release release;
            out.items = b.With(parsed_method, [&](BatchStepper& stepper) {
              return stepper.Run(points, parsed_mode);
            });
            return out;
          },
          py::arg("Q"), py::arg("U"), py::arg("gradients") = "a_and_b", py::arg("method") = "exact",
          (std::string("linearize(Q, U, gradients='a_and_b', method='exact') -> "
                       "BatchLinearization (stacked arrays).\nQ: (M, n_q) configurations, U: "
                       "(M, n_q,a) commands, one point per row; the loop runs in C++ without "
                       "the GIL. ") +
           kModeMethodDoc +
           " A failed point keeps its status and message; ValueError 'Q[i] ...' for bad "
           "sizes or NaN.")
              .c_str());
  DefineSmoothing(
      batch, "smooth_first_order", &FirstOrderSmoothing, false,
      "smooth_first_order(q, u, gradients=None, method='exact', samples=100, u_std=0.01, "
      "q_std=0.0, seed=0) -> SmoothedLinearization.\nThe bundled gradient: the mean of the "
      "gradients at `samples` >= 1 points u + u_std·ξ_u [m, rad], q ⊕ q_std·ξ_q [m, rad], "
      "ξ ~ N(0, I) drawn from `seed` (equal seeds give equal results). gradients: None (A "
      "and B), 'a_and_b', 'b_only' or 'none'.");
  DefineSmoothing(
      batch, "smooth_zeroth_order", &ZerothOrderSmoothing, true,
      "smooth_zeroth_order(q, u, gradients=None, method='exact', samples=100, u_std=0.01, "
      "q_std=0.0, seed=0) -> SmoothedLinearization.\nLeast squares of the sampled steps "
      "against their perturbations (no gradients solved). 'b_only' needs u_std > 0, "
      "'a_and_b' also q_std > 0 [m, rad]; gradients=None estimates A and B, or B only when "
      "q_std = 0 (as `quasidyn linearize --method randomized`); equal seeds give equal "
      "results.");
}

}  // namespace quasidyn::python
