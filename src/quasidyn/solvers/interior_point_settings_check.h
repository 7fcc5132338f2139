#pragma once
// The checks of the settings the two interior-point solvers share (QpSettings in qp.h,
// SocpSettings in socp.h: tolerances, iteration limit, step to the boundary, KKT
// regularisation and the sparse-path rule). Each throws std::invalid_argument naming `where`
// and the setting.

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

template <typename InteriorPointSettings>
void CheckInteriorPointSettings(const char* where, const InteriorPointSettings& s) {
  CheckPositive(where, "absolute_tolerance", s.absolute_tolerance);
  CheckPositive(where, "relative_tolerance", s.relative_tolerance);
  QUASIDYN_CHECK_ARGUMENT(s.inaccurate_factor >= 1, where, "inaccurate_factor must be >= 1");
  CheckPositive(where, "infeasibility_tolerance", s.infeasibility_tolerance);
  QUASIDYN_CHECK_ARGUMENT(s.max_iterations > 0, where, "max_iterations must be > 0");
  QUASIDYN_CHECK_ARGUMENT(s.step_to_boundary > 0 && s.step_to_boundary < 1, where,
                          "step_to_boundary must be in (0, 1)");
  CheckNonNegative(where, "kkt_regularization", s.kkt_regularization);
  QUASIDYN_CHECK_ARGUMENT(s.sparse_min_variables >= 0, where, "sparse_min_variables must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(s.sparse_max_density >= 0 && s.sparse_max_density <= 1, where,
                          "sparse_max_density must be in [0, 1]");
}

}  // namespace quasidyn
