#include "quasidyn/planning/refined_plan_file.h"

#include <cmath>
#include <fstream>
#include <stdexcept>

#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/planning/plan_json.h"
#include "quasidyn/simulation/trajectory_json.h"

namespace quasidyn {
namespace {

using nlohmann::json;

// JSON has no NaN or infinity: written as trajectory files write them (trajectory_json.h).
json RefinementNumber(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

}  // namespace

json RefinedPlanToJson(const json& source, const Trajectory& refined,
                       const std::vector<EdgeKind>& step_edges, const PlanRefinement& refinement) {
  constexpr const char* kWhere = "RefinedPlanToJson: ";
  if (!source.is_object() || !source.contains("plan") || !source["plan"].is_object())
    throw std::invalid_argument(std::string(kWhere) +
                                "the source is not a plan file (no \"plan\")");
  if (step_edges.size() != refined.steps.size())
    throw std::invalid_argument(std::string(kWhere) + std::to_string(step_edges.size()) +
                                " step kinds for " + std::to_string(refined.steps.size()) +
                                " refined steps");
  json edges = json::array();
  for (EdgeKind kind : step_edges) {
    if (kind == EdgeKind::kRoot)
      throw std::invalid_argument(std::string(kWhere) + "a step cannot be of kind root");
    edges.push_back(EdgeKindName(kind));
  }
  json out = TrajectoryToJson(refined);
  json plan = source["plan"];
  json& path = plan["path"];
  if (!path.is_object())
    throw std::invalid_argument(std::string(kWhere) + "plan.path: expected an object");
  path["step_edges"] = edges;
  json nodes = json::array();  // the source's step nodes, −1 beyond them
  const json old_nodes = path.value("step_nodes", json::array());
  for (size_t k = 0; k < step_edges.size(); ++k)
    nodes.push_back(k < old_nodes.size() ? old_nodes[k] : json(-1));
  path["step_nodes"] = nodes;
  plan["refinement"] = {{"initial_guess", refinement.initial_guess},
                        {"initial_cost", RefinementNumber(refinement.initial_cost)},
                        {"cost", RefinementNumber(refinement.cost)},
                        {"iterations", refinement.iterations},
                        {"accepted", refinement.accepted},
                        {"initial_penetration", RefinementNumber(refinement.initial_penetration)},
                        {"max_penetration", RefinementNumber(refinement.max_penetration)},
                        {"wall_time", RefinementNumber(refinement.seconds)}};
  out["plan"] = std::move(plan);
  PlanFromJson(out);  // what is written reads back as a plan file, or the error says why not
  return out;
}

void WriteRefinedPlanFile(const std::string& source_file, const Trajectory& refined,
                          const std::vector<EdgeKind>& step_edges, const PlanRefinement& refinement,
                          const std::string& file) {
  if (file.empty()) throw std::invalid_argument("WriteRefinedPlanFile: the output path is empty");
  std::ifstream in(source_file);
  if (!in) throw std::runtime_error("cannot open plan file '" + source_file + "'");
  json source;
  try {
    source = json::parse(in);
  } catch (const json::parse_error& e) {
    throw std::runtime_error("'" + source_file + "' is not valid JSON: " + e.what());
  }
  json out;
  try {
    out = RefinedPlanToJson(source, refined, step_edges, refinement);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(source_file + ": " + e.what());
  }
  WriteFileAtomically(file, out.dump() + "\n");
}

}  // namespace quasidyn
