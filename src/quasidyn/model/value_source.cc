#include "quasidyn/model/value_source.h"

#include <stdexcept>

#include "quasidyn/model/scene_error.h"

namespace quasidyn {

void FailAt(const ValueSource& source, const std::string& problem) {
  if (!source.file.empty()) throw SceneError(source.file, source.line, source.field, problem);
  throw std::invalid_argument((source.field.empty() ? std::string("parameter") : source.field) +
                              ": " + problem);
}

}  // namespace quasidyn
