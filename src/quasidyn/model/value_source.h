#pragma once
// Where an input value came from, for the errors that name it: a file's 1-based line and the
// field ("objects[0].body.shapes[1]", "formulation.kappa"), or a program's argument. Scene
// files, model files (URDF, SDF, MJCF), the command line and Python all report through it.

#include <string>

namespace quasidyn {

// Where a value came from: a scene file's line and field ("formulation.kappa"), or a program's
// argument (file empty, field "--kappa" or "kappa").
struct ValueSource {
  std::string file;  // empty for a value from the command line or Python
  int line = 0;      // 1-based; 0 when unknown
  std::string field;
};

// Throws SceneError(file, line, field, problem) for a value from a file, else
// std::invalid_argument("<field>: <problem>").
[[noreturn]] void FailAt(const ValueSource& source, const std::string& problem);

}  // namespace quasidyn
