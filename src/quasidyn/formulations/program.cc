#include "quasidyn/formulations/program.h"

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

void ThrowWorkspaceMismatch(const char* program) {
  ThrowInvalidArgument(program, "the workspace was made by another program");
}

}  // namespace quasidyn
