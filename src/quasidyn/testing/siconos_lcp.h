#pragma once
// Siconos numerics' lexicographic Lemke (lcp_lexicolemke, Cottle-Pang-Stone), the independent
// reference of the LCP tests. Header-only: a test that includes it links Siconos (the
// `siconos_numerics_reference` target of CMakeLists.txt, in its layer's TEST_DEPS).

#include <Eigen/Core>
#include <cstdlib>

#include "quasidyn/solvers/lemke.h"

// Siconos numerics.
#include "LCP_Solvers.h"
#include "LinearComplementarityProblem.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "lcp_cst.h"

namespace quasidyn::testing {

struct SiconosSolution {
  int info = -1;  // 0: solved
  Eigen::VectorXd z, w;
};

inline SiconosSolution SolveWithSiconos(const LcpView& p) {
  const int n = static_cast<int>(p.q.size());
  NumericsMatrix* M = NM_create(NM_DENSE, n, n);
  Eigen::Map<Eigen::MatrixXd>(M->matrix0, n, n) = p.M;  // both column-major
  Eigen::VectorXd q = p.q;
  LinearComplementarityProblem problem{n, M, q.data()};
  SolverOptions* options = solver_options_create(SICONOS_LCP_LEMKE);
  SiconosSolution s;
  s.z = Eigen::VectorXd::Zero(n);
  s.w = Eigen::VectorXd::Zero(n);
  lcp_lexicolemke(&problem, s.z.data(), s.w.data(), &s.info, options);
  solver_options_delete(options);  // frees the contents (Siconos 4.4)
  free(options);                   // and the struct itself
  NM_free(M);
  return s;
}

}  // namespace quasidyn::testing
