#pragma once
// The one interface of every time-stepping model of quasidyn (the model/data shape of
// Crocoddyl and Pinocchio; docs/architecture.md, "One step"):
//
//   std::shared_ptr<const StepModel> model = MakeStepModel(scene, {"socp"});  // immutable
//                                                  (formulations/registry.h)
//   std::unique_ptr<StepData> data = model->CreateData();  // one per thread, sized once
//   model->Calc(x, u, data.get());                 // x⁺ = f(x, u)     -> data->result
//   model->CalcDiff(GradientMode::kAAndB, data.get());  // A, B of THAT step -> data->derivatives
//
// * The model (scene, compiled geometry, formulation, parameters validated once) never changes
//   and is shared, read-only, by any number of threads, each with its own data.
// * Calc does not allocate once the data has seen a step with the same contacts (the
//   formulation's solver is set up again only when the contact pattern changes).
// * CalcDiff differentiates the program the last Calc solved, from what Calc left in the
//   data: it never solves the step again.
// * Errors: a caller's mistake (sizes, NaN, data of another model, CalcDiff without a Calc)
//   throws std::invalid_argument; a numerical outcome (a solver that fails, a derivative that
//   does not exist there) is a status and a message in the result, never an exception.
// Planners, controllers, rollouts, the command line and the Python module see models only
// through this interface, so every formulation can be simulated, differentiated, planned
// through and controlled alike.

#include <Eigen/Core>
#include <memory>
#include <string>

#include "quasidyn/dynamics/step_result.h"
#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/model/state.h"
#include "quasidyn/stepping/formulation_info.h"

namespace quasidyn {

enum class GradientMode {
  kNone,   // CalcDiff computes nothing
  kBOnly,  // B = ∂x⁺/∂u
  kAAndB,  // A = ∂x⁺/∂x and B
};

// "none", "b_only", "a_and_b".
const char* GradientModeName(GradientMode mode);

// The derivatives of one step. For the quasi-dynamic models (state q alone) A = ∂q⁺/∂q
// (n_q × n_q) acts on raw coordinate perturbations and includes the derivative of the
// quaternion normalisation (gradients/configuration_map.h), B = ∂q⁺/∂u (n_q × n_q,a). For the
// second-order models (state (q, v), second_order_model.h) A = ∂(q⁺, v⁺)/∂(q, v) ((n_q + n_v)
// square, its q columns as above) and B = ∂(q⁺, v⁺)/∂u ((n_q + n_v) × n_q,a).
struct StepDerivatives {
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;  // empty on success: what failed otherwise
  GradientMode mode = GradientMode::kNone;
  Eigen::MatrixXd A;  // mode kAAndB, else empty
  Eigen::MatrixXd B;  // modes kBOnly and kAAndB, else empty
  // The constraints the derivative treats as binding: exact QP, its active pyramid rows;
  // exact SOCP, m_b per sticking cone and 1 per sliding one; barriers, all rows or cones.
  int active_rows = 0;
  bool ok() const { return Succeeded(status); }
};

class StepModel;

class StepData {
 public:
  virtual ~StepData() = default;
  StepData(const StepData&) = delete;
  StepData& operator=(const StepData&) = delete;

  StepResult result;            // of the last Calc
  StepDerivatives derivatives;  // of the last CalcDiff
  // τ_ext of the following Calcs (size n_v,u [N, N·m], Scene::external_force), set by the
  // caller before Calc; empty: the scene's. A model without external forces (halm-posa)
  // rejects a non-empty one (std::invalid_argument).
  Eigen::VectorXd external_force;

  // The start x = (q, v) and the command u of the last Calc: the data's own copies, taken before
  // the step (so x may be result.next itself), at which CalcDiff differentiates. Sized by the
  // model when the data is made (v empty for a model without velocities).
  const Eigen::VectorXd& q() const { return x_.q; }
  const Eigen::VectorXd& v() const { return x_.v; }
  const Eigen::VectorXd& u() const { return u_; }
  // Whether a Calc has run on this data (whatever its outcome).
  bool calculated() const { return calculated_; }

 protected:
  // Sizes the copies above as `model` steps them (model->CreateData passes itself).
  explicit StepData(const StepModel* model);

 private:
  friend class StepModel;
  const StepModel* model_;  // the model whose CreateData made this data
  State x_;                 // the last Calc's start
  Eigen::VectorXd u_;       // and command
  bool calculated_ = false;
};

class StepModel {
 public:
  virtual ~StepModel() = default;
  StepModel(const StepModel&) = delete;
  StepModel& operator=(const StepModel&) = delete;

  const Scene& scene() const { return *scene_; }
  const ScenePtr& scene_ptr() const { return scene_; }
  double time_step() const { return time_step_; }  // h [s]
  // What the model's formulation is and can do (its registration, formulations/registry.h).
  const FormulationInfo& formulation() const { return formulation_; }
  const FormulationCapabilities& capabilities() const { return formulation_.capabilities; }
  // The parameter values the model steps with, defaults included (e.g. kappa of a log barrier,
  // object_mass_scale), for reports: trajectory files, `quasidyn compare`, Python.
  const ParameterBlock& parameters() const { return parameters_; }

  // The sizes of x = (q, v) and u.
  int state_q_size() const { return scene_->nq; }
  // n_v for the models whose state has velocities (capabilities().state), else 0.
  int state_v_size() const;
  // n_q,a for the models whose command is the robots' (positions or velocities); n_v,u for a
  // model whose command is the objects' applied generalized impulse (capabilities().command).
  int control_size() const;

  virtual std::unique_ptr<StepData> CreateData() const = 0;

  // One step from x under the command u (size control_size(); u = q̄_a, the robots' commanded
  // positions, for the quasi-dynamic and second-order models, see ScheduledCommand):
  // data->result. x.q has n_q entries, x.v state_v_size() (empty for the quasi-dynamic models);
  // all finite. A failed step keeps x (result.next = x) and says why.
  //
  // The same for every model (a template method, as Drake's and Crocoddyl's): Calc checks the
  // data (CheckData), the sizes and finiteness of x.q, x.v and u, a non-empty
  // data->external_force of a model without external forces and the model's own DoCheckStep,
  // all before it changes anything; then copies x and u into the data (StepData::q(), v(), u():
  // x may alias data->result.next), marks it calculated, resets data->derivatives' status and
  // message and the result's solver summary, and runs the model's DoCalc. When that step
  // fails, Calc completes the result: the state kept (result.next = x), a zero velocity (n_v),
  // no contacts, no motion, momentum_force and joint_limit_impulse zero at the sizes the data
  // holds them (a model's data sizes them as its steps report them).
  void Calc(const State& x, const Eigen::VectorXd& u, StepData* data) const;

  // The command u of the step from x that ends at time t [s] (t_k = k·h in a rollout,
  // simulation/rollout.h), read from the scene's command schedule (Scene::CommandAt). Default:
  // the commanded positions q̄_a(t_k) (x unused). A model whose command is something else
  // derives it from the schedule here (halm-posa: a commanded velocity, with optional tracking
  // of q̄_a from x, halm_posa_model.h). std::invalid_argument on a NaN t or a wrong-sized x.q.
  Eigen::VectorXd ScheduledCommand(double t, const State& x) const;
  // The same into *u (resized to control_size()), the one a model overrides: the default
  // allocates nothing when u already has that size (a rollout's command buffer).
  virtual void ScheduledCommandInto(double t, const State& x, Eigen::VectorXd* u) const;

  // The command that holds the robots where x has them, the planner's and the controllers' rest
  // command (size control_size()): q_a for a position command, zeros for a velocity or an
  // impulse command.
  Eigen::VectorXd HoldingCommand(const State& x) const;
  // The command that moves the robots from x toward the positions q_a_target (size n_q,a) in
  // one step: q_a_target itself for a position command, (q_a_target − q_a)/h for a velocity
  // command. std::invalid_argument for an impulse command (the robots are not commanded).
  Eigen::VectorXd CommandToward(const State& x, const Eigen::VectorXd& q_a_target) const;

  // The derivatives of the step the last Calc on `data` solved: data->derivatives. Throws
  // std::invalid_argument when data has no Calc yet, or for a mode other than kNone when the
  // formulation has no derivative (capabilities().no_gradient); a failed step or a point where
  // the derivative does not exist is a status and a message.
  //
  // The same for every model: CalcDiff checks the data and starts data->derivatives
  // (StartDerivatives, stepping/step_outcome.h: the mode, no message, no active rows; a failed
  // step's status, or nothing to compute for kNone), then runs the model's DoCalcDiff.
  void CalcDiff(GradientMode mode, StepData* data) const;

  // Forgets what data carries from one step to the next that can change an answer (warm
  // starts), so that the next Calc is a function of (x, u) alone: batches use it to give the
  // same bits whatever the thread count.
  virtual void ClearWarmStart(StepData* data) const = 0;

 protected:
  // `time_step` h [s], finite and > 0; `formulation` its registration's description;
  // `parameters` the values it steps with (reported by parameters()). A null scene or a bad h
  // throws std::invalid_argument.
  StepModel(ScenePtr scene, double time_step, FormulationInfo formulation,
            ParameterBlock parameters);

  // Throws std::invalid_argument("<where>: the data was not made by this model") unless
  // data came from this model's CreateData.
  void CheckData(const StepData* data, const char* where) const;

  // The hooks of Calc and CalcDiff: a model's own work, and only that.
  //
  // What the model checks of (x, u) beyond what Calc checks (ecp: a zero quaternion), with the
  // data it was given (made by this model); throws std::invalid_argument("Calc: ...").
  // Called before Calc changes anything. Default: nothing.
  virtual void DoCheckStep(const State& x, const Eigen::VectorXd& u, const StepData& data) const;
  // The step from x under u into data->result (made by this model's CreateData; x and u are its
  // copies, StepData::q(), v(), u()). A failure sets its status and message (FailStep) and
  // returns: Calc completes the failed result. Must not allocate once the data has seen a step
  // with the same contacts.
  virtual void DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data) const = 0;
  // A, B of the step the last DoCalc took (a success) into data->derivatives, in `mode`
  // (kBOnly or kAAndB), which CalcDiff has started: status solved, no message, no active rows,
  // A and B holding their storage to be written whole (or emptied, FailDerivatives).
  virtual void DoCalcDiff(GradientMode mode, StepData* data) const = 0;

  // For DoCalc: the step failed with `status` (not a success) and `message`.
  static void FailStep(SolverStatus status, std::string message, StepData* data);

  // How Calc's messages name the model, "the <name> model's state has velocities": the
  // formulation's name by default; a family's model names the family ("quasi-dynamic").
  virtual std::string ModelName() const;

 private:
  ScenePtr scene_;
  double time_step_;
  FormulationInfo formulation_;
  ParameterBlock parameters_;
};

// The initial state of `model`: q0, and v = the scene's v0 (zeros when it has none) when the
// model has a velocity state (state_v_size() > 0), else v empty. Prefer it to the scene's: a
// model's formulation may differ from the scene's own (the command line's --formulation).
State InitialState(const StepModel& model);

}  // namespace quasidyn
