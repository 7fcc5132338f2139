// quasidyn.Linearizer: A = ∂x⁺/∂x and B = ∂x⁺/∂u of one step by the library's one lineariser,
// linearization/linearizer.h, for the formulation keywords given (docs/python.md, "Gradients").
// batch_linearizer_bindings.cc adds quasidyn.BatchLinearizer (many points, randomized
// smoothing; the same lineariser), linearization_bindings.cc the results.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "bindings.h"
#include "linearizers.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {

void BindGradients(py::module_& m) {
  py::class_<PyLinearizer>(m, "Linearizer",
                           "Linearizes one step: x⁺, A = ∂x⁺/∂x, B = ∂x⁺/∂u (x = q, or (q, v)).")
      .def(py::init([](std::shared_ptr<Scene> scene, std::optional<std::string> formulation,
                       std::optional<double> h, std::optional<double> contact_tolerance,
                       std::optional<std::map<std::string, double>> parameters, py::kwargs by_key) {
             return MakeLinearizers<PyLinearizer>("Linearizer", std::move(scene), 1,
                                                  {formulation, h, parameters, by_key},
                                                  contact_tolerance);
           }),
           py::arg("scene"), py::arg("formulation") = py::none(), py::arg("h") = py::none(),
           py::arg("contact_tolerance") = py::none(), py::arg("parameters") = py::none(),
           (std::string("Linearizer(scene, formulation=None, h=None, contact_tolerance=None, "
                        "parameters=None, **parameter).\n") +
            kLinearizerKeywordsDoc + kParameterKeywordsDoc)
               .c_str())
      .def_property_readonly(
          "scene", [](const PyLinearizer& l) { return std::const_pointer_cast<Scene>(l.scene()); },
          "The scene it linearises.")
      .def_property_readonly(
          "contact_tolerance", &PyLinearizer::contact_tolerance,
          "ε [m] of the linearised step (the scene's unless contact_tolerance was given).")
      .def(
          "linearize",
          [](PyLinearizer& l, const RealVector& q, const RealVector& u,
             const std::string& gradients, const std::optional<RealVector>& v,
             const py::kwargs& kwargs) {
            const char* who = "Linearizer.linearize";
            const GradientMode mode = ParseGradients(who, gradients);
            const LinearizationMethod parsed =
                LinearizationKeywords(who, kwargs, {"method"}).method;
            return Named(who, [&] {
              py::gil_scoped_release release;
              const std::lock_guard<std::mutex> lock(l.mutex);
              return l.Get(parsed, mode)
                  .Linearize(State{q.value, v ? v->value : Eigen::VectorXd()}, u.value);
            });
          },
          py::arg("q"), py::arg("u"), py::arg("gradients") = "a_and_b", py::arg("v") = py::none(),
          (std::string("linearize(q, u, gradients='a_and_b', v=None, **settings) -> "
                       "Linearization.\nq: configuration (n_q,) [m, rad]; u: the command (as "
                       "Stepper.step's); v: the state's velocity (n_v,), required by the "
                       "formulations with a velocity state, whose A is ∂(q⁺, v⁺)/∂(q, v) ((n_q "
                       "+ n_v) square) and B ∂(q⁺, v⁺)/∂u (Linearization.v_next). ") +
           kLinearizerModeMethodDoc +
           " A failed solve is reported in status/message, not raised; ValueError for bad "
           "sizes or NaN. " +
           LinearizationKeywordsDoc({"method"}))
              .c_str());
}

}  // namespace quasidyn::python
