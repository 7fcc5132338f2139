#pragma once
// The argument check shared by the convex solvers' problems (QpProblem, SocpProblem,
// LogBarrierProblem: each holds Q, c, G, h, A, b): every value finite, else
// std::invalid_argument "<where>: <name>[i] is not finite" naming the first bad entry.

#include <string_view>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

template <typename Problem>
void CheckProblemValuesFinite(std::string_view where, const Problem& p) {
  CheckFinite(where, "Q", p.Q);
  CheckFinite(where, "c", p.c);
  CheckFinite(where, "G", p.G);
  CheckFinite(where, "h", p.h);
  CheckFinite(where, "A", p.A);
  CheckFinite(where, "b", p.b);
}

}  // namespace quasidyn
