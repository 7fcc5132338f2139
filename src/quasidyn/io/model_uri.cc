#include "quasidyn/io/model_uri.h"

#include <filesystem>
#include <vector>

namespace quasidyn {

std::string ResolveModelUri(const std::string& uri, const std::string& model_directory,
                            const SourceLocation& where, const PackageSearch& packages,
                            const std::string& at) {
  namespace fs = std::filesystem;
  constexpr std::string_view kFile = "file://";
  if (uri.rfind(kFile, 0) == 0) return uri.substr(kFile.size());
  for (const std::string_view scheme : {"package://", "model://"}) {
    if (uri.rfind(scheme, 0) != 0) continue;
    const std::string rest = uri.substr(scheme.size());
    const size_t slash = rest.find('/');
    const std::string name = rest.substr(0, slash);
    const std::string inside = slash == std::string::npos ? "" : rest.substr(slash + 1);
    if (scheme == "package://") {
      std::vector<std::string> searched;
      if (const std::optional<std::string> folder =
              FindPackageFolder(name, model_directory, packages, &searched))
        return (fs::path(*folder) / inside).lexically_normal().string();
      std::string places;
      for (const std::string& place : searched) places += (places.empty() ? "" : "; ") + place;
      ThrowAt(where, at + "cannot resolve " + uri + ": package '" + name +
                         "' not found; searched: " + places +
                         " (give its folder with the scene's `packages:` or --package " + name +
                         "=DIR)");
    }
    fs::path folder = fs::absolute(model_directory.empty() ? "." : model_directory);
    for (;;) {
      if (folder.filename() == name) return (folder / inside).lexically_normal().string();
      std::error_code error;
      if (fs::is_directory(folder / name, error))
        return (folder / name / inside).lexically_normal().string();
      if (folder == folder.parent_path()) break;
      folder = folder.parent_path();
    }
    ThrowAt(where, at + "cannot resolve " + uri + ": no folder named '" + name + "' at or above " +
                       (model_directory.empty() ? std::string(".") : model_directory));
  }
  const fs::path path(uri);
  if (path.is_absolute() || model_directory.empty()) return uri;
  return (fs::path(model_directory) / path).lexically_normal().string();
}

}  // namespace quasidyn
