// Writes the iterative MPC's QP subproblems (control/trajopt_qp.h) of the planar-hand and
// planar-pushing tasks, and of the planar hand with a regrasp step, with our solution (δu of
// every step, 0 at a regrasp), for trajopt_cvxopt_reference.py.
// Usage: dump_trajopt_problems SOURCE_DIR OUTPUT.json

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "quasidyn/control/trajectory_optimizer.h"
#include "quasidyn/control/trajopt_qp.h"
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
    int variables = 0;
    const std::vector<int> column = TrajoptColumns(d, &variables);
    const int nu = static_cast<int>(d.B[0].cols());
    Eigen::VectorXd du = Eigen::VectorXd::Zero(nu * static_cast<int>(d.A.size()));
    json regrasp = json::array();
    for (size_t k = 0; k < d.A.size(); ++k) {
      regrasp.push_back(IsRegraspStep(d, static_cast<int>(k)));
      if (column[k] >= 0) du.segment(k * nu, nu) = r.x.segment(column[k], nu);
    }
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
                    {"regrasp", regrasp},
                    {"du", ToJson(du)}});
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
  // Step 5 of 10 a regrasp back to the start configuration.
  testing::ControlTask regrasp = testing::PlanarHandTurn(source_dir);
  regrasp.settings.regrasp_steps.assign(regrasp.settings.horizon, false);
  regrasp.settings.regrasp_steps[5] = true;
  regrasp.u0[5] = regrasp.q0.tail(4);
  Dump(regrasp, "planar_hand_regrasp", 4, &problems);
  std::ofstream out(output);
  if (!out) {
    std::cerr << "dump_trajopt_problems: cannot write " << output << "\n";
    return 2;
  }
  out << problems.dump() << "\n";
  return 0;
}
