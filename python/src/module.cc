// The compiled part of the Python package `quasidyn` (python/quasidyn/__init__.py re-exports
// it). Every C++ std::invalid_argument reaches Python as ValueError with the same message;
// SceneError as quasidyn.SceneError (a ValueError); other std::runtime_error as RuntimeError.

#include <pybind11/pybind11.h>

#include "bindings.h"

PYBIND11_MODULE(_quasidyn, m) {
  m.doc() =
      "quasidyn: convex quasi-dynamic time stepping for contact-rich manipulation "
      "(Pang & Tedrake 2021; Pang, Suh, Yang & Tedrake 2023). Units: SI throughout (m, rad, s, kg, "
      "N).";
  m.attr("__version__") = QUASIDYN_VERSION;
  quasidyn::python::BindScene(m);
  quasidyn::python::BindStep(m);
  quasidyn::python::BindRollout(m);
  quasidyn::python::BindGeometry(m);
  quasidyn::python::BindGradients(m);
  quasidyn::python::BindPlan(m);
  quasidyn::python::BindControl(m);
  quasidyn::python::BindMpc(m);
}
