#include "scene_file.h"

#include <filesystem>
#include <stdexcept>
#include <vector>

#include "log.h"
#include "quasidyn/io/package_folders.h"
#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn::cli {
namespace {

// The command line's --package folders (RunCommandLine parses one command line at a time).
std::map<std::string, std::string>& Folders() {
  static std::map<std::string, std::string> folders;
  return folders;
}

}  // namespace

Scene LoadSceneFile(const std::string& path, const char* command) {
  Scene scene = LoadScene(path, Folders());
  if (Logs(LogLevel::kWarning))
    for (const std::string& warning : scene.warnings)
      LogStream() << "quasidyn: " << command << ": warning: " << warning << "\n";
  return scene;
}

void AddPackageOption(CLI::App& app) {
  Folders().clear();
  app.add_option_function<std::vector<std::string>>(
         "--package",
         [](const std::vector<std::string>& values) {
           for (const std::string& value : values) {
             const auto [name, folder] = ParsePackageArgument(value);
             std::error_code error;
             if (!std::filesystem::is_directory(folder, error))
               throw std::invalid_argument("--package " + value + ": folder " + folder +
                                           " not found");
             Folders()[name] = folder;
           }
         },
         "NAME=DIR: the folder of package NAME for package://NAME/... file names in model "
         "files (repeatable; after the scene's `packages:`, before ROS_PACKAGE_PATH)")
      ->type_name("NAME=DIR")
      ->allow_extra_args(false);
}

const std::map<std::string, std::string>& PackageFolders() { return Folders(); }

}  // namespace quasidyn::cli
