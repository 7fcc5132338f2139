#include "output_paths.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/simulation/trajectory_file.h"

namespace quasidyn::cli {
namespace {

namespace fs = std::filesystem;

std::string Quoted(const NamedPath& p) { return p.name + " '" + p.path + "'"; }

// True when both paths name one regular file, or one file yet to be written. Existing
// special files (/dev/null) are never "the same file": writing them twice loses nothing.
bool SameFile(const std::string& a, const std::string& b) {
  std::error_code error;
  const fs::file_status status_a = fs::status(a, error);
  const fs::file_status status_b = fs::status(b, error);
  const bool exists_a = fs::exists(status_a), exists_b = fs::exists(status_b);
  if (exists_a != exists_b) return false;
  if (exists_a) {
    if (!fs::is_regular_file(status_a) || !fs::is_regular_file(status_b)) return false;
    const bool same = fs::equivalent(a, b, error);
    return !error && same;
  }
  const fs::path canonical_a = fs::weakly_canonical(a, error);
  if (error) return fs::path(a).lexically_normal() == fs::path(b).lexically_normal();
  const fs::path canonical_b = fs::weakly_canonical(b, error);
  if (error) return fs::path(a).lexically_normal() == fs::path(b).lexically_normal();
  return canonical_a == canonical_b;
}

// The output's own checks: a file name, not a directory itself, whose folder exists or can be
// made (no part of it is a file).
void CheckOutput(const NamedPath& output) {
  if (output.path.empty()) throw std::invalid_argument(output.name + ": the output path is empty");
  const fs::path path(output.path);
  if (!path.has_filename())
    throw std::invalid_argument(Quoted(output) + " names a directory, not a file");
  std::error_code error;
  if (fs::is_directory(path, error))
    throw std::invalid_argument(Quoted(output) + " is a directory, not a file");
  for (fs::path folder = path.parent_path(); !folder.empty(); folder = folder.parent_path()) {
    if (fs::exists(folder, error) && !fs::is_directory(folder, error))
      throw std::invalid_argument(Quoted(output) + ": '" + folder.string() +
                                  "' is a file, not a folder");
    if (folder == folder.parent_path()) break;
  }
}

// The output's name ends in one of its option's extensions, or it is an existing file that is
// not a regular one (/dev/null): then the option's first format is written to it.
void CheckExtension(const NamedPath& output) {
  if (output.extensions.empty()) return;
  const std::string& path = output.path;
  for (const std::string& extension : output.extensions) {
    if (path.size() > extension.size() &&
        path.compare(path.size() - extension.size(), extension.size(), extension) == 0)
      return;
  }
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::exists(status) && !fs::is_regular_file(status) && !fs::is_directory(status)) return;
  std::vector<std::string> accepted = output.extensions;
  const std::string extension = fs::path(path).extension().string();
  const std::string last = accepted.back();
  accepted.pop_back();
  const std::string listed = accepted.empty() ? last : JoinNames(accepted) + " or " + last;
  throw std::invalid_argument(
      Quoted(output) + ": " +
      (extension.empty() ? "no file extension" : "unknown extension '" + extension + "'") + "; " +
      output.name + " writes " + listed + ", chosen by the extension");
}

// Makes the output's folder when it does not exist yet.
void CreateFolder(const NamedPath& output) {
  const fs::path folder = fs::path(output.path).parent_path();
  if (folder.empty()) return;
  std::error_code error;
  fs::create_directories(folder, error);
  if (error)
    throw std::invalid_argument(Quoted(output) + ": cannot create its folder '" + folder.string() +
                                "': " + error.message());
}

}  // namespace

const std::vector<std::string>& TrajectoryExtensions() { return TrajectoryFileExtensions(); }

const std::vector<std::string>& HtmlExtensions() {
  static const std::vector<std::string> extensions = {".html", ".htm"};
  return extensions;
}

const std::vector<std::string>& CsvExtensions() {
  static const std::vector<std::string> extensions = {".csv"};
  return extensions;
}

const std::vector<std::string>& SvgExtensions() {
  static const std::vector<std::string> extensions = {".svg"};
  return extensions;
}

const std::vector<std::string>& JsonExtensions() {
  static const std::vector<std::string> extensions = {".json"};
  return extensions;
}

std::vector<NamedPath> SceneInputs(const Scene& scene, const std::string& scene_name) {
  std::vector<NamedPath> inputs;
  if (!scene.source_file.empty()) inputs.push_back({scene_name, scene.source_file});
  if (!scene.base_file.empty()) inputs.push_back({"the base of " + scene_name, scene.base_file});
  for (const ModelInstance& instance : scene.instances) {
    if (instance.source_file.empty()) continue;
    inputs.push_back({"the URDF of " + std::string(instance.actuated ? "robot" : "object") + " '" +
                          instance.name + "'",
                      instance.source_file});
  }
  return inputs;
}

void CheckOutputPaths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  for (const NamedPath& output : outputs) CheckOutput(output);
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (const NamedPath& input : inputs) {
      if (SameFile(outputs[i].path, input.path))
        throw std::invalid_argument(Quoted(outputs[i]) + " is the same file as " + Quoted(input) +
                                    ": an output may not overwrite an input of the run");
    }
    for (size_t j = 0; j < i; ++j) {
      if (SameFile(outputs[i].path, outputs[j].path))
        throw std::invalid_argument(Quoted(outputs[j]) + " and " + Quoted(outputs[i]) +
                                    " are the same file: give each output its own path");
    }
  }
  // After the checks above: an output that would overwrite an input is named as such.
  for (const NamedPath& output : outputs) CheckExtension(output);
  for (const NamedPath& output : outputs) CreateFolder(output);
}

void CheckOutputFolder(const NamedPath& folder) {
  if (folder.path.empty())
    throw std::invalid_argument(folder.name + ": the output folder path is empty");
}

}  // namespace quasidyn::cli
