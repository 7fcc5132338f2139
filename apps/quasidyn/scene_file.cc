#include "scene_file.h"

#include "log.h"
#include "quasidyn/formulations/scene_loading.h"

namespace quasidyn::cli {

Scene LoadSceneFile(const std::string& path, const char* command) {
  Scene scene = LoadScene(path);
  if (Logs(LogLevel::kWarning))
    for (const std::string& warning : scene.warnings)
      LogStream() << "quasidyn: " << command << ": warning: " << warning << "\n";
  return scene;
}

}  // namespace quasidyn::cli
