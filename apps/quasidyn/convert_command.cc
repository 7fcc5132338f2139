#include "convert_command.h"

#include <filesystem>
#include <memory>

#include "log.h"
#include "output_paths.h"
#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/io/native_scene_writer.h"
#include "quasidyn/io/qsim_system_file.h"
#include "scene_file.h"

namespace quasidyn::cli {

void AddConvertCommand(CLI::App& app) {
  struct Options {
    std::string file;
    std::string out;
  };
  auto options = std::make_shared<Options>();
  CLI::App* convert = app.add_subcommand(
      "convert",
      "Write the scene file equivalent to a file of the reference quasistatic simulator (a "
      "system file, `model_directive:`, or a Drake model-directive file, `directives:`; "
      "docs/qsim-files.md)");
  convert->add_option("FILE", options->file, "The system or model-directive file (YAML)")
      ->required();
  convert->add_option("--out", options->out, "The scene file to write (.yaml or .yml)")->required();
  AddQuietFlag(convert);
  convert->callback([options] {
    // Loaded once as every command loads it (its errors and warnings), then read for writing.
    const Scene scene = LoadSceneFile(options->file, "convert");
    const QsimScene qsim = ReadQsimSceneFile(options->file, PackageFolders());
    CheckOutputPaths(SceneInputs(scene, "FILE"), {{"--out", options->out, {".yaml", ".yml"}}});
    const std::string folder = std::filesystem::path(options->out).parent_path().string();
    WriteFileAtomically(options->out, NativeSceneYaml(qsim, folder, PackageFolders()));
    if (Logs(LogLevel::kInfo))
      LogStream() << "quasidyn: convert: wrote " << options->out << " (" << scene.instances.size()
                  << " models, n_q = " << scene.nq << ")\n";
  });
}

}  // namespace quasidyn::cli
