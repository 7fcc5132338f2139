#pragma once
// The pyramid QP's start from the previous step's answer (pyramid_qp.h): consecutive
// quasi-dynamic steps solve nearly the same QP (Pang & Tedrake 2021, eq. (10): the same
// contacts, nearly the same G and h), so the interior point started at the previous v and β
// needs fewer iterations than from its cold start (arm_cubes' rollout: docs/performance.md,
// "Warm starts in the step").
//
// The velocities keep their meaning from step to step (x = v, size n_v). The multipliers are
// mapped row by row by what a row stands for, since the contact set changes between steps (a
// new contact shifts every later row):
//   a contact row      (geometry A, geometry B, k-th contact of that pair in the set, ray j),
//   a joint-limit row  (joint, lower or upper bound).
// A row of the new QP that the previous one did not have starts as the cold start does
// (solvers/qp.h, balanced start): z = 1 / max(|G_i x − h_i|, 1) at the warm x. The solver lifts
// slacks and multipliers to QpSettings::warm_start_min_value. When the rows stand for the same
// things in the same order as at the previous step (the same contacts), the multipliers are
// copied as they are; otherwise each row's is found by its key (PreviousRowKeys).
//
// What is kept is the only state of a step's data that can change an answer (to the solver's
// tolerance, the polish making most answers bitwise the cold ones): Clear() forgets it
// (StepModel::ClearWarmStart). No heap allocation once the buffers have held a step's rows.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/formulations/warm_start_row_key.h"
#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/sized_storage_pool.h"

namespace quasidyn {

class PyramidQpWarmStart {
 public:
  // Forgets the previous answer: the next Start gives a cold start.
  void Clear() {
    has_previous_ = false;
    keys_problem_ = nullptr;
    previous_rows_.Clear();
  }
  bool has_previous() const { return has_previous_; }

  // The start of `qp` (built from `problem` by BuildPyramidQp) from the remembered answer into
  // *start (its buffers kept from call to call); false, *start untouched, when there is none or
  // the sizes differ: solve cold then.
  bool Start(const StepProblem& problem, const QpProblem& qp, QpWarmStart* start);

  // Remembers a solved step's answer (x = v, z = β then the joint-limit impulses) and what its
  // rows stand for. Takes the row keys the last Start formed when that Start was given the same
  // problem object, which must not have changed in between (SolvePyramidQp: Start, solve,
  // Remember); forms them otherwise.
  void Remember(const StepProblem& problem, const QpResult& result);

  // Rows of the last Start given the previous multiplier (the rest started cold).
  int mapped_rows() const { return mapped_rows_; }

 private:
  // What a row stands for: (geometry A, geometry B, occurrence, ray) for a contact row,
  // (−1, joint, bound side, 0) for a joint-limit row, packed into one integer (fields of
  // 20, 20, 14 and 10 bits, the first shifted by one so that −1 is 0; warm_start_row_key.h).
  using RowKey = PreviousRowKeys::RowKey;
  // False when a field does not fit its bits (then no row is mapped: the start is cold).
  static bool KeysOf(const StepProblem& problem, std::vector<RowKey>* keys);

  bool has_previous_ = false;
  Eigen::VectorXd previous_x_;
  Eigen::VectorXd previous_z_;     // the previous step's multipliers, in its row order
  PreviousRowKeys previous_rows_;  // what those rows stand for
  std::vector<RowKey> keys_;       // scratch: the new rows' keys
  // The problem keys_ were formed for by the last Start (null after a Remember or a Clear).
  const StepProblem* keys_problem_ = nullptr;
  Eigen::VectorXd Gx_;  // scratch: G x at the warm x
  int mapped_rows_ = 0;
  // Gx_'s, previous_z_'s and the start's z's storage for other row counts
  // (solvers/sized_storage_pool.h).
  SizedStoragePool storage_;
};

}  // namespace quasidyn
