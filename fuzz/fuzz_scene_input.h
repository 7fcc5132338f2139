#pragma once
// The input of the fuzz targets: a scene YAML, optionally followed by a line "--- urdf" and the
// text of the one URDF the scene may reference as `urdf: robot.urdf`. Loaded through
// LoadSceneFromMemory (scenes/scene_loading.h), as `quasidyn demo` loads its built-in scene.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "quasidyn/model/scene_error.h"
#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn::fuzz {

inline constexpr const char* kUrdfSeparator = "\n--- urdf\n";
inline constexpr const char* kUrdfName = "robot.urdf";

// The scene, or nothing when the loader rejects the input the documented way: a SceneError
// (file:line: field: problem) or std::invalid_argument. Any other exception escapes and is a
// finding (libFuzzer reports it as a crash), as are signals and sanitizer reports.
inline std::optional<Scene> LoadFuzzScene(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t split = input.find(kUrdfSeparator);
  const std::string yaml = input.substr(0, split);
  std::map<std::string, std::string> files;
  if (split != std::string::npos)
    files[kUrdfName] = input.substr(split + std::char_traits<char>::length(kUrdfSeparator));
  try {
    return LoadSceneFromMemory(yaml, "fuzz.yaml", files);
  } catch (const SceneError&) {
    return std::nullopt;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

}  // namespace quasidyn::fuzz
