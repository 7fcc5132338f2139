#pragma once
// The friction-cone SOCP's start from the previous step's answer (friction_cone_socp.h):
// consecutive quasi-dynamic steps solve nearly the same SOCP (Pang, Suh, Yang & Tedrake 2023,
// eq. (27): the same contacts, nearly the same A and b), so the interior point started at the
// previous v and cone duals needs fewer iterations than from its cold start
// (docs/performance.md, "The SOCP step warm-started").
//
// The velocities keep their meaning from step to step (x = v). The multipliers are mapped
// scalar row by scalar row by what a row stands for, since the contact set changes between
// steps (a new contact shifts every later row):
//   a contact's row   (geometry A, geometry B, k-th contact of that pair in the set, component:
//                      the cone's entry 0 … m−1, or the planar rows t ± z as 0 and 1),
//   a joint-limit row (joint, lower or upper bound).
// A row the previous step did not have starts as the cold start of the QP does (solvers/qp.h,
// balanced start), at the warm x: a linear row z = 1 / max(|G_i x − h_i|, 1), a cone
// z_k = e / max(|t_k|, 1) with t_k = A_k,0 x + b_k,0. The solver shifts every cone of the
// start into the cone's interior (SocpSettings::warm_start_min_margin).
//
// When the rows stand for the same things in the same order as at the previous step (most
// steps along a rollout), the multipliers are copied as they are; otherwise they are found by
// key in a sorted copy. What is kept is the only state of a step's data that can change an
// answer (to the solver's tolerance): Clear() forgets it (StepModel::ClearWarmStart). No heap
// allocation once the buffers have held a step's rows.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/formulations/warm_start_row_key.h"
#include "quasidyn/solvers/sized_storage_pool.h"
#include "quasidyn/solvers/socp.h"

namespace quasidyn {

class FrictionConeSocpWarmStart {
 public:
  // Forgets the previous answer: the next Start gives a cold start.
  void Clear() {
    has_previous_ = false;
    previous_rows_.Clear();
  }
  bool has_previous() const { return has_previous_; }

  // The start of `socp` (built from `problem` by BuildFrictionConeSocp) from the remembered
  // answer into *start (its buffers kept from call to call); false, *start untouched, when
  // there is none or the sizes differ: solve cold then.
  bool Start(const StepProblem& problem, const SocpProblem& socp, SocpWarmStart* start);

  // Remembers a solved step's answer (x = v, the stacked multipliers) and what its rows stand
  // for.
  void Remember(const StepProblem& problem, const SocpResult& result);

  // Rows of the last Start given the previous multiplier (the rest started cold).
  int mapped_rows() const { return mapped_rows_; }

 private:
  // (geometry A + 1, geometry B, occurrence, component) packed into 20, 20, 14 and 10 bits;
  // a joint-limit row is (0, joint, bound side, 0) (warm_start_row_key.h).
  using RowKey = PreviousRowKeys::RowKey;
  // The keys of the stacked rows (the linear rows, then the cones); false when a field does not
  // fit its bits (then no row is mapped: the start is cold).
  bool KeysOf(const StepProblem& problem, std::vector<RowKey>* keys);

  bool has_previous_ = false;
  Eigen::VectorXd previous_x_;
  Eigen::VectorXd previous_z_;     // stacked rows of the previous step
  SizedStoragePool storage_;       // previous_z_'s and the starts' z for every row count met so far
  PreviousRowKeys previous_rows_;  // what they stand for
  std::vector<RowKey> keys_;       // scratch: the new rows' keys
  std::vector<int> occurrence_;    // scratch: per contact, its place among its pair's
  int mapped_rows_ = 0;
};

}  // namespace quasidyn
