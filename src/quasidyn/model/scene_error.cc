#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

std::string Compose(const std::string& file, int line, const std::string& field,
                    const std::string& problem) {
  std::string where = file.empty() ? std::string("<scene>") : file;
  if (line > 0) where += ":" + std::to_string(line);
  if (!field.empty()) where += ": " + field;
  return where + ": " + problem;
}

}  // namespace

SceneError::SceneError(const std::string& file, int line, const std::string& field,
                       const std::string& problem)
    : std::runtime_error(Compose(file, line, field, problem)),
      file_(file),
      line_(line),
      field_(field) {}

}  // namespace quasidyn
