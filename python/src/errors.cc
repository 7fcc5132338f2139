// The library's errors in Python's words (bindings.h): PythonMessage, where the C++ function
// that checked is replaced by the Python function and the C++ names of the arguments by the
// Python ones (the messages themselves are the library's, common/argument_check.h); and the
// exception classes that are both quasidyn's and Python's FileNotFoundError.

#include <cerrno>
#include <cstring>
#include <regex>
#include <string>

#include "bindings.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// The library's checking functions ("<where>: ..."), which a Python caller did not call.
const std::regex kCppWhere(
    "^(Calc|MakeStepModel|step model|formulation|linearisation method|Linearizer|"
    "Linearizer::LinearizeBatch|BatchStepper|BatchStepper::Run|randomized smoothing|"
    "zeroth-order smoothing|Rollout|RolloutCommands|Kinematics|Kinematics::Update|"
    "IntegrateConfiguration|SolveInverseKinematics|Scene::CommandAt|GeometryModel|"
    "ContactModel|ContactModel::Compute|ContactMpc|ContactMpc::Linearize|RunMpc|"
    "WriteTrajectory|KeepEveryKthStep|WriteViewerHtml|RolloutBatch|SetParkedThreadSpin|"
    "InlineFrameHtml|TrajectoryPlots): ");
// A batch's item: "point 3: x.q has size ..." (BatchStepper), "rollout 3: x0.q ..." (RolloutBatch).
const std::regex kItem("^(point|rollout) ([0-9]+): ");

struct Rename {
  std::regex cpp;
  const char* python;
};

// The C++ names of arguments at the start of a message, and their Python names.
const Rename kArguments[] = {
    {std::regex("^x0\\.q\\b"), "q0"},
    {std::regex("^x0\\.v\\b"), "v0"},
    {std::regex("^x\\.q\\b"), "q"},
    {std::regex("^x\\.v\\b"), "v"},
    {std::regex("^commands row ([0-9]+)"), "U[$1]"},
    {std::regex("^commands\\b"), "U"},
    {std::regex("^(the )?time step h\\b"), "h"},
    {std::regex("^the step count\\b"), "steps"},
    {std::regex("^settings\\."), ""},
    {std::regex("^target\\.orientation_W\\b"), "orientation"},
    {std::regex("^target\\.point_B and target\\.position_W\\b"), "point and position"},
};

// A batch item's arguments, '#' standing for the item's index: the rows of Q, U and V of a
// BatchLinearizer; the rows of q0s and v0s and the commands Us[#] of rollout_batch.
const Rename kItemArguments[] = {
    {std::regex("^x\\.q\\b"), "Q[#]"},     {std::regex("^x\\.v\\b"), "V[#]"},
    {std::regex("^u\\b"), "U[#]"},         {std::regex("^x0\\.q\\b"), "q0s[#]"},
    {std::regex("^x0\\.v\\b"), "v0s[#]"},  {std::regex("^commands row ([0-9]+)"), "Us[#][$1]"},
    {std::regex("^commands\\b"), "Us[#]"},
};

}  // namespace

std::string PythonMessage(const char* who, const std::string& message, bool items) {
  const std::string prefix = std::string(who) + ": ";
  if (message.rfind(prefix, 0) == 0) return message;  // named by the caller already
  std::string rest =
      std::regex_replace(message, kCppWhere, "", std::regex_constants::format_first_only);
  std::smatch item;
  if (std::regex_search(rest, item, kItem)) {
    const std::string index = item[2].str();
    rest = item.suffix().str();
    if (items) {
      for (const Rename& r : kItemArguments) {
        if (!std::regex_search(rest, r.cpp)) continue;
        std::string python = r.python;
        python.replace(python.find('#'), 1, index);
        return prefix +
               std::regex_replace(rest, r.cpp, python, std::regex_constants::format_first_only);
      }
    }
  }
  for (const Rename& r : kArguments) {
    if (std::regex_search(rest, r.cpp))
      return prefix +
             std::regex_replace(rest, r.cpp, r.python, std::regex_constants::format_first_only);
  }
  return prefix + rest;
}

py::object FileNotFoundClass(py::module_& m, const char* name, py::handle base, const char* doc) {
  const std::string qualified = m.attr("__name__").cast<std::string>() + "." + name;
  const py::tuple bases = py::make_tuple(base, py::handle(PyExc_FileNotFoundError));
  py::dict body;
  // str(e) is the message, as for the other quasidyn errors (OSError's own would print
  // "[Errno 2] No such file or directory: 'path'" once filename is set).
  body["__str__"] = py::module_::import("builtins").attr("BaseException").attr("__str__");
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), body.ptr());
  if (cls == nullptr) throw py::error_already_set();
  py::object out = py::reinterpret_steal<py::object>(cls);
  m.add_object(name, out);
  return out;
}

py::object FileNotFoundInstance(py::handle cls, const std::string& message,
                                const std::string& path) {
  py::object error = cls(py::str(message));
  error.attr("errno") = ENOENT;
  error.attr("strerror") = std::strerror(ENOENT);
  error.attr("filename") = py::reinterpret_steal<py::object>(
      PyUnicode_DecodeFSDefaultAndSize(path.data(), static_cast<py::ssize_t>(path.size())));
  return error;
}

}  // namespace quasidyn::python
