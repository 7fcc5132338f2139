#pragma once
// Plan files (docs/plan-format.md): one JSON object that is a trajectory file of the path
// (simulation/trajectory_json.h, docs/trajectory-format.md: `quasidyn view plan.json` plays it
// and every trajectory reader reads it) with one more member, "plan", holding the search: its
// status, the goal and settings, statistics, the path's nodes and edge kinds, and the whole
// tree (every node's q, parent, edge kind, command and goal distance). Numbers round-trip bit
// for bit, as in trajectory files.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"

namespace quasidyn {

inline constexpr int kPlanFormatVersion = 1;

// The file's content: TrajectoryToJson(path.trajectory) plus "plan".
nlohmann::json PlanToJson(const PlanResult& plan, const ReplayedPath& path);

// What a plan file holds (the trajectory is read by TrajectoryFromJson).
struct PlanFile {
  Trajectory trajectory;
  PlanStatus status = PlanStatus::kNotFound;
  std::string message;
  Eigen::VectorXd goal;
  double best_distance = 0.0;
  int best_node = 0;
  std::vector<PlanNode> nodes;
  std::vector<int> path;
  std::vector<EdgeKind> step_edges;
};

// Throws std::invalid_argument naming the field on a missing or malformed member.
PlanFile PlanFromJson(const nlohmann::json& json);

// Writes atomically (common/atomic_file_writer.h); throws std::invalid_argument for an empty
// path, std::runtime_error naming the path when it cannot be written.
void WritePlanFile(const PlanResult& plan, const ReplayedPath& path, const std::string& file,
                   int indent = -1);
// Throws std::runtime_error naming the file when it is missing or not JSON,
// std::invalid_argument (prefixed with the file) on bad content.
PlanFile ReadPlanFile(const std::string& file);

// The settings a plan file was planned with (its plan.settings and plan.goal), read as a scene
// file's planning block is (io/planning_reader.h: the keys are the same) and checked against
// `scene`, so that a new plan of the same query can be made (control/replanning.h). A time
// limit or penetration tolerance written as "Infinity" is infinite again. Throws like
// ReadPlanFile, and std::invalid_argument (prefixed with the file) when the settings do not
// read or do not fit the scene.
PlanningSettings PlanningSettingsOfPlanFile(const std::string& file, const Scene& scene);

}  // namespace quasidyn
