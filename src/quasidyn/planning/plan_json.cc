#include "quasidyn/planning/plan_json.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "quasidyn/common/atomic_file_writer.h"
#include "quasidyn/io/planning_reader.h"
#include "quasidyn/io/settings_json.h"
#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/simulation/trajectory_json.h"

namespace quasidyn {
namespace {

using nlohmann::json;

constexpr const char* kFormatName = "quasidyn-plan";

json Number(double x) {  // JSON has no infinity (a time limit may be one): as trajectory files
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

json Vector(const Eigen::VectorXd& x) { return std::vector<double>(x.data(), x.data() + x.size()); }

// The planning settings (their schema's JSON, model/planning_settings.h) with the time step the
// planner stepped with.
json SettingsToJson(const PlanResult& plan) {
  json out = SettingsBlockToJson(PlanningSettingsSchema(), plan.settings);
  out["time_step"] = plan.stepping.time_step.value_or(0.0);
  return out;
}

json StatisticsToJson(const PlanStatistics& s) {
  return {{"iterations", s.iterations},
          {"extensions", s.extensions},
          {"regrasps", s.regrasps},
          {"failed_steps", s.failed_steps},
          {"idle_extensions", s.idle_extensions},
          {"failed_grasps", s.failed_grasps},
          {"dropped_grasps", s.dropped_grasps},
          {"failed_linearizations", s.failed_linearizations},
          {"penetrating_extensions", s.penetrating_extensions},
          {"outside_region", s.outside_region},
          {"substepped_extensions", s.substepped_extensions},
          {"large_motion_steps", s.large_motion_steps},
          {"descent_extensions", s.descent_extensions},
          {"wall_time", s.wall_seconds},
          {"linearize_time", s.linearize_seconds},
          {"grasp_time", s.grasp_seconds},
          {"stepping_time", s.stepping_seconds},
          {"nearest_time", s.nearest_seconds},
          {"linearizations", s.linearizations},
          {"nearest_distances", s.nearest_distances},
          {"connection_attempts", s.connection_attempts},
          {"connections", s.connections},
          {"connection_extensions", s.connection_extensions},
          {"connection_regrasps", s.connection_regrasps},
          {"connection_time", s.connection_seconds},
          {"plant_check_rejections", s.plant_check_rejections},
          {"plant_check_time", s.plant_check_seconds}};
}

json TreeToJson(const std::vector<PlanNode>& nodes) {
  json q = json::array(), parent = json::array(), edge = json::array(), u = json::array(),
       steps = json::array(), substeps = json::array(), distance = json::array(),
       commands = json::array();
  for (const PlanNode& node : nodes) {
    json motion = json::array();  // a physical regrasp's commands, else empty
    for (const Eigen::VectorXd& command : node.commands) motion.push_back(Vector(command));
    commands.push_back(std::move(motion));
    q.push_back(Vector(node.q));
    parent.push_back(node.parent);
    edge.push_back(EdgeKindName(node.edge));
    u.push_back(Vector(node.u));
    steps.push_back(node.steps);
    substeps.push_back(node.substeps);
    distance.push_back(node.goal_distance);
  }
  return {{"q", q},
          {"parent", parent},
          {"edge", edge},
          {"u", u},
          {"steps", steps},
          {"substeps", substeps},
          {"commands", commands},
          {"goal_distance", distance}};
}

// ---- reading ----

// "[i]" (built without operator+ on a literal, which GCC 12 misreads under -Wrestrict).
std::string Index(size_t i) {
  std::string out = "[";
  out += std::to_string(i);
  out += "]";
  return out;
}

[[noreturn]] void Fail(const std::string& where, const std::string& problem) {
  throw std::invalid_argument(where + ": " + problem);
}

const json& Member(const json& object, const char* key, const std::string& where) {
  if (!object.is_object()) Fail(where, "expected an object");
  const auto it = object.find(key);
  if (it == object.end()) Fail(where + "." + key, "missing");
  return *it;
}

// A finite number: a literal beyond the doubles (1e400) reads as ±∞ and is refused like the
// trajectory's non-finite values (simulation/trajectory_values.h).
double ReadDouble(const json& j, const std::string& where) {
  if (!j.is_number()) Fail(where, "expected a number, got " + j.dump());
  const double value = j.get<double>();
  if (!std::isfinite(value)) Fail(where, "must be a finite number, got " + j.dump());
  return value;
}

int ReadInteger(const json& j, const std::string& where) {
  if (!j.is_number_integer()) Fail(where, "expected an integer, got " + j.dump());
  return j.get<int>();
}

std::string ReadString(const json& j, const std::string& where) {
  if (!j.is_string()) Fail(where, "expected a string, got " + j.dump());
  return j.get<std::string>();
}

Eigen::VectorXd ReadVector(const json& j, const std::string& where, int size) {
  if (!j.is_array()) Fail(where, "expected an array of numbers");
  if (size >= 0 && static_cast<int>(j.size()) != size)
    Fail(where, "expected " + std::to_string(size) + " numbers, got " + std::to_string(j.size()));
  Eigen::VectorXd x(j.size());
  for (size_t i = 0; i < j.size(); ++i) x[i] = ReadDouble(j[i], where + Index(i));
  return x;
}

const json& ReadArray(const json& object, const char* key, const std::string& where, size_t size) {
  const json& j = Member(object, key, where);
  if (!j.is_array()) Fail(where + "." + key, "expected an array");
  if (size != static_cast<size_t>(-1) && j.size() != size)
    Fail(where + "." + key,
         "expected " + std::to_string(size) + " entries, got " + std::to_string(j.size()));
  return j;
}

EdgeKind ReadEdge(const json& j, const std::string& where) {
  try {
    return ParseEdgeKind(ReadString(j, where));
  } catch (const std::invalid_argument& e) {
    Fail(where, e.what());
  }
}

std::vector<PlanNode> TreeFromJson(const json& tree, int nq, int nq_a) {
  const std::string where = "plan.tree";
  const size_t n = ReadArray(tree, "q", where, static_cast<size_t>(-1)).size();
  const json& q = tree["q"];
  const json& parent = ReadArray(tree, "parent", where, n);
  const json& edge = ReadArray(tree, "edge", where, n);
  const json& u = ReadArray(tree, "u", where, n);
  const json& steps = ReadArray(tree, "steps", where, n);
  const json& distance = ReadArray(tree, "goal_distance", where, n);
  // Files before substeps: plain steps.
  const json* substeps =
      tree.contains("substeps") ? &ReadArray(tree, "substeps", where, n) : nullptr;
  // Files before physical regrasps: no commands.
  const json* commands =
      tree.contains("commands") ? &ReadArray(tree, "commands", where, n) : nullptr;
  std::vector<PlanNode> nodes(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string at = Index(i);
    nodes[i].q = ReadVector(q[i], where + ".q" + at, nq);
    nodes[i].parent = ReadInteger(parent[i], where + ".parent" + at);
    if (nodes[i].parent < -1 || nodes[i].parent >= static_cast<int>(i))
      Fail(where + ".parent" + at, "must be -1 or the index of an earlier node");
    nodes[i].edge = ReadEdge(edge[i], where + ".edge" + at);
    nodes[i].u = ReadVector(u[i], where + ".u" + at, nq_a);
    nodes[i].steps = ReadInteger(steps[i], where + ".steps" + at);
    if (substeps != nullptr) {
      nodes[i].substeps = ReadInteger((*substeps)[i], where + ".substeps" + at);
      if (nodes[i].substeps < 1 || nodes[i].substeps > kMaxPlanningSubsteps) {
        std::string range = "must be in [1, ";
        range.append(std::to_string(kMaxPlanningSubsteps)).append("]");
        Fail(where + ".substeps" + at, range);
      }
    }
    if (commands != nullptr) {
      const json& motion = (*commands)[i];
      const std::string field = where + ".commands" + at;
      if (!motion.is_array()) Fail(field, "expected an array of commands");
      for (size_t k = 0; k < motion.size(); ++k)
        nodes[i].commands.push_back(ReadVector(motion[k], field + Index(k), nq_a));
      if (!motion.empty() && (nodes[i].edge != EdgeKind::kRegrasp ||
                              nodes[i].steps != static_cast<int>(motion.size())))
        Fail(field, "commands belong to a regrasp edge whose steps count them");
    }
    nodes[i].goal_distance = ReadDouble(distance[i], where + ".goal_distance" + at);
  }
  return nodes;
}

}  // namespace

json PlanToJson(const PlanResult& plan, const ReplayedPath& path) {
  json out = TrajectoryToJson(path.trajectory);
  json edges = json::array();
  for (EdgeKind kind : path.step_edges) edges.push_back(EdgeKindName(kind));
  out["plan"] = {{"format", kFormatName},
                 {"format_version", kPlanFormatVersion},
                 {"status", PlanStatusName(plan.status)},
                 {"message", plan.message},
                 {"goal", Vector(plan.settings.goal)},
                 {"best_node", plan.best_node},
                 {"best_distance", plan.best_distance},
                 {"settings", SettingsToJson(plan)},
                 {"statistics", StatisticsToJson(plan.statistics)},
                 {"path",
                  {{"nodes", plan.path},
                   {"step_edges", edges},
                   {"step_nodes", path.step_nodes},
                   {"max_node_deviation", path.max_node_deviation},
                   {"max_penetration", Number(path.max_penetration)}}},
                 {"tree", TreeToJson(plan.nodes)}};
  return out;
}

PlanFile PlanFromJson(const json& j) {
  PlanFile out;
  out.trajectory = TrajectoryFromJson(j);
  const json& plan = Member(j, "plan", "");
  if (ReadString(Member(plan, "format", "plan"), "plan.format") != kFormatName)
    Fail("plan.format", std::string("expected \"") + kFormatName + "\"");
  const int version = ReadInteger(Member(plan, "format_version", "plan"), "plan.format_version");
  if (version != kPlanFormatVersion)
    Fail("plan.format_version", "version " + std::to_string(version) +
                                    " is not supported (this reader knows version " +
                                    std::to_string(kPlanFormatVersion) + ")");
  const std::string status = ReadString(Member(plan, "status", "plan"), "plan.status");
  try {
    out.status = ParsePlanStatus(status);
  } catch (const std::invalid_argument&) {
    Fail("plan.status",
         "expected \"found\", \"not_found\" or \"interrupted\", got \"" + status + "\"");
  }
  out.message = ReadString(Member(plan, "message", "plan"), "plan.message");
  out.goal = ReadVector(Member(plan, "goal", "plan"), "plan.goal", out.trajectory.nq_u);
  out.best_node = ReadInteger(Member(plan, "best_node", "plan"), "plan.best_node");
  out.best_distance = ReadDouble(Member(plan, "best_distance", "plan"), "plan.best_distance");
  const int nq_a = out.trajectory.nq - out.trajectory.nq_u;
  out.nodes = TreeFromJson(Member(plan, "tree", "plan"), out.trajectory.nq, nq_a);
  const json& path = Member(plan, "path", "plan");
  const json& nodes = ReadArray(path, "nodes", "plan.path", static_cast<size_t>(-1));
  for (size_t k = 0; k < nodes.size(); ++k) {
    const int i = ReadInteger(nodes[k], "plan.path.nodes" + Index(k));
    if (i < 0 || i >= static_cast<int>(out.nodes.size()))
      Fail("plan.path.nodes" + Index(k), "not a node of plan.tree");
    out.path.push_back(i);
  }
  const json& edges = ReadArray(path, "step_edges", "plan.path", out.trajectory.steps.size());
  for (size_t k = 0; k < edges.size(); ++k)
    out.step_edges.push_back(ReadEdge(edges[k], "plan.path.step_edges" + Index(k)));
  return out;
}

void WritePlanFile(const PlanResult& plan, const ReplayedPath& path, const std::string& file,
                   int indent) {
  if (file.empty()) throw std::invalid_argument("WritePlanFile: the output path is empty");
  WriteFileAtomically(file, PlanToJson(plan, path).dump(indent) + "\n");
}

namespace {

json ReadPlanJson(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot open plan file '" + file + "'");
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    throw std::runtime_error("'" + file + "' is not valid JSON: " + e.what());
  }
}

}  // namespace

PlanFile ReadPlanFile(const std::string& file) {
  const json j = ReadPlanJson(file);
  try {
    return PlanFromJson(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(file + ": " + e.what());
  }
}

PlanningSettings PlanningSettingsOfPlanFile(const std::string& file, const Scene& scene) {
  const json j = ReadPlanJson(file);
  const std::string where = file + " (plan.settings)";
  if (!j.contains("plan") || !j["plan"].is_object() || !j["plan"].contains("settings") ||
      !j["plan"]["settings"].is_object() || !j["plan"].contains("goal"))
    throw std::invalid_argument(file + ": not a plan file with plan.settings and plan.goal");
  json block = j["plan"]["settings"];
  block["goal"] = j["plan"]["goal"];  // (files before the settings held the goal)
  try {
    return ReadPlanningSettings(YamlValue::Parse(block.dump(), where), scene);
  } catch (const std::exception& e) {
    throw std::invalid_argument(file + ": plan.settings: " + e.what());
  }
}

}  // namespace quasidyn
