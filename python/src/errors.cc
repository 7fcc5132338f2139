// The library's argument errors in Python's words (bindings.h, PythonMessage): the C++
// function that checked is replaced by the Python function, the C++ names of the arguments by
// the Python ones. The messages themselves are the library's (common/argument_check.h).

#include <regex>
#include <string>

#include "bindings.h"

namespace quasidyn::python {
namespace {

// The library's checking functions ("<where>: ..."), which a Python caller did not call.
const std::regex kCppWhere(
    "^(Calc|MakeStepModel|step model|formulation|linearisation method|Linearizer|"
    "Linearizer::LinearizeBatch|BatchStepper|BatchStepper::Run|randomized smoothing|"
    "zeroth-order smoothing|Rollout|RolloutCommands|Kinematics|Kinematics::Update|"
    "IntegrateConfiguration|SolveInverseKinematics|Scene::CommandAt|GeometryModel|"
    "ContactModel|ContactModel::Compute|ContactMpc|ContactMpc::Linearize|RunMpc|"
    "WriteTrajectory|KeepEveryKthStep|WriteViewerHtml): ");
// A batch's point: "point 3: x.q has size ...".
const std::regex kPoint("^point ([0-9]+): ");

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

// A batch point's arguments: the rows of Q, U and V.
const Rename kPointArguments[] = {
    {std::regex("^x\\.q\\b"), "Q"},
    {std::regex("^x\\.v\\b"), "V"},
    {std::regex("^u\\b"), "U"},
};

}  // namespace

std::string PythonMessage(const char* who, const std::string& message, bool points) {
  const std::string prefix = std::string(who) + ": ";
  if (message.rfind(prefix, 0) == 0) return message;  // named by the caller already
  std::string rest =
      std::regex_replace(message, kCppWhere, "", std::regex_constants::format_first_only);
  std::smatch point;
  if (std::regex_search(rest, point, kPoint)) {
    const std::string index = point[1].str();
    rest = point.suffix().str();
    if (points) {
      for (const Rename& r : kPointArguments) {
        std::smatch name;
        if (std::regex_search(rest, name, r.cpp))
          return prefix + r.python + "[" + index + "]" + name.suffix().str();
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

}  // namespace quasidyn::python
