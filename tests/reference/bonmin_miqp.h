#pragma once
// Bonmin (COIN-OR, Debian coinor-libbonmin-dev), a free convex MINLP solver, on quasidyn's
// MiqpProblem (solvers/miqp.h): an independent reference for the MIQP tests and the MIQP
// benchmark. Tests and benchmarks only; never linked into the library.
//
// The problem is handed over as a TMINLP: the rows of G with one non-zero become bounds of
// their variable (as a modelling layer would pass them), the other rows of G are constraints
// g_i(x) >= h_i, the rows of A equalities; binaries are BINARY variables (a binary the caller
// fixed becomes an INTEGER variable with equal bounds, since Bonmin requires [0, 1] bounds on
// its binaries); the Hessian of the Lagrangian is obj_factor · Q.

#include <Eigen/Core>
#include <string>

#include "quasidyn/solvers/miqp.h"

namespace quasidyn::reference {

struct BonminSettings {
  // Bonmin's outer approximation (Duran & Grossmann 1986; MILP master by Cbc, QP subproblems by
  // Ipopt), exact for convex problems. Debian's Bonmin 1.8.9 fails on our random instances
  // with the others: B-BB stops on an Osi assertion (OsiBranchingObject.cpp:618), B-Hyb on a
  // Cbc assertion or with an objective 13% above the optimum reported optimal, B-QG with
  // non-optimal objectives reported optimal (2 of 12 instances).
  std::string algorithm = "B-OA";
  double absolute_gap = 1e-6;  // bonmin.allowable_gap
  double relative_gap = 1e-6;  // bonmin.allowable_fraction_gap
  double time_limit_seconds = 600;
  int node_limit = 1000000;
};

struct BonminResult {
  bool optimal = false;     // Bonmin proved optimality (within its gaps)
  bool infeasible = false;  // Bonmin proved infeasibility
  std::string status;       // Bonmin's MipStatus as text
  double objective = 0;     // ½xᵀQx + cᵀx + f₀ at x
  Eigen::VectorXd x;
  int nodes = 0;
  double seconds = 0;  // wall clock of the branch and bound
};

BonminResult SolveWithBonmin(const MiqpProblem& problem, const BonminSettings& settings = {});

}  // namespace quasidyn::reference
