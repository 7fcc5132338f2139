#include "quasidyn/testing/source_dir.h"

namespace quasidyn::testing {

// QUASIDYN_SOURCE_ROOT: set by CMake for this file alone (CMakeLists.txt, quasidyn_source_dir).
const char* SourceDir() { return QUASIDYN_SOURCE_ROOT; }

}  // namespace quasidyn::testing
