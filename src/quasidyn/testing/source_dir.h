#pragma once
// The root of the source tree a test, benchmark or example program was built from, for the
// files it reads (examples/, tests/data/, testdata/). Force-included into those programs by
// CMake (target quasidyn_source_dir) and defined once per build in source_dir.cc: their own
// translation units carry no path, so a second clone at another path finds them in ccache
// (docs/development.md, "ccache").

namespace quasidyn::testing {

// The absolute path of the source tree's root, without a trailing '/'.
const char* SourceDir();

}  // namespace quasidyn::testing

#define QUASIDYN_SOURCE_DIR (::quasidyn::testing::SourceDir())
