#include "info_command.h"

#include <iostream>
#include <memory>

#include "log.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/scenes/scene_loading.h"
#include "scene_file.h"
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
  AddQuietFlag(info);
  info->callback([options] {
    const ContactModel model(
        std::make_shared<const Scene>(LoadSceneFile(options->scene_path, "info")));
    const Scene& scene = model.scene();
    ContactData data = model.CreateData();
    if (!model.Compute(scene.q0, &data) && Logs(LogLevel::kWarning))
      LogStream() << "quasidyn: info: warning: the contact query at q0 failed: "
                  << data.failure_message() << "\n";
    const ContactSet& contacts = data.contacts();
    if (options->json)
      std::cout << SceneSummaryJson(scene, contacts).dump(2) << "\n";
    else
      std::cout << SceneSummaryText(scene, contacts);
  });
}

}  // namespace quasidyn::cli
