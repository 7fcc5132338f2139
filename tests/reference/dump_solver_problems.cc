// Writes seeded random convex QPs and SOCPs, with quasidyn's solutions, to a JSON file for
// the independent cross-check tests/reference/cvxopt_reference.py (python3-cvxopt).
// Usage: dump_solver_problems <output.json>
//
// Every problem has a positive definite Q (so x* is unique and comparable) and is strictly
// feasible by construction (a random interior point is shifted inside every constraint).
#include <CLI/CLI.hpp>
#include <Eigen/Core>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/socp.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using nlohmann::json;

class Random {
 public:
  explicit Random(unsigned seed) : engine_(seed) {}
  MatrixXd Gaussian(Eigen::Index rows, Eigen::Index cols) {
    std::normal_distribution<double> normal(0.0, 1.0);
    MatrixXd a(rows, cols);
    for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(engine_);
    return a;
  }
  VectorXd Uniform(Eigen::Index size, double low, double high) {
    std::uniform_real_distribution<double> uniform(low, high);
    VectorXd v(size);
    for (Eigen::Index i = 0; i < size; ++i) v[i] = uniform(engine_);
    return v;
  }
  // B Bᵀ/n + floor·I: positive definite with smallest eigenvalue >= floor.
  MatrixXd PositiveDefinite(Eigen::Index n, double floor) {
    const MatrixXd b = Gaussian(n, n);
    MatrixXd q = b * b.transpose() / static_cast<double>(n);
    q.diagonal().array() += floor;
    return q;
  }

 private:
  std::mt19937 engine_;
};

json ToJson(const MatrixXd& a) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < a.cols(); ++j) row.push_back(a(i, j));
    rows.push_back(row);
  }
  return rows;
}
json ToJson(const VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

template <typename Info>
json InfoJson(const Info& info, SolverStatus status) {
  return {{"status", std::string(ToString(status))},
          {"iterations", info.iterations},
          {"primal_residual", info.primal_residual},
          {"dual_residual", info.dual_residual},
          {"gap", info.complementarity_gap}};
}

// QP: n variables, m rows; x_inside satisfies every row with margin in [0.05, 1].
json RandomQp(Random& random, int n, int m, double eigenvalue_floor) {
  testing::DenseQp p;
  p.Q = random.PositiveDefinite(n, eigenvalue_floor);
  p.c = random.Gaussian(n, 1) * 3.0;
  p.G = random.Gaussian(m, n);
  const VectorXd x_inside = random.Uniform(n, -1, 1);
  p.h = p.G * x_inside - random.Uniform(m, 0.05, 1.0);
  const QpSettings settings;
  const QpResult r = Solve(p.ToSparse(), settings);
  return {{"type", "qp"},
          {"Q", ToJson(p.Q)},
          {"c", ToJson(p.c)},
          {"G", ToJson(p.G)},
          {"h", ToJson(p.h)},
          {"eigenvalue_floor", eigenvalue_floor},
          {"x", ToJson(r.x)},
          {"z", ToJson(r.z)},
          {"objective", r.objective},
          {"absolute_tolerance", settings.absolute_tolerance},
          {"relative_tolerance", settings.relative_tolerance},
          {"info", InfoJson(r.info, r.status)}};
}

// SOCP: friction-cone-like 3-dimensional cones A_k x + b_k ∈ K plus linear rows G x >= h.
json RandomSocp(Random& random, int n, int cones, int linear_rows, double eigenvalue_floor) {
  testing::DenseConeProgram p;
  p.Q = random.PositiveDefinite(n, eigenvalue_floor);
  p.c = random.Gaussian(n, 1) * 3.0;
  const VectorXd x_inside = random.Uniform(n, -1, 1);
  json cone_list = json::array();
  for (int k = 0; k < cones; ++k) {
    testing::DenseCone cone{random.Gaussian(3, n), VectorXd(3)};
    // b puts A x_inside + b strictly inside K: tail random, head = ‖tail‖ + margin.
    const VectorXd tail = random.Uniform(2, -1, 1);
    const double margin = random.Uniform(1, 0.05, 1.0)[0];
    const Eigen::Vector3d target(tail.norm() + margin, tail[0], tail[1]);
    cone.b = target - cone.A * x_inside;
    cone_list.push_back({{"A", ToJson(cone.A)}, {"b", ToJson(cone.b)}});
    p.cones.push_back(cone);
  }
  p.G = random.Gaussian(linear_rows, n);
  p.h = p.G * x_inside - random.Uniform(linear_rows, 0.05, 1.0);
  const SocpSettings settings;
  const SocpResult r = Solve(p.ToSocp(), settings);
  json duals = json::array();
  for (int k = 0; k < cones; ++k) duals.push_back(ToJson(VectorXd(r.ConeDual(k))));
  return {{"type", "socp"},
          {"Q", ToJson(p.Q)},
          {"c", ToJson(p.c)},
          {"cones", cone_list},
          {"G", ToJson(p.G)},
          {"h", ToJson(p.h)},
          {"eigenvalue_floor", eigenvalue_floor},
          {"x", ToJson(r.x)},
          {"cone_duals", duals},
          {"linear_duals", ToJson(r.linear_duals)},
          {"objective", r.objective},
          {"absolute_tolerance", settings.absolute_tolerance},
          {"relative_tolerance", settings.relative_tolerance},
          {"info", InfoJson(r.info, r.status)}};
}

}  // namespace
}  // namespace quasidyn

int main(int argc, char** argv) {
  CLI::App app{
      "dump_solver_problems: seeded random QPs and SOCPs with our solvers' answers, as JSON, for "
      "the cvxopt and Siconos reference checks (tests/reference)"};
  std::string output;
  app.add_option("OUTPUT", output, "The JSON file to write")->required();
  CLI11_PARSE(app, argc, argv);
  quasidyn::Random random(20240601);
  nlohmann::json problems = nlohmann::json::array();
  // Sizes like one contact step: (n, m) from a few to ~70 velocities and ~200 rows.
  for (const auto& [n, m] :
       std::vector<std::pair<int, int>>{{2, 3}, {5, 8}, {10, 25}, {20, 60}, {40, 120}, {69, 208}}) {
    problems.push_back(quasidyn::RandomQp(random, n, m, 0.1));
  }
  problems.push_back(quasidyn::RandomQp(random, 30, 90, 1e-3));  // ill-conditioned Q
  for (const auto& [n, cones, rows] : std::vector<std::tuple<int, int, int>>{
           {3, 1, 0}, {6, 4, 2}, {12, 10, 4}, {30, 25, 10}, {69, 52, 0}}) {
    problems.push_back(quasidyn::RandomSocp(random, n, cones, rows, 0.1));
  }
  std::ofstream out(output);
  if (!out) {
    std::cerr << "dump_solver_problems: cannot write " << output << "\n";
    return 2;
  }
  out << problems.dump() << "\n";
  std::cout << "wrote " << problems.size() << " problems to " << output << "\n";
  return 0;
}
