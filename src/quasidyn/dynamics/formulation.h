#pragma once
// One convex time-stepping program of the quasi-dynamic model behind one interface: the
// pyramid QP, the exact-cone SOCP, their two log barriers and the quasistatic LCP
// (docs/formulations.md). A formulation is immutable and shared by threads; what it keeps
// between steps (its problem's storage, its solver's set-up, warm starts) lives in a
// workspace, one per data object.
//
// Solve builds the program of the step into the workspace, sets its solver up again only when
// the program's sparsity pattern changed since the last step (a new contact, a lost one),
// and otherwise only updates the values, so a step with the same contacts as the previous one
// does not allocate.

#include <memory>

#include "quasidyn/dynamics/formulation_settings.h"
#include "quasidyn/dynamics/step_problem.h"

namespace quasidyn {

class FormulationWorkspace {
 public:
  virtual ~FormulationWorkspace() = default;
};

class Formulation {
 public:
  virtual ~Formulation() = default;

  virtual FormulationType type() const = 0;
  // The program and its source, for messages: "QP (Pang & Tedrake 2021, eq. 10)".
  virtual const char* description() const = 0;

  virtual std::unique_ptr<FormulationWorkspace> CreateWorkspace() const = 0;

  // Builds and solves the program of `problem`; writes the status, the velocity v (size n_v)
  // and the contact impulses into *solution. A solver that fails is a status and a message
  // naming the most violated contact, never an exception. The workspace must come from
  // this formulation's CreateWorkspace (std::invalid_argument otherwise).
  virtual void Solve(const StepProblem& problem, FormulationWorkspace* workspace,
                     FormulationSolution* solution) const = 0;

  // Forgets what the workspace carries from one step to the next that can change an answer
  // (the log barrier's previous minimiser, tried as a start), so that the next Solve is a
  // function of its problem alone.
  virtual void ClearWarmStart(FormulationWorkspace* /*workspace*/) const {}
};

// The formulation of each type (the table of docs/formulations.md), with its solver's default
// settings (each formulation class takes other solver settings in its constructor).
std::unique_ptr<const Formulation> MakeFormulation(FormulationType type);

[[noreturn]] void ThrowWorkspaceMismatch(const char* formulation);

// *workspace as the formulation's own workspace type; std::invalid_argument otherwise.
template <typename Workspace>
Workspace& WorkspaceOf(FormulationWorkspace* workspace, const char* formulation) {
  auto* typed = dynamic_cast<Workspace*>(workspace);
  if (typed == nullptr) ThrowWorkspaceMismatch(formulation);
  return *typed;
}

}  // namespace quasidyn
