#pragma once
// One convex (or complementarity) program of a time step behind one interface: the pyramid QP,
// the exact-cone SOCP, the pyramid log barrier and the contact LCP, which several formulations
// solve (formulations/programs/), and the cone barrier (log_barrier_cone/). The step models of
// the two families that solve them (quasi_dynamic/, second_order/) build the problem and
// differentiate the answer through their own program interfaces, which extend this one (each
// formulation's in its folder: qp/qp_program.h, socp/socp_program.h, ...). A program is immutable
// and shared by threads; what it keeps between steps (its problem's storage, its solver's set-up,
// warm starts, its derivative's buffers) lives in a workspace, one per data object.
//
// Solve builds the program of the step into the workspace, sets its solver up again only when
// the program's sparsity pattern changed since the last step (a new contact, a lost one),
// and otherwise only updates the values, so a step with the same contacts as the previous one
// does not allocate.

#include <memory>

#include "quasidyn/dynamics/step_problem.h"

namespace quasidyn {

class ProgramWorkspace {
 public:
  virtual ~ProgramWorkspace() = default;
};

class ContactProgram {
 public:
  virtual ~ContactProgram() = default;

  // The program and its source, for messages: "QP (Pang & Tedrake 2021, eq. 10)".
  virtual const char* description() const = 0;

  virtual std::unique_ptr<ProgramWorkspace> CreateWorkspace() const = 0;

  // Builds and solves the program of `problem`; writes the status, the velocity v (size n_v)
  // and the contact impulses into *solution. A solver that fails is a status and a message
  // naming the most violated contact, never an exception. The workspace must come from
  // this program's CreateWorkspace (std::invalid_argument otherwise).
  virtual void Solve(const StepProblem& problem, ProgramWorkspace* workspace,
                     FormulationSolution* solution) const = 0;

  // Forgets what the workspace carries from one step to the next that can change an answer
  // (the log barrier's previous minimiser, tried as a start), so that the next Solve is a
  // function of its problem alone.
  virtual void ClearWarmStart(ProgramWorkspace* /*workspace*/) const {}
};

[[noreturn]] void ThrowWorkspaceMismatch(const char* program);

// *workspace as the program's own workspace type; std::invalid_argument otherwise.
template <typename Workspace>
Workspace& WorkspaceOf(ProgramWorkspace* workspace, const char* program) {
  auto* typed = dynamic_cast<Workspace*>(workspace);
  if (typed == nullptr) ThrowWorkspaceMismatch(program);
  return *typed;
}
template <typename Workspace>
const Workspace& WorkspaceOf(const ProgramWorkspace& workspace, const char* program) {
  auto* typed = dynamic_cast<const Workspace*>(&workspace);
  if (typed == nullptr) ThrowWorkspaceMismatch(program);
  return *typed;
}

}  // namespace quasidyn
