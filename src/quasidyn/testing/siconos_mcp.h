#pragma once
// Siconos numerics' MCP solvers (mcp_newton_FB_FBLSA: semismooth Newton on the
// Fischer–Burmeister reformulation with a line search, Facchinei & Pang 2003, p. 834; and
// mcp_newton_min_FBLSA, its min-reformulation variant), the independent reference of the mixed
// NCP tests and benchmarks. Header-only: a test that includes it links Siconos (the
// `siconos_numerics_reference` target of CMakeLists.txt).
//
// Siconos orders the unknowns as (z_e, z_i): every free unknown first, then every
// complementarity one; SiconosMcp permutes a MixedNcpFunction of any order into that one.

#include <Eigen/Core>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "quasidyn/solvers/mixed_ncp_newton.h"

// Siconos numerics.
#include "MCP_Solvers.h"
#include "MCP_cst.h"
#include "MixedComplementarityProblem.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"

namespace quasidyn::testing {

struct SiconosMcpSolution {
  int info = -1;      // 0: solved within the tolerance
  Eigen::VectorXd z;  // in the MixedNcpFunction's order
  int iterations = 0;
  double residual = 0.0;  // Siconos' own error measure
  double seconds = 0.0;   // wall-clock time of the Siconos call
};

class SiconosMcp {
 public:
  SiconosMcp(MixedNcpFunction& function, const std::vector<NcpKind>& kinds)
      : function_(function), n_(static_cast<int>(kinds.size())) {
    for (int i = 0; i < n_; ++i) {
      if (kinds[i] == NcpKind::kFree) order_.push_back(i);
    }
    n_free_ = static_cast<int>(order_.size());
    for (int i = 0; i < n_; ++i) {
      if (kinds[i] == NcpKind::kComplementarity) order_.push_back(i);
    }
    z_.setZero(n_);
    F_.setZero(n_);
    J_.setZero(n_, n_);
  }

  // Solves from z0 (our order) with Siconos' solver `solver_id` (SICONOS_MCP_NEWTON_FB_FBLSA or
  // SICONOS_MCP_NEWTON_MIN_FBLSA) to `tolerance` within `max_iterations`.
  SiconosMcpSolution Solve(const Eigen::VectorXd& z0, double tolerance, int max_iterations,
                           int solver_id = SICONOS_MCP_NEWTON_FB_FBLSA) {
    NumericsMatrix* nabla = NM_create(NM_DENSE, n_, n_);
    MixedComplementarityProblem problem{n_free_,          n_ - n_free_, &ComputeF,
                                        &ComputeJacobian, nabla,        this};
    SolverOptions* options = solver_options_create(solver_id);
    options->dparam[SICONOS_DPARAM_TOL] = tolerance;
    options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
    std::vector<double> z(n_), w(n_);
    for (int k = 0; k < n_; ++k) z[k] = z0[order_[k]];
    SiconosMcpSolution s;
    const auto start = std::chrono::steady_clock::now();
    if (solver_id == SICONOS_MCP_NEWTON_MIN_FBLSA) {
      mcp_newton_min_FBLSA(&problem, z.data(), w.data(), &s.info, options);
    } else {
      mcp_newton_FB_FBLSA(&problem, z.data(), w.data(), &s.info, options);
    }
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    s.iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
    s.residual = options->dparam[SICONOS_DPARAM_RESIDU];
    s.z.setZero(n_);
    for (int k = 0; k < n_; ++k) s.z[order_[k]] = z[k];
    solver_options_delete(options);  // frees the contents (Siconos 4.4)
    free(options);                   // and the struct itself
    NM_free(nabla);                  // frees the matrix and the struct
    return s;
  }

 private:
  void Load(const double* z) {
    for (int k = 0; k < n_; ++k) z_[order_[k]] = z[k];
  }
  static void ComputeF(void* env, int n, double* z, double* F) {
    auto* self = static_cast<SiconosMcp*>(env);
    self->Load(z);
    self->function_.Evaluate(self->z_, &self->F_, nullptr);
    for (int k = 0; k < n; ++k) F[k] = self->F_[self->order_[k]];
  }
  static void ComputeJacobian(void* env, int n, double* z, NumericsMatrix* nabla) {
    auto* self = static_cast<SiconosMcp*>(env);
    self->Load(z);
    self->function_.Evaluate(self->z_, &self->F_, &self->J_);
    for (int col = 0; col < n; ++col) {
      for (int row = 0; row < n; ++row) {
        nabla->matrix0[row + col * n] = self->J_(self->order_[row], self->order_[col]);
      }
    }
  }

  MixedNcpFunction& function_;
  int n_ = 0, n_free_ = 0;
  std::vector<int> order_;  // Siconos position k holds our index order_[k]
  Eigen::VectorXd z_, F_;
  Eigen::MatrixXd J_;
};

}  // namespace quasidyn::testing
