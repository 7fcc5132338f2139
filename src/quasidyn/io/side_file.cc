#include "quasidyn/io/side_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "quasidyn/io/model_uri.h"
#include "quasidyn/io/settings_reader.h"
#include "quasidyn/io/shape_reader.h"

namespace quasidyn {

bool IsSideFile(const YamlValue& root) { return root.IsMap() && root.Has("base"); }

SideFile ReadSideFile(const YamlValue& root, const std::string& base_directory,
                      const PackageSearch& packages) {
  root.CheckKeys({"base", "initial", "planning", "mpc", "conventions"});
  SideFile side;
  const YamlValue base = root.Get("base");
  side.base_where = LocationOf(base);
  const std::string name = base.AsString();
  if (name.empty()) base.Fail("names no file (the scene file this side file adds to)");
  const bool uri = name.find("://") != std::string::npos;
  side.base_path = uri ? ResolveModelUri(name, base_directory, side.base_where, packages)
                       : ResolveScenePath(name, base_directory);
  std::error_code error;
  if (!std::filesystem::is_regular_file(side.base_path, error)) {
    ThrowFileNotFoundAt(side.base_where,
                        "the base scene file is not found: " + side.base_path +
                            (uri ? "" : " (relative paths start at the side file's folder)"),
                        side.base_path);
  }
  if (const auto initial = root.Find("initial")) {
    if (initial->IsSequence()) {
      side.starts.whole = StartOverrides::Instance{"", initial->AsVector(), LocationOf(*initial)};
    } else if (initial->IsMap()) {
      for (const std::string& model : initial->Keys()) {
        const YamlValue q = initial->Get(model);
        side.starts.instances.push_back({model, q.AsVector(), LocationOf(q)});
      }
      if (side.starts.instances.empty()) initial->Fail("names no model");
    } else {
      initial->Fail(
          "must be a map of model names to their q0 ({sphere: [0, 0.5, 0]}) or a list of the "
          "scene's n_q numbers");
    }
  }
  if (const auto conventions = root.Find("conventions")) {
    if (!conventions->IsMap())
      conventions->Fail("must be a map of conventions ({joint_limits: enforced})");
    side.conventions = *conventions;  // its keys and values read by SideConventions
  }
  return side;
}

SimulatorConventions SideConventions(const SideFile& side, const SimulatorConventions& base,
                                     int friction_rays, bool planar) {
  SimulatorConventions out = base;
  if (!side.conventions) return out;
  FieldLines lines(*side.conventions);
  ReadSettingsBlock(SimulatorConventionsSchema(), *side.conventions, &out, &lines);
  if (!planar && friction_rays < 3 && out.friction_ray_basis != FrictionRayBasis::kQsim) {
    lines.At("friction_ray_basis")
        .Fail("the base has " + std::to_string(friction_rays) +
              " friction rays, which only the qsim basis has (its ±x̂ × n pair); keep "
              "friction_ray_basis: qsim");
  }
  return out;
}

std::optional<std::string> SideFileBase(const std::string& path,
                                        const std::map<std::string, std::string>& package_folders) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  const YamlValue root = YamlValue::Parse(text.str(), path);
  if (!IsSideFile(root)) return std::nullopt;
  PackageSearch packages;
  for (const auto& [name, folder] : package_folders)
    packages.command_line[name] = {folder, "--package " + name + "=" + folder};
  return ReadSideFile(root, std::filesystem::path(path).parent_path().string(), packages).base_path;
}

}  // namespace quasidyn
