#include "quasidyn/io/planning_reader.h"

#include <stdexcept>
#include <string>

#include "quasidyn/io/field_lines.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

double ReadNumber(const YamlValue& map, const char* key, const std::string& field, double fallback,
                  FieldLines* lines) {
  const std::optional<YamlValue> value = map.Find(key);
  if (!value) return fallback;
  lines->Add(field, *value);
  return value->AsDouble();
}

int ReadInteger(const YamlValue& map, const char* key, const std::string& field, int fallback,
                FieldLines* lines) {
  const std::optional<YamlValue> value = map.Find(key);
  if (!value) return fallback;
  lines->Add(field, *value);
  return value->AsInt();
}

void ReadGoalAndBounds(const YamlValue& block, PlanningSettings* s, FieldLines* lines) {
  if (const auto goal = block.Find("goal")) {
    lines->Add("goal", *goal);
    s->goal = goal->AsVector();
  }
  if (const auto weights = block.Find("goal_weights")) {
    weights->CheckKeys({"position", "rotation"});
    lines->Add("goal_weights", *weights);
    s->position_weight =
        ReadNumber(*weights, "position", "goal_weights.position", s->position_weight, lines);
    s->rotation_weight =
        ReadNumber(*weights, "rotation", "goal_weights.rotation", s->rotation_weight, lines);
  }
  s->goal_tolerance =
      ReadNumber(block, "goal_tolerance", "goal_tolerance", s->goal_tolerance, lines);
  s->goal_bias = ReadNumber(block, "goal_bias", "goal_bias", s->goal_bias, lines);
  if (const auto bounds = block.Find("bounds")) {
    bounds->CheckKeys({"lower", "upper", "rotation_axis"});
    lines->Add("bounds", *bounds);
    const YamlValue lower = bounds->Get("lower");
    const YamlValue upper = bounds->Get("upper");
    lines->Add("bounds.lower", lower);
    lines->Add("bounds.upper", upper);
    s->lower = lower.AsVector();
    s->upper = upper.AsVector();
    if (const auto axis = bounds->Find("rotation_axis")) {
      lines->Add("bounds.rotation_axis", *axis);
      s->rotation_axis = axis->AsVector3();
    }
  }
  if (const auto region = block.Find("object_region")) {
    region->CheckKeys({"lower", "upper"});
    lines->Add("object_region", *region);
    const YamlValue lower = region->Get("lower");
    const YamlValue upper = region->Get("upper");
    lines->Add("object_region.lower", lower);
    lines->Add("object_region.upper", upper);
    s->region_lower = lower.AsVector();
    s->region_upper = upper.AsVector();
  }
}

void ReadMetric(const YamlValue& block, PlanningSettings* s, FieldLines* lines) {
  if (const auto metric = block.Find("metric")) {
    metric->CheckKeys({"type", "kappa", "samples", "std", "regularization"});
    lines->Add("metric", *metric);
    if (const auto type = metric->Find("type")) {
      try {
        s->method = ParseReachabilityMethod(type->AsString());
      } catch (const std::invalid_argument& e) {
        type->Fail(e.what());
      }
    }
    s->kappa = ReadNumber(*metric, "kappa", "metric.kappa", s->kappa, lines);
    s->samples = ReadInteger(*metric, "samples", "metric.samples", s->samples, lines);
    s->sample_std = ReadNumber(*metric, "std", "metric.std", s->sample_std, lines);
    s->regularization =
        ReadNumber(*metric, "regularization", "metric.regularization", s->regularization, lines);
  }
  if (const auto nearest = block.Find("nearest")) {
    try {
      s->nearest = ParseNearestRule(nearest->AsString());
    } catch (const std::invalid_argument& e) {
      nearest->Fail(e.what());
    }
  }
}

// grasp_anchors: fingers | all_links | [robot/link, ...] (the names are checked against the
// scene by CheckPlanningSettings).
void ReadGraspAnchors(const YamlValue& block, PlanningSettings* s, FieldLines* lines) {
  const std::optional<YamlValue> anchors = block.Find("grasp_anchors");
  if (!anchors) return;
  lines->Add("grasp_anchors", *anchors);
  if (anchors->IsSequence()) {
    s->grasp_anchors = GraspAnchors::kListed;
    for (const YamlValue& item : anchors->Items()) s->grasp_anchor_links.push_back(item.AsString());
    return;
  }
  const std::string name = anchors->IsScalar() ? anchors->AsString() : "";
  if (name == GraspAnchorsName(GraspAnchors::kFingers)) {
    s->grasp_anchors = GraspAnchors::kFingers;
  } else if (name == GraspAnchorsName(GraspAnchors::kAllLinks)) {
    s->grasp_anchors = GraspAnchors::kAllLinks;
  } else {
    anchors->Fail("expected fingers, all_links or a list of robot links [robot/link, ...] (got '" +
                  name + "')");
  }
}

void ReadSearch(const YamlValue& block, PlanningSettings* s, FieldLines* lines) {
  s->step_size = ReadNumber(block, "step_size", "step_size", s->step_size, lines);
  s->extend_steps = ReadInteger(block, "extend_steps", "extend_steps", s->extend_steps, lines);
  s->time_step = ReadNumber(block, "time_step", "time_step", s->time_step, lines);
  s->penetration_tolerance = ReadNumber(block, "penetration_tolerance", "penetration_tolerance",
                                        s->penetration_tolerance, lines);
  s->max_substeps = ReadInteger(block, "max_substeps", "max_substeps", s->max_substeps, lines);
  s->p_grasp = ReadNumber(block, "p_grasp", "p_grasp", s->p_grasp, lines);
  s->grasp_candidates =
      ReadInteger(block, "grasp_candidates", "grasp_candidates", s->grasp_candidates, lines);
  s->settle_steps = ReadInteger(block, "settle_steps", "settle_steps", s->settle_steps, lines);
  if (const auto regrasp = block.Find("regrasp")) {
    try {
      s->regrasp = ParseRegraspExecution(regrasp->AsString());
    } catch (const std::invalid_argument& e) {
      regrasp->Fail(e.what());
    }
  }
  ReadGraspAnchors(block, s, lines);
  s->extension_batch =
      ReadInteger(block, "extension_batch", "extension_batch", s->extension_batch, lines);
  if (const auto selection = block.Find("grasp_selection")) {
    try {
      s->grasp_selection = ParseGraspSelection(selection->AsString());
    } catch (const std::invalid_argument& e) {
      selection->Fail(e.what());
    }
  }
  s->grasp_score_fraction = ReadNumber(block, "grasp_score_fraction", "grasp_score_fraction",
                                       s->grasp_score_fraction, lines);
  if (const auto limits = block.Find("limits")) {
    limits->CheckKeys({"max_nodes", "time_limit"});
    lines->Add("limits", *limits);
    s->max_nodes = ReadInteger(*limits, "max_nodes", "limits.max_nodes", s->max_nodes, lines);
    s->time_limit = ReadNumber(*limits, "time_limit", "limits.time_limit", s->time_limit, lines);
  }
  if (const auto connection = block.Find("goal_connection")) {
    connection->CheckKeys({"radius", "horizon", "iterations", "interval", "regrasp_when_stalled"});
    lines->Add("goal_connection", *connection);
    GoalConnectionSettings c;
    c.radius = ReadNumber(*connection, "radius", "goal_connection.radius", c.radius, lines);
    c.horizon = ReadInteger(*connection, "horizon", "goal_connection.horizon", c.horizon, lines);
    c.iterations =
        ReadInteger(*connection, "iterations", "goal_connection.iterations", c.iterations, lines);
    c.interval =
        ReadInteger(*connection, "interval", "goal_connection.interval", c.interval, lines);
    if (const auto stalled = connection->Find("regrasp_when_stalled")) {
      lines->Add("goal_connection.regrasp_when_stalled", *stalled);
      c.regrasp_when_stalled = stalled->AsBool();
    }
    s->goal_connection = c;
  }
  if (const auto check = block.Find("plant_check")) {
    check->CheckKeys({"substeps", "tolerance"});
    lines->Add("plant_check", *check);
    PlantCheckSettings c;
    c.substeps = ReadInteger(*check, "substeps", "plant_check.substeps", c.substeps, lines);
    c.tolerance = ReadNumber(*check, "tolerance", "plant_check.tolerance", c.tolerance, lines);
    s->plant_check = c;
  }
  if (const auto seed = block.Find("seed")) {
    const int value = seed->AsInt();
    if (value < 0) seed->Fail("must be an integer >= 0 (got " + std::to_string(value) + ")");
    s->seed = static_cast<std::uint64_t>(value);
  }
}

}  // namespace

PlanningSettings ReadPlanningSettings(const YamlValue& block, const Scene& scene) {
  block.CheckKeys({"goal",
                   "goal_tolerance",
                   "goal_weights",
                   "goal_bias",
                   "bounds",
                   "object_region",
                   "metric",
                   "nearest",
                   "step_size",
                   "extend_steps",
                   "time_step",
                   "penetration_tolerance",
                   "max_substeps",
                   "p_grasp",
                   "grasp_candidates",
                   "settle_steps",
                   "regrasp",
                   "grasp_anchors",
                   "limits",
                   "goal_connection",
                   "plant_check",
                   "seed",
                   "extension_batch",
                   "grasp_selection",
                   "grasp_score_fraction"});
  PlanningSettings settings;
  FieldLines lines(block);
  ReadGoalAndBounds(block, &settings, &lines);
  ReadMetric(block, &settings, &lines);
  ReadSearch(block, &settings, &lines);
  if (const auto problem = CheckPlanningSettings(settings, scene, /*complete=*/false)) {
    const YamlValue& where = lines.At(problem->field);
    // Fields without a value of their own (objects, robots) are named inside the block.
    if (where.path() == block.path() && problem->field != "")
      throw SceneError(where.file(), where.line(), block.path() + "." + problem->field,
                       problem->problem);
    where.Fail(problem->problem);
  }
  return settings;
}

}  // namespace quasidyn
