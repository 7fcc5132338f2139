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
  // The refinement stops once each of its KKT errors (active_set_polish.cc) is at most
  // rounding_floor · ε · T, ε the machine epsilon and T the largest of the terms that error is
  // computed from (the dual error ‖Q x + c − Aᵀ z‖∞: ‖Q x‖∞, ‖c‖∞, ‖Aᵀ z‖∞; the primal error
  // ‖P (A x + b)‖∞: ‖A x‖∞, ‖b‖∞): the sums of those terms carry rounding
  // errors of that order, so further corrections only move the answer by rounding
  // (docs/performance.md, "The polish at the rounding floor"). Dimensionless, >= 0; 0 refines
  // until the error stops falling or max_refinements. Not from OSQP (which runs a fixed count);
  // ours: 16.
  double rounding_floor = 16.0;
  // >= 1 solves of the active set's KKT system. After each, the active set is guessed again
  // from the polished answer (active_set_polish.h, step 4): a QP row whose multiplier came out
  // negative leaves it (dependent rays), a row left out that the answer violates enters it, a
  // sliding cone takes the polished answer's slip direction (the boundary's nonlinear
  // condition, met by the iteration to rounding). The rounds stop when the guess no longer
  // changes, the residual stops falling or reaches rounding. Ours (OSQP solves once).
  int max_rounds = 8;
};

// What the polish did at the last solve.
struct PolishInfo {
  bool attempted = false;  // the solve succeeded, polishing is enabled and there are constraints
  bool succeeded = false;  // the polished answer was kept (its residual was smaller)
  int binding_blocks = 0;  // blocks with P_k = I (QP: active rows; SOCP: sticking cones)
  int sliding_blocks = 0;  // sliding cones (P_k = l̂ l̂ᵀ, S_k) in the kept round's guess
  int rounds = 0;          // solves of the active set's KKT system (PolishSettings::max_rounds)
  double residual_before = 0.0;  // KKT residual of the interior-point answer (see header)
  double residual_after = 0.0;   // of the polished answer (0 when not attempted)
};

// Throws std::invalid_argument naming the field out of range.
void ValidatePolishSettings(const char* where, const PolishSettings& settings);

}  // namespace quasidyn
