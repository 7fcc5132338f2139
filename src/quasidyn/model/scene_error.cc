#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

std::string Compose(const std::string& file, int line, const std::string& field,
                    const std::string& problem) {
  // Built with append(): GCC 12 reports a false -Wrestrict on chained operator+ here.
  std::string message = file.empty() ? std::string("<scene>") : file;
  if (line > 0) message.append(":").append(std::to_string(line));
  if (!field.empty()) message.append(": ").append(field);
  message.append(": ").append(problem);
  return message;
}

}  // namespace

SceneError::SceneError(const std::string& file, int line, const std::string& field,
                       const std::string& problem)
    : std::runtime_error(Compose(file, line, field, problem)),
      file_(file),
      line_(line),
      field_(field),
      problem_(problem) {}

SceneFileNotFoundError::SceneFileNotFoundError(const std::string& file, int line,
                                               const std::string& field, const std::string& problem,
                                               const std::string& missing_file)
    : SceneError(file, line, field, problem), missing_file_(missing_file) {}

}  // namespace quasidyn
