#include "info_command.h"

#include <iostream>
#include <memory>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/io/scene_loader.h"
#include "scene_summary.h"

namespace quasidyn::cli {

void AddInfoCommand(CLI::App& app) {
  struct Options {
    std::string scene_path;
    bool json = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* info = app.add_subcommand(
      "info", "Print a scene's bodies, joints, q/v layout, shapes and its contacts at q0");
  info->add_option("SCENE", options->scene_path, "Scene file (YAML)")->required();
  info->add_flag("--json", options->json, "Print JSON instead of text");
  info->callback([options] {
    const Scene scene = LoadScene(options->scene_path);
    ContactEngine engine(scene);
    const ContactSet& contacts = engine.Compute(scene.q0);
    if (options->json)
      std::cout << SceneSummaryJson(scene, contacts).dump(2) << "\n";
    else
      std::cout << SceneSummaryText(scene, contacts);
  });
}

}  // namespace quasidyn::cli
