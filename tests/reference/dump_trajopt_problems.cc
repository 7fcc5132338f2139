// Writes the iterative MPC's QP subproblems (control/trajopt_qp.h) of the planar-hand and
// planar-pushing tasks, with our solution, for trajopt_cvxopt_reference.py.
// Usage: dump_trajopt_problems <source_dir> <output.json>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/testing/control_tasks.h"

using nlohmann::json;
using namespace quasidyn;

namespace {

json ToJson(const Eigen::MatrixXd& a) {
  json rows = json::array();
  for (int i = 0; i < a.rows(); ++i) {
    json row = json::array();
    for (int j = 0; j < a.cols(); ++j) row.push_back(a(i, j));
    rows.push_back(row);
  }
  return rows;
}
json ToJson(const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

// The subproblem of each of the first `iterations` iterations of a task.
void Dump(testing::ControlTask task, const std::string& name, int iterations, json* out) {
  for (int i = 1; i <= iterations; ++i) {
    task.settings.iterations = i;
    TrajectoryOptimizer optimizer(task.model, task.settings);
    optimizer.Optimize(task.q0, task.u0);
    const TrajoptQpData& d = optimizer.last_subproblem();
    const QpResult& r = optimizer.last_qp_result();
    json A = json::array(), B = json::array(), q = json::array(), u = json::array();
    for (size_t k = 0; k < d.A.size(); ++k) {
      A.push_back(ToJson(d.A[k]));
      B.push_back(ToJson(d.B[k]));
      q.push_back(ToJson(d.q_nominal[k]));
      u.push_back(ToJson(d.u_nominal[k]));
    }
    out->push_back({{"name", name + " iteration " + std::to_string(i - 1)},
                    {"object_size", d.object_size},
                    {"A", A},
                    {"B", B},
                    {"q_nominal", q},
                    {"u_nominal", u},
                    {"u_before", ToJson(d.u_before)},
                    {"dq0", ToJson(d.dq0)},
                    {"goal", ToJson(d.goal)},
                    {"object_weight", ToJson(d.object_weight)},
                    {"terminal_weight", ToJson(d.terminal_weight)},
                    {"rate_weight", d.rate_weight},
                    {"trust_region", d.trust_region},
                    {"status", std::string(ToString(r.status))},
                    {"du", ToJson(r.x)}});
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "dump_trajopt_problems: the iterative MPC's QP subproblems of the planar hand and planar "
      "pushing tasks with our answers, as JSON, for the cvxopt reference check"};
  std::string source_dir;
  std::string output;
  app.add_option("SOURCE_DIR", source_dir, "The checkout's root (for the example scenes)")
      ->required();
  app.add_option("OUTPUT", output, "The JSON file to write")->required();
  CLI11_PARSE(app, argc, argv);
  json problems = json::array();
  Dump(testing::PlanarHandTurn(source_dir), "planar_hand", 4, &problems);
  Dump(testing::PlanarPushingGoal(source_dir), "planar_pushing", 4, &problems);
  std::ofstream out(output);
  if (!out) {
    std::cerr << "dump_trajopt_problems: cannot write " << output << "\n";
    return 2;
  }
  out << problems.dump() << "\n";
  return 0;
}
