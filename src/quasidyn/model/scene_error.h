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

}  // namespace quasidyn
