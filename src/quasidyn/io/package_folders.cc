#include "quasidyn/io/package_folders.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "quasidyn/files/xml_tags.h"

namespace quasidyn {
namespace {

namespace fs = std::filesystem;

// A package.xml is a few KiB; a larger file is not read.
constexpr std::uintmax_t kMaxPackageXmlBytes = std::uintmax_t{1} << 20;  // 1 MiB
// Sub-folders looked at per folder when crawling, so a huge folder cannot stall the loader.
constexpr int kMaxFoldersPerLevel = 10000;

bool IsFolder(const fs::path& path) {
  std::error_code error;
  return fs::is_directory(path, error);
}

std::string Trimmed(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

// The sub-folders of `folder` (sorted, so the search does not depend on the file system's
// order), hidden ones left out.
std::vector<fs::path> SubFolders(const fs::path& folder) {
  std::vector<fs::path> folders;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (static_cast<int>(folders.size()) >= kMaxFoldersPerLevel) break;
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] != '.' && IsFolder(it->path())) folders.push_back(it->path());
  }
  std::sort(folders.begin(), folders.end());
  return folders;
}

bool NamesPackage(const fs::path& folder, const std::string& name) {
  return PackageXmlName(folder.string()) == name;
}

// A ROS_PACKAGE_PATH entry: the entry itself or a package below it (by package.xml, then by
// folder name), breadth first, not descending into packages (as rospack crawls).
std::optional<fs::path> CrawlForPackage(const fs::path& root, const std::string& name) {
  std::vector<fs::path> level = {root};
  std::optional<fs::path> named_folder;
  for (int depth = 0; depth <= kPackageSearchDepth && !level.empty(); ++depth) {
    std::vector<fs::path> next;
    for (const fs::path& folder : level) {
      if (NamesPackage(folder, name)) return folder;
      if (!named_folder && folder.filename() == name) named_folder = folder;
      std::error_code error;
      const bool is_package = fs::is_regular_file(folder / "package.xml", error);
      if (depth < kPackageSearchDepth && !is_package) {
        for (const fs::path& sub : SubFolders(folder)) next.push_back(sub);
      }
    }
    level = std::move(next);
  }
  return named_folder;
}

std::string Listed(const std::map<std::string, PackageFolder>& map) {
  if (map.empty()) return "none given";
  std::string names;
  for (const auto& [name, folder] : map) names += (names.empty() ? "" : ", ") + name;
  return "has " + names;
}

}  // namespace

std::optional<std::string> PackageXmlName(const std::string& folder) {
  const fs::path path = fs::path(folder) / "package.xml";
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return std::nullopt;
  const std::uintmax_t bytes = fs::file_size(path, error);
  if (error || bytes > kMaxPackageXmlBytes) return std::nullopt;
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  const std::string xml = text.str();
  const XmlScan scan = ScanXmlTags(xml);
  if (scan.start_tags.empty() || scan.start_tags.front().name != "package") return std::nullopt;
  for (const XmlText& run : scan.texts) {
    const XmlStartTag& tag = scan.start_tags[run.element];
    if (tag.name == "name" && tag.parent == 0) {
      const std::string name = Trimmed(run.text);
      if (!name.empty()) return name;
    }
  }
  return std::nullopt;
}

std::optional<std::string> FindPackageFolder(const std::string& name,
                                             const std::string& model_directory,
                                             const PackageSearch& search,
                                             std::vector<std::string>* searched) {
  const auto note = [&](const std::string& line) {
    if (searched != nullptr) searched->push_back(line);
  };
  for (const auto* map : {&search.scene, &search.command_line}) {
    const auto found = map->find(name);
    if (found != map->end()) return fs::path(found->second.folder).lexically_normal().string();
  }
  note("the scene's `packages:` (" + Listed(search.scene) + ")");
  note("--package (" + Listed(search.command_line) + ")");
  const char* ros_package_path = std::getenv("ROS_PACKAGE_PATH");
  if (ros_package_path == nullptr || *ros_package_path == '\0') {
    note("ROS_PACKAGE_PATH (unset)");
  } else {
    std::stringstream entries(ros_package_path);
    std::string entry;
    while (std::getline(entries, entry, ':')) {
      if (entry.empty() || !IsFolder(entry)) continue;
      if (const std::optional<fs::path> folder = CrawlForPackage(entry, name))
        return folder->lexically_normal().string();
    }
    note("ROS_PACKAGE_PATH (" + std::string(ros_package_path) + ")");
  }
  const fs::path start = fs::absolute(model_directory.empty() ? "." : model_directory);
  for (fs::path folder = start;; folder = folder.parent_path()) {
    if (NamesPackage(folder, name)) return folder.lexically_normal().string();
    if (folder == folder.parent_path()) break;
  }
  for (fs::path folder = start;; folder = folder.parent_path()) {
    if (folder.filename() == name) return folder.lexically_normal().string();
    if (IsFolder(folder / name)) return (folder / name).lexically_normal().string();
    if (folder == folder.parent_path()) break;
  }
  const std::string shown = model_directory.empty() ? std::string(".") : model_directory;
  note("a package.xml naming '" + name + "' in the folders at and above " + shown);
  note("a folder named '" + name + "' at or above " + shown);
  return std::nullopt;
}

std::pair<std::string, std::string> ParsePackageArgument(const std::string& text) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
    throw std::invalid_argument("--package " + text +
                                ": expected NAME=DIR (the folder of package NAME)");
  return {text.substr(0, equals), text.substr(equals + 1)};
}

}  // namespace quasidyn
