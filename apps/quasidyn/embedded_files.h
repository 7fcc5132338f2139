#pragma once
// Files built into the quasidyn program (apps/quasidyn/EmbedFiles.cmake generates the
// definition of EmbeddedFiles() at build time from examples/arm_cubes/).

#include <string_view>
#include <vector>

namespace quasidyn::cli {

struct EmbeddedFile {
  std::string_view path;      // relative to the embedded folder, e.g. "models/arm7.urdf"
  std::string_view contents;  // the file's bytes (static storage; followed by a '\0')
};

// Every embedded file, in the order given to quasidyn_embed_files().
const std::vector<EmbeddedFile>& EmbeddedFiles();

}  // namespace quasidyn::cli
