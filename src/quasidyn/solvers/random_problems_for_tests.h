#pragma once
// Seeded random problem generators shared by the solver tests (header-only, tests only).

#include <Eigen/Core>
#include <random>

namespace quasidyn::testing {

class RandomProblems {
 public:
  explicit RandomProblems(unsigned seed) : engine_(seed) {}

  double Uniform(double low, double high) {
    return std::uniform_real_distribution<double>(low, high)(engine_);
  }
  Eigen::MatrixXd Gaussian(Eigen::Index rows, Eigen::Index cols) {
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::MatrixXd a(rows, cols);
    for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(engine_);
    return a;
  }
  Eigen::VectorXd GaussianVector(Eigen::Index size) { return Gaussian(size, 1); }
  Eigen::VectorXd UniformVector(Eigen::Index size, double low, double high) {
    Eigen::VectorXd v(size);
    for (Eigen::Index i = 0; i < size; ++i) v[i] = Uniform(low, high);
    return v;
  }
  // B Bᵀ with B (n × rank): PSD, singular when rank < n.
  Eigen::MatrixXd PsdMatrix(Eigen::Index n, Eigen::Index rank) {
    const Eigen::MatrixXd b = Gaussian(n, rank);
    return b * b.transpose();
  }
  std::mt19937& engine() { return engine_; }

 private:
  std::mt19937 engine_;
};

}  // namespace quasidyn::testing
