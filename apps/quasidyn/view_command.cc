#include "view_command.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "log.h"
#include "output_paths.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/simulation/trajectory_file.h"
#include "quasidyn/viewer/html_writer.h"
#include "scene_file.h"

namespace quasidyn::cli {
namespace {

struct ViewOptions {
  std::string trajectory_path;
  std::string out_path;
  std::string scene_path;  // empty: the one the trajectory records
};

// The scene file to load: --scene, else the one the trajectory records (which the reader
// resolved against the trajectory file's folder, simulation/trajectory_file.h).
std::string ScenePath(const ViewOptions& options, const Trajectory& trajectory) {
  if (!options.scene_path.empty()) return options.scene_path;
  const std::string& recorded = trajectory.scene_file;
  if (recorded.empty())
    throw std::invalid_argument("trajectory '" + options.trajectory_path +
                                "' records no scene file (scene built in memory): pass --scene");
  if (std::filesystem::exists(recorded)) return recorded;
  throw std::invalid_argument("trajectory '" + options.trajectory_path + "' records scene file '" +
                              recorded + "', which does not exist: pass --scene");
}

void RunView(const ViewOptions& options) {
  const Trajectory trajectory = ReadTrajectory(options.trajectory_path);
  const std::string scene_path = ScenePath(options, trajectory);
  const Scene scene = LoadSceneFile(scene_path, "view");
  std::vector<NamedPath> inputs = {{"TRAJECTORY", options.trajectory_path}};
  for (const NamedPath& input :
       SceneInputs(scene, options.scene_path.empty() ? "the trajectory's scene file" : "--scene"))
    inputs.push_back(input);
  CheckOutputPaths(inputs, {{"--out", options.out_path, HtmlExtensions()}});
  if (scene.nq != trajectory.nq)
    throw std::invalid_argument("scene '" + scene_path + "' has n_q = " + std::to_string(scene.nq) +
                                " but trajectory '" + options.trajectory_path + "' has n_q = " +
                                std::to_string(trajectory.nq) + ": not a trajectory of this scene");
  WriteViewerHtml(scene, trajectory, options.out_path);
  std::cout << "wrote " << options.out_path << " (" << trajectory.steps.size() << " steps of "
            << scene.name << ")\n";
}

}  // namespace

void AddViewCommand(CLI::App& app) {
  auto options = std::make_shared<ViewOptions>();
  CLI::App* view = app.add_subcommand(
      "view", "Write a self-contained HTML page (three.js, no network) animating a trajectory");
  view->add_option("TRAJECTORY", options->trajectory_path,
                   "Trajectory file (.json or .npz, from quasidyn simulate --out)")
      ->required();
  view->add_option("-o,--out", options->out_path, "The HTML page to write")->required();
  view->add_option(
      "--scene", options->scene_path,
      "Scene file (YAML); default: the one the trajectory records (stored relative to the "
      "trajectory file)");
  AddQuietFlag(view);
  view->callback([options] { RunView(*options); });
}

}  // namespace quasidyn::cli
