#pragma once
// The settings of the active-set polish of the interior-point QP and SOCP answers and what it
// did (active_set_polish.h: OSQP's polish, its method and its references), apart from the
// polisher, for the solvers' settings and statistics (qp_problem.h, socp.h).

namespace quasidyn {

struct PolishSettings {
  bool enabled = true;                   // polish after every successful solve
  double delta = 1e-7;                   // δ > 0 of the regularised KKT system (OSQP: 1e-6)
  double primal_regularization = 1e-12;  // δ_x >= 0 added to Q (as the solvers' own)
  int max_refinements = 5;               // >= 0 refinement steps (OSQP: 3)
  // The refinement stops once its KKT error (max(‖e1‖∞, ‖e2‖∞), active_set_polish.cc) is at
  // most rounding_floor · ε · T, ε the machine epsilon and T the largest of the terms the error
  // is computed from (‖Q x‖∞, ‖c‖∞, ‖Aᵀ z‖∞, ‖A x‖∞, ‖b‖∞): the sums of those terms carry
  // rounding errors of that order, so further corrections only move the answer by rounding
  // (docs/performance.md, "The polish at the rounding floor"). Dimensionless, >= 0; 0 refines
  // until the error stops falling or max_refinements. Not from OSQP (which runs a fixed count);
  // ours: 16.
  double rounding_floor = 16.0;
};

// What the polish did at the last solve.
struct PolishInfo {
  bool attempted = false;  // the solve succeeded, polishing is enabled and there are constraints
  bool succeeded = false;  // the polished answer was kept (its residual was smaller)
  int binding_blocks = 0;  // blocks with P_k = I (QP: active rows; SOCP: sticking cones)
  int sliding_blocks = 0;  // cones with P_k = I − r̂ r̂ᵀ
  double residual_before = 0.0;  // KKT residual of the interior-point answer (see header)
  double residual_after = 0.0;   // of the polished answer (0 when not attempted)
};

// Throws std::invalid_argument naming the field out of range.
void ValidatePolishSettings(const char* where, const PolishSettings& settings);

}  // namespace quasidyn
