// The compiled part of the Python package `quasidyn` (python/quasidyn/__init__.py re-exports
// it). Every C++ std::invalid_argument reaches Python as ValueError with the library's message,
// named after the Python function and arguments (bindings.h, Named); SceneError as
// quasidyn.SceneError (a ValueError); a missing file as quasidyn.SceneFileNotFoundError or
// quasidyn.TrajectoryFileNotFoundError (each also a FileNotFoundError); other
// std::runtime_error as RuntimeError.

#include <pybind11/pybind11.h>

#include "bindings.h"
#include "setting_keywords.h"

PYBIND11_MODULE(_quasidyn, m) {
  namespace python = quasidyn::python;
  m.doc() =
      "quasidyn: convex quasi-dynamic time stepping for contact-rich manipulation "
      "(Pang & Tedrake 2021; Pang, Suh, Yang & Tedrake 2023). Units: SI throughout (m, rad, s, kg, "
      "N).";
  m.attr("__version__") = QUASIDYN_VERSION;
  python::PyScene scene = python::BindScene(m);
  python::BindSceneEdits(m, scene);
  python::BindFormulations(m);
  python::BindStepResult(m);
  python::BindStep(m);
  python::PyTrajectory trajectory = python::BindTrajectory(m);
  python::BindTrajectoryArrays(trajectory);
  python::BindTrajectoryFiles(m, trajectory);
  python::BindNotebook(m, trajectory);
  python::BindRollout(m, trajectory);
  python::BindRolloutBatch(m);
  python::BindComparison(m);
  python::BindGeometry(m);
  python::BindInverseKinematics(m);
  python::BindLinearizations(m);
  python::BindGradients(m);
  python::BindBatchLinearizer(m);
  python::BindPlan(m);
  python::BindControl(m);
  python::BindMpc(m);
  python::BindParkedThreadSpin(m);
  python::BindSettings(m);
}
