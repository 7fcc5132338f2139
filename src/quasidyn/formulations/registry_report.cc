#include "quasidyn/formulations/registry_report.h"

#include <algorithm>
#include <sstream>

namespace quasidyn {
namespace {

std::string YesNo(bool value) { return value ? "yes" : "no"; }

std::string Dimensions(const FormulationCapabilities& can) {
  if (can.planar_scenes && can.spatial_scenes) return "2D, 3D";
  return can.planar_scenes ? "2D" : "3D";
}

std::string Gradient(const FormulationInfo& info) {
  const FormulationCapabilities& can = info.capabilities;
  if (can.differentiable()) return "own";
  return can.exact_linearization.empty() ? "none" : "via " + can.exact_linearization;
}

}  // namespace

nlohmann::json DescribeFormulations(const FormulationRegistry& registry) {
  nlohmann::json out = nlohmann::json::array();
  for (const FormulationPlugin* plugin : registry.Plugins()) {
    const FormulationInfo& info = plugin->info;
    const FormulationCapabilities& can = info.capabilities;
    nlohmann::json parameters = nlohmann::json::array();
    for (const ParameterSpec& p : plugin->parameters)
      parameters.push_back({{"key", p.key},
                            {"unit", p.unit},
                            {"range", p.range},
                            {"default", p.default_text},
                            {"description", p.description}});
    nlohmann::json keys = nlohmann::json::array();
    for (const SceneKeySpec& k : plugin->scene_keys)
      keys.push_back({{"key", k.key}, {"container", k.container}, {"description", k.description}});
    out.push_back({{"name", info.name},
                   {"title", info.title},
                   {"docs", info.docs},
                   {"state", StateKindName(can.state)},
                   {"command", CommandKindName(can.command)},
                   {"planar", can.planar_scenes},
                   {"spatial", can.spatial_scenes},
                   {"robots", can.robots},
                   {"external_forces", can.external_forces},
                   {"joint_limits", can.joint_limits},
                   {"robot_inertia", can.robot_inertia},
                   {"differentiable", can.differentiable()},
                   {"no_gradient", can.no_gradient},
                   {"exact_linearization", can.exact_linearization},
                   {"smoothed_linearization", can.smoothed_linearization},
                   {"parameters", parameters},
                   {"scene_keys", keys}});
  }
  return out;
}

std::string FormulationsText(const FormulationRegistry& registry) {
  const std::vector<const FormulationPlugin*> plugins = registry.Plugins();
  size_t width = 4;
  for (const FormulationPlugin* p : plugins) width = std::max(width, p->info.name.size());
  std::ostringstream out;
  const auto pad = [](const std::string& text, size_t n) {
    return text + std::string(n > text.size() ? n - text.size() : 1, ' ');
  };
  out << pad("name", width + 2) << pad("state", 8) << pad("command", 26) << pad("scenes", 8)
      << pad("robots", 7) << pad("ext.force", 10) << pad("limits", 7) << pad("gradient", 14)
      << "linearisations (exact, log-barrier)\n";
  for (const FormulationPlugin* p : plugins) {
    const FormulationCapabilities& can = p->info.capabilities;
    out << pad(p->info.name, width + 2)
        << pad(can.state == StateKind::kConfiguration ? "q" : "q, v", 8)
        << pad(CommandKindName(can.command), 26) << pad(Dimensions(can), 8)
        << pad(YesNo(can.robots), 7) << pad(YesNo(can.external_forces), 10)
        << pad(YesNo(can.joint_limits), 7) << pad(Gradient(p->info), 14)
        << (can.exact_linearization.empty() ? "-" : can.exact_linearization) << ", "
        << (can.smoothed_linearization.empty() ? "-" : can.smoothed_linearization) << "\n";
  }
  for (const FormulationPlugin* p : plugins) {
    out << "\n" << p->info.name << ": " << p->info.title << " (" << p->info.docs << ")\n";
    if (!p->info.capabilities.no_gradient.empty())
      out << "  no gradient: " << p->info.capabilities.no_gradient << "\n";
    if (p->parameters.empty()) out << "  parameters: none\n";
    for (const ParameterSpec& s : p->parameters)
      out << "  " << s.key << " [" << s.unit << "], " << s.range << ", default " << s.default_text
          << ": " << s.description << "\n";
    for (const SceneKeySpec& k : p->scene_keys)
      out << "  " << k.container << "[]." << k.key << ": " << k.description << "\n";
  }
  return out.str();
}

}  // namespace quasidyn
