// The results of the lineariser (linearization/linearizer.h) in Python: quasidyn.Linearization
// (one point), quasidyn.SmoothedLinearization (a randomized estimate) and
// quasidyn.BatchLinearization (a batch as stacked arrays); gradients_bindings.cc makes them.

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <limits>
#include <string>
#include <vector>

#include "bindings.h"
#include "linearizers.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

constexpr auto kLinearizationView = py::return_value_policy::reference_internal;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// (M, rows, cols) of each item's matrix; NaN where an item has none (failed, or not asked).
py::array_t<double> StackItems(const PyBatchResult& r, Eigen::Index rows, Eigen::Index cols,
                               const Eigen::MatrixXd& (*get)(const Linearization&)) {
  const auto n = static_cast<py::ssize_t>(r.items.size());
  py::array_t<double> out({n, static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(cols)});
  auto view = out.mutable_unchecked<3>();
  for (py::ssize_t k = 0; k < n; ++k) {
    const Eigen::MatrixXd& m = get(r.items[k]);
    const bool has = m.rows() == rows && m.cols() == cols;
    for (Eigen::Index i = 0; i < rows; ++i)
      for (Eigen::Index j = 0; j < cols; ++j) view(k, i, j) = has ? m(i, j) : kNaN;
  }
  return out;
}

// (M, width) of each item's vector; NaN rows where an item has none.
Eigen::MatrixXd StackRows(const PyBatchResult& r, Eigen::Index width,
                          const Eigen::VectorXd& (*get)(const Linearization&)) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(r.items.size()), width);
  for (size_t k = 0; k < r.items.size(); ++k) {
    const Eigen::VectorXd& x = get(r.items[k]);
    out.row(static_cast<Eigen::Index>(k)) = x.size() == width
                                                ? Eigen::RowVectorXd(x.transpose())
                                                : Eigen::RowVectorXd::Constant(width, kNaN);
  }
  return out;
}

const Eigen::VectorXd& NextQ(const Linearization& l) { return l.x_next.q; }
const Eigen::VectorXd& NextV(const Linearization& l) { return l.x_next.v; }
const Eigen::MatrixXd& MatrixA(const Linearization& l) { return l.A; }
const Eigen::MatrixXd& MatrixB(const Linearization& l) { return l.B; }

// BatchLinearization's pickle state: its sizes and, per point, every field of its Linearization
// (numpy arrays hold each double exactly). Version 1.
py::tuple BatchLinearizationState(const PyBatchResult& r) {
  py::list items;
  for (const Linearization& l : r.items)
    items.append(py::make_tuple(static_cast<int>(l.status), l.message, l.step_failed, l.x_next.q,
                                l.x_next.v, l.velocity, l.A, l.B, l.A_standard_error,
                                l.B_standard_error, l.active_rows, l.samples_used, l.samples_failed,
                                l.first_failure));
  return py::make_tuple(1, r.nq, r.nv, r.nx, r.nu, items);
}

PyBatchResult BatchLinearizationFromState(const py::tuple& state) {
  if (state.size() != 6 || py::cast<int>(state[0]) != 1)
    throw py::value_error("BatchLinearization: not a pickle of this version");
  PyBatchResult r;
  r.nq = py::cast<Eigen::Index>(state[1]);
  r.nv = py::cast<Eigen::Index>(state[2]);
  r.nx = py::cast<Eigen::Index>(state[3]);
  r.nu = py::cast<Eigen::Index>(state[4]);
  for (const py::handle item : py::cast<py::list>(state[5])) {
    const auto t = py::cast<py::tuple>(item);
    if (t.size() != 14) throw py::value_error("BatchLinearization: a point's state has 14 fields");
    Linearization l;
    const int status = py::cast<int>(t[0]);
    if (status < 0 || status > static_cast<int>(SolverStatus::kNotRun))
      throw py::value_error("BatchLinearization: status " + std::to_string(status));
    l.status = static_cast<SolverStatus>(status);
    l.message = py::cast<std::string>(t[1]);
    l.step_failed = py::cast<bool>(t[2]);
    l.x_next.q = py::cast<Eigen::VectorXd>(t[3]);
    l.x_next.v = py::cast<Eigen::VectorXd>(t[4]);
    l.velocity = py::cast<Eigen::VectorXd>(t[5]);
    l.A = py::cast<Eigen::MatrixXd>(t[6]);
    l.B = py::cast<Eigen::MatrixXd>(t[7]);
    l.A_standard_error = py::cast<Eigen::MatrixXd>(t[8]);
    l.B_standard_error = py::cast<Eigen::MatrixXd>(t[9]);
    l.active_rows = py::cast<int>(t[10]);
    l.samples_used = py::cast<int>(t[11]);
    l.samples_failed = py::cast<int>(t[12]);
    l.first_failure = py::cast<std::string>(t[13]);
    r.items.push_back(std::move(l));
  }
  return r;
}

}  // namespace

void BindLinearizations(py::module_& m) {
  py::class_<Linearization>(
      m, "Linearization",
      "One step x⁺ = f(x, u) with A = ∂f/∂x and B = ∂f/∂u (x = q: A (n_q, n_q), B (n_q, nu); "
      "x = (q, v) for the formulations with a velocity state); A acts on raw coordinate "
      "perturbations δq (docs/gradients.md).")
      .def_property_readonly(
          "status", [](const Linearization& r) { return std::string(ToString(r.status)); },
          "solved | solved_inaccurate | max_iterations | infeasible | numerical_failure | ...: "
          "the step's status when it failed (step_failed), else the derivative's.")
      .def_property_readonly("ok", &Linearization::ok,
                             "True when status is solved or solved_inaccurate.")
      .def_readonly("message", &Linearization::message,
                    "'' on success; otherwise what failed (solve or non-differentiable point).")
      .def_readonly("step_failed", &Linearization::step_failed,
                    "True when the step itself failed (else, when not ok, its derivative).")
      .def_property_readonly("q_next", NextQ, kLinearizationView,
                             "f(q, u) (n_q,) [m, rad]; shape (0,) when not ok. A read-only view.")
      .def_property_readonly(
          "v", NextV, kLinearizationView,
          "The step's velocity (n_v,) [m/s, rad/s] for the formulations with a velocity state "
          "(their v⁺, v_next); shape (0,) for the others, whose solver velocity v* the "
          "lineariser's result does not carry (Stepper.step's StepResult.v has it).")
      .def_property_readonly(
          "v_next", NextV, kLinearizationView,
          "The state's velocity after the step v⁺ (n_v,) for the formulations with a velocity "
          "state; (0,) for the others.")
      .def_property_readonly("A", MatrixA, kLinearizationView,
                             "∂x⁺/∂x for gradients 'a_and_b' (n_x square: n_q, or n_q + n_v with "
                             "a velocity state); shape (0, 0) otherwise.")
      .def_property_readonly("B", MatrixB, kLinearizationView,
                             "∂x⁺/∂u (n_x, nu) for gradients 'a_and_b' and 'b_only'; shape "
                             "(0, 0) otherwise.")
      .def_readonly("active_rows", &Linearization::active_rows,
                    "Exact QP: active pyramid rows; exact SOCP: binding conditions; barriers: "
                    "all rows.")
      .def("__repr__", [](const Linearization& d) {
        return "<quasidyn.Linearization " + std::string(ToString(d.status)) + ", A " +
               std::to_string(d.A.rows()) + "×" + std::to_string(d.A.cols()) + ", B " +
               std::to_string(d.B.rows()) + "×" + std::to_string(d.B.cols()) + ">";
      });

  py::class_<PySmoothed>(
      m, "SmoothedLinearization",
      "A randomized-smoothing estimate of the step and its gradients (Suh, Pang & Tedrake, "
      "RA-L 2022): q_next is the mean of f over the samples, A and B the estimated gradients "
      "of the Gaussian-smoothed step, with entrywise standard errors.")
      .def_property_readonly(
          "status", [](const PySmoothed& s) { return std::string(ToString(s.r.status)); },
          "solved, or why the estimate failed (too many failed samples).")
      .def_property_readonly(
          "ok", [](const PySmoothed& s) { return s.r.ok(); }, "True when status is solved.")
      .def_property_readonly(
          "message", [](const PySmoothed& s) { return s.r.message; },
          "'' when solved; otherwise why.")
      .def_property_readonly(
          "q_next", [](const PySmoothed& s) -> const Eigen::VectorXd& { return s.r.x_next.q; },
          kLinearizationView, "Mean of f over the successful samples (n_q,) [m, rad].")
      .def_property_readonly(
          "A", [](const PySmoothed& s) -> const Eigen::MatrixXd& { return s.r.A; },
          kLinearizationView, "(n_q, n_q) for gradients 'a_and_b', else (0, 0).")
      .def_property_readonly(
          "B", [](const PySmoothed& s) -> const Eigen::MatrixXd& { return s.r.B; },
          kLinearizationView, "(n_q, n_q,a) for gradients 'a_and_b' and 'b_only', else (0, 0).")
      .def_property_readonly(
          "A_standard_error",
          [](const PySmoothed& s) -> const Eigen::MatrixXd& { return s.r.A_standard_error; },
          kLinearizationView, "Entrywise standard error of A.")
      .def_property_readonly(
          "B_standard_error",
          [](const PySmoothed& s) -> const Eigen::MatrixXd& { return s.r.B_standard_error; },
          kLinearizationView, "Entrywise standard error of B.")
      .def_property_readonly(
          "samples_used", [](const PySmoothed& s) { return s.r.samples_used; },
          "Samples whose step (and derivative) succeeded.")
      .def_property_readonly(
          "samples_failed", [](const PySmoothed& s) { return s.r.samples_failed; },
          "Samples that failed and were left out.")
      .def_property_readonly(
          "first_failure", [](const PySmoothed& s) { return s.r.ok() ? "" : s.r.message; },
          "Why the estimate failed ('' when it succeeded; the lineariser's result does not keep "
          "the first failed sample's message of a successful estimate).");

  py::class_<PyBatchResult>(
      m, "BatchLinearization",
      "The results of BatchLinearizer.linearize as stacked numpy arrays, row i for point i "
      "(q_next (M, n_q), v_next (M, n_v or 0), A (M, n_x, n_x), B (M, n_x, nu), ok (M,)); NaN "
      "rows where a point failed or the gradients were not asked. Indexing gives point i's "
      "Linearization; len() is M.")
      .def_property_readonly(
          "q_next", [](const PyBatchResult& r) { return StackRows(r, r.nq, NextQ); },
          "f(q_i, u_i) stacked (M, n_q) [m, rad]; NaN rows where a point failed.")
      .def_property_readonly(
          "v", [](const PyBatchResult& r) { return StackRows(r, r.nv, NextV); },
          "Linearization.v stacked (M, n_v) for the formulations with a velocity state; (M, 0) "
          "for the others.")
      .def_property_readonly(
          "v_next", [](const PyBatchResult& r) { return StackRows(r, r.nv, NextV); },
          "v⁺ stacked (M, n_v) for the formulations with a velocity state; (M, 0) otherwise.")
      .def_property_readonly(
          "A", [](const PyBatchResult& r) { return StackItems(r, r.nx, r.nx, MatrixA); },
          "∂x⁺/∂x stacked (M, n_x, n_x); NaN where not computed.")
      .def_property_readonly(
          "B", [](const PyBatchResult& r) { return StackItems(r, r.nx, r.nu, MatrixB); },
          "∂x⁺/∂u stacked (M, n_x, nu); NaN where not computed.")
      .def_property_readonly(
          "ok",
          [](const PyBatchResult& r) {
            py::array_t<bool> ok(static_cast<py::ssize_t>(r.items.size()));
            auto view = ok.mutable_unchecked<1>();
            for (size_t i = 0; i < r.items.size(); ++i) view(i) = r.items[i].ok();
            return ok;
          },
          "(M,) bool: point i's step and derivative succeeded.")
      .def_property_readonly(
          "status",
          [](const PyBatchResult& r) {
            std::vector<std::string> out;
            for (const Linearization& l : r.items) out.emplace_back(ToString(l.status));
            return out;
          },
          "Per point, Linearization.status.")
      .def_property_readonly(
          "message",
          [](const PyBatchResult& r) {
            std::vector<std::string> out;
            for (const Linearization& l : r.items) out.push_back(l.message);
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
          py::arg("i"), "Point i's Linearization (a copy).")
      .def_static(
          "concatenate",
          [](const std::vector<PyBatchResult>& parts) {
            if (parts.empty()) throw py::value_error("BatchLinearization.concatenate: no parts");
            PyBatchResult out = parts.front();
            for (size_t k = 1; k < parts.size(); ++k) {
              const PyBatchResult& p = parts[k];
              if (p.nq != out.nq || p.nv != out.nv || p.nx != out.nx || p.nu != out.nu)
                throw py::value_error(
                    "BatchLinearization.concatenate: part " + std::to_string(k) +
                    " has other sizes than part 0 (another scene or formulation)");
              out.items.insert(out.items.end(), p.items.begin(), p.items.end());
            }
            return out;
          },
          py::arg("parts"),
          "concatenate(parts) -> BatchLinearization: the points of every part, in order (the "
          "parts of a batch evaluated on several machines, docs/distributed.md).")
      .def(py::pickle(&BatchLinearizationState, &BatchLinearizationFromState),
           "Pickled as its numbers (every double exactly), so that it travels between processes "
           "(a Dask cluster's workers).");
}

}  // namespace quasidyn::python
