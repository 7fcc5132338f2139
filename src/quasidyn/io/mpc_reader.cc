#include "quasidyn/io/mpc_reader.h"

#include <string>

#include "quasidyn/io/field_lines.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

void ReadNumber(const YamlValue& map, const char* key, const std::string& field, double* value,
                FieldLines* lines) {
  if (const auto found = map.Find(key)) {
    lines->Add(field, *found);
    *value = found->AsDouble();
  }
}

void ReadInteger(const YamlValue& map, const char* key, const std::string& field, int* value,
                 FieldLines* lines) {
  if (const auto found = map.Find(key)) {
    lines->Add(field, *found);
    *value = found->AsInt();
  }
}

void ReadVector(const YamlValue& map, const char* key, const std::string& field,
                Eigen::VectorXd* value, FieldLines* lines) {
  if (const auto found = map.Find(key)) {
    lines->Add(field, *found);
    *value = found->AsVector();
  }
}

}  // namespace

MpcSettings ReadMpcSettings(const YamlValue& block, const Scene& scene) {
  block.CheckKeys({"horizon", "time_step", "target", "weights", "bounds", "contact_distance",
                   "big_m", "solver"});
  MpcSettings s;
  FieldLines lines(block);
  ReadInteger(block, "horizon", "horizon", &s.horizon, &lines);
  ReadNumber(block, "time_step", "time_step", &s.time_step, &lines);
  ReadVector(block, "target", "target", &s.target, &lines);
  if (const auto weights = block.Find("weights")) {
    weights->CheckKeys({"state", "terminal", "force"});
    lines.Add("weights", *weights);
    ReadVector(*weights, "state", "weights.state", &s.state_weight, &lines);
    ReadVector(*weights, "terminal", "weights.terminal", &s.terminal_weight, &lines);
    ReadVector(*weights, "force", "weights.force", &s.force_weight, &lines);
  }
  if (const auto bounds = block.Find("bounds")) {
    bounds->CheckKeys({"state_lower", "state_upper", "force_lower", "force_upper"});
    lines.Add("bounds", *bounds);
    ReadVector(*bounds, "state_lower", "bounds.state_lower", &s.state_lower, &lines);
    ReadVector(*bounds, "state_upper", "bounds.state_upper", &s.state_upper, &lines);
    ReadVector(*bounds, "force_lower", "bounds.force_lower", &s.force_lower, &lines);
    ReadVector(*bounds, "force_upper", "bounds.force_upper", &s.force_upper, &lines);
  }
  ReadNumber(block, "contact_distance", "contact_distance", &s.contact_distance, &lines);
  if (const auto big_m = block.Find("big_m")) {
    big_m->CheckKeys({"impulse_margin", "value"});
    lines.Add("big_m", *big_m);
    ReadNumber(*big_m, "impulse_margin", "big_m.impulse_margin", &s.impulse_margin, &lines);
    ReadNumber(*big_m, "value", "big_m.value", &s.big_m, &lines);
  }
  if (const auto solver = block.Find("solver")) {
    solver->CheckKeys({"node_limit", "time_limit", "absolute_gap", "relative_gap", "branching"});
    lines.Add("solver", *solver);
    ReadInteger(*solver, "node_limit", "solver.node_limit", &s.node_limit, &lines);
    ReadNumber(*solver, "time_limit", "solver.time_limit", &s.time_limit, &lines);
    ReadNumber(*solver, "absolute_gap", "solver.absolute_gap", &s.absolute_gap, &lines);
    ReadNumber(*solver, "relative_gap", "solver.relative_gap", &s.relative_gap, &lines);
    if (const auto branching = solver->Find("branching")) {
      const std::string name = branching->AsString();
      if (name != "pseudo-cost" && name != "most-fractional")
        branching->Fail("unknown branching rule \"" + name +
                        "\" (expected pseudo-cost or most-fractional)");
      s.pseudo_cost_branching = name == "pseudo-cost";
    }
  }
  if (const auto problem = CheckMpcSettings(s, scene, /*complete=*/false)) {
    const YamlValue& where = lines.At(problem->field);
    if (where.path() == block.path())
      throw SceneError(where.file(), where.line(), block.path() + "." + problem->field,
                       problem->problem);
    where.Fail(problem->problem);
  }
  return s;
}

}  // namespace quasidyn
