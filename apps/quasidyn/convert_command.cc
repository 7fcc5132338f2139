#include "convert_command.h"

#include <filesystem>
#include <memory>

#include "log.h"
#include "output_paths.h"
#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/io/native_scene_writer.h"
#include "quasidyn/io/qsim_system_file.h"
#include "quasidyn/io/settings_json.h"
#include "quasidyn/io/side_file.h"
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
      "docs/qsim-files.md), or to a side file naming one (its q0 and blocks written too)");
  convert
      ->add_option("FILE", options->file,
                   "The system or model-directive file (YAML), or a side file (base:)")
      ->required();
  convert->add_option("--out", options->out, "The scene file to write (.yaml or .yml)")->required();
  AddQuietFlag(convert);
  convert->callback([options] {
    // Loaded once as every command loads it (its errors and warnings), then read for writing.
    const Scene scene = LoadSceneFile(options->file, "convert");
    // A side file (docs/qsim-files.md, "Side files"): its base, with the side file's start and
    // blocks (JSON is YAML; every number reads back to the same double).
    const std::optional<std::string> base = SideFileBase(options->file, PackageFolders());
    QsimScene qsim = ReadQsimSceneFile(base.value_or(options->file), PackageFolders());
    qsim.conventions = scene.conventions;  // a side file's `conventions:` keys in place
    for (QsimModel& model : qsim.models) {
      const int i = scene.InstanceIndex(model.name);
      if (i >= 0)
        model.initial = scene.q0.segment(scene.instances[i].q_start, model.initial.size());
    }
    CheckOutputPaths(SceneInputs(scene, "FILE"), {{"--out", options->out, {".yaml", ".yml"}}});
    const std::string folder = std::filesystem::path(options->out).parent_path().string();
    std::string text = NativeSceneYaml(qsim, folder, PackageFolders());
    if (scene.planning)
      text += "planning: " + SettingsBlockToJson(PlanningSettingsSchema(), *scene.planning).dump() +
              "\n";
    if (scene.mpc)
      text += "mpc: " + SettingsBlockToJson(MpcSettingsSchema(), *scene.mpc).dump() + "\n";
    WriteFileAtomically(options->out, text);
    if (Logs(LogLevel::kInfo))
      LogStream() << "quasidyn: convert: wrote " << options->out << " (" << scene.instances.size()
                  << " models, n_q = " << scene.nq << ")\n";
  });
}

}  // namespace quasidyn::cli
