#include "quasidyn/io/scene_from_memory.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <system_error>

namespace quasidyn {
namespace {

namespace fs = std::filesystem;

// A folder created for this call only and removed with everything in it when it goes out of
// scope.
class PrivateFolder {
 public:
  PrivateFolder() {
    static std::atomic<unsigned> counter{0};
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    for (int attempt = 0; attempt < 100; ++attempt) {
      const fs::path candidate =
          fs::temp_directory_path() /
          ("quasidyn-scene-" + std::to_string(stamp) + "-" + std::to_string(counter.fetch_add(1)));
      std::error_code error;
      if (fs::create_directory(candidate, error)) {  // false when it already exists
        path_ = candidate;
        return;
      }
    }
    throw std::runtime_error("cannot create a temporary folder under " +
                             fs::temp_directory_path().string());
  }
  ~PrivateFolder() {
    std::error_code ignored;  // best effort: never throw from a destructor
    fs::remove_all(path_, ignored);
  }
  PrivateFolder(const PrivateFolder&) = delete;
  PrivateFolder& operator=(const PrivateFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void CheckKey(const std::string& key) {
  const fs::path path = fs::path(key).lexically_normal();
  if (key.empty() || path.is_absolute() || path.empty() || *path.begin() == "..") {
    throw std::invalid_argument("in-memory scene file '" + key +
                                "': the name must be a relative path inside the scene's folder");
  }
}

}  // namespace

SceneDocument SceneDocumentFromMemory(const std::string& yaml_text,
                                      const std::string& name_for_errors,
                                      const std::map<std::string, std::string>& files) {
  for (const auto& [key, text] : files) CheckKey(key);
  auto folder = std::make_shared<const PrivateFolder>();
  for (const auto& [key, text] : files) {
    const fs::path path = folder->path() / fs::path(key).lexically_normal();
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write '" + path.string() + "'");
  }
  SceneDocument document =
      SceneDocument::FromText(yaml_text, name_for_errors, folder->path().string());
  document.KeepAlive(std::move(folder));
  return document;
}

Scene ReadSceneFromMemory(const std::string& yaml_text, const std::string& name_for_errors,
                          const std::map<std::string, std::string>& files) {
  const SceneDocument document = SceneDocumentFromMemory(yaml_text, name_for_errors, files);
  Scene scene = document.ReadModels();
  document.ReadSettings(&scene);
  return scene;
}

}  // namespace quasidyn
