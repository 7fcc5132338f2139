#pragma once
// The error every loader throws for a bad scene or model file. Its message names the
// file, the line (when known) and the field, e.g.
//   scenes/bad.yaml:12: objects[0].mass: must be > 0 (got -1)

#include <stdexcept>
#include <string>

namespace quasidyn {

class SceneError : public std::runtime_error {
 public:
  SceneError(const std::string& file, int line, const std::string& field,
             const std::string& problem);
  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 1-based; 0 when unknown
  const std::string& field() const { return field_; }
  const std::string& problem() const { return problem_; }  // the message after file:line: field

 private:
  std::string file_;
  int line_;
  std::string field_;
  std::string problem_;
};

// A file that does not exist: the scene file itself (file() is its path, line 0), or a model
// file a scene names (URDF, SDF, MJCF; file(), line() and field() locate the reference in the
// scene). missing_file() is the path that was looked for. Python raises it as
// quasidyn.SceneFileNotFoundError, also a FileNotFoundError (docs/python.md, "Errors").
class SceneFileNotFoundError : public SceneError {
 public:
  SceneFileNotFoundError(const std::string& file, int line, const std::string& field,
                         const std::string& problem, const std::string& missing_file);
  const std::string& missing_file() const { return missing_file_; }

 private:
  std::string missing_file_;
};

}  // namespace quasidyn
