#include "quasidyn/formulations/second_order/second_order_model.h"

#include <Eigen/Cholesky>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/stepping/step_outcome.h"

namespace quasidyn {
namespace {

// D_a at q0 (ActuatedDampingAtStart, second_order_cost.h); every object's mass matrix there must
// be positive definite (the step's M̂ is then, whatever the robots' links weigh).
Eigen::VectorXd DampingAtInitialConfiguration(const ScenePtr& scene) {
  Kinematics kinematics(scene);
  kinematics.Update(scene->q0);
  Eigen::MatrixXd block;
  for (int i = 0; i < static_cast<int>(scene->instances.size()); ++i) {
    const ModelInstance& object = scene->instances[i];
    if (object.actuated || object.nv == 0) continue;
    kinematics.InstanceMassMatrix(i, &block);
    QUASIDYN_CHECK_ARGUMENT(block.llt().info() == Eigen::Success, "second-order model",
                            "object '" + object.name +
                                "' has a mass matrix that is not positive definite (its bodies "
                                "need mass > 0 and a positive definite inertia)");
  }
  return ActuatedDamping(kinematics);  // ActuatedDampingAtStart, on the kinematics just made
}

}  // namespace

SecondOrderData::SecondOrderData(const SecondOrderModel* model, ContactData contact,
                                 std::unique_ptr<ProgramWorkspace> workspace)
    : StepData(model),
      contact_(std::move(contact)),
      workspace_(std::move(workspace)),
      end_kinematics_(contact_.kinematics().model_ptr()) {
  // As every step reports them (a failed step's are zero, StepModel::Calc).
  result.momentum_force.setZero(model->scene().nv_u);
  result.joint_limit_impulse.setZero(model->scene().nv);
}

SecondOrderModel::SecondOrderModel(ScenePtr scene, double time_step, FormulationInfo formulation,
                                   std::unique_ptr<const SecondOrderProgram> program)
    : StepModel(scene, time_step, std::move(formulation), ParameterBlock()),
      contact_(scene, scene->contact_tolerance),
      program_(std::move(program)),
      actuated_stiffness_(scene->ActuatedStiffness()),
      motion_(*scene, contact_.candidate_distance()) {
  actuated_damping_ = DampingAtInitialConfiguration(scene_ptr());
}

std::unique_ptr<StepData> SecondOrderModel::CreateData() const {
  return std::unique_ptr<StepData>(
      new SecondOrderData(this, contact_.CreateData(), program_->CreateWorkspace()));
}

SecondOrderData& SecondOrderModel::DataOf(StepData* data, const char* where) const {
  CheckData(data, where);
  return static_cast<SecondOrderData&>(*data);  // CheckData: made by this model's CreateData
}

StepProblem SecondOrderModel::ProblemOf(const SecondOrderData& data) const {
  return StepProblem{scene(), data.contact_.contacts(), data.cost_, time_step()};
}

void SecondOrderModel::DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data_in) const {
  SecondOrderData& data = static_cast<SecondOrderData&>(*data_in);  // Calc: made by CreateData
  const Scene& scene = this->scene();

  if (Outcome query = QueryContacts(contact_, x.q, &data.contact_); !query)
    return FailStep(SolverStatus::kNumericalFailure, query.TakeMessage(), &data);
  BuildSecondOrderCost(data.contact_.kinematics(), x.v, u, actuated_stiffness_, actuated_damping_,
                       data.external_force.size() > 0 ? data.external_force : scene.external_force,
                       time_step(), &data.cost_workspace_, &data.cost_);
  // The joint limits as rows of both programs, as in the quasi-dynamic step: q⁺ = q + h v⁺ on
  // a prismatic or revolute joint, so the row o_l + d_l v_j >= 0 is the same
  // (dynamics/joint_limit_rows.h).
  BuildJointLimitRows(scene, x.q, time_step(), &data.cost_.limits);
  if (!data.cost_.P.AllFinite() || !data.cost_.tau_h.allFinite()) {
    return FailStep(SolverStatus::kNumericalFailure,
                    "the step's cost overflowed (P or tau_h is not finite): positions, "
                    "velocities, commands, masses or stiffnesses too large",
                    &data);
  }
  const StepProblem problem = ProblemOf(data);
  program_->Solve(problem, data.workspace_.get(), &data.solution_);
  const FormulationSolution& solution = data.solution_;

  StepResult& result = data.result;
  TakeSolution(solution, formulation().name, scene.nv, &result);
  if (!result.ok()) return;  // its status and message: Calc completes the failed step
  result.velocity = solution.v;
  // The objects' inertial force (M (v⁺ − v)/h + C v)_u.
  data.velocity_change_ = solution.v - x.v;
  MassTimes(scene, data.cost_workspace_, data.velocity_change_, &data.inertial_force_);
  result.momentum_force = data.inertial_force_.head(scene.nv_u) / time_step() +
                          data.cost_workspace_.coriolis_force.head(scene.nv_u);
  StepConfiguration(scene, x.q, solution.v, time_step(), &result.next.q);
  result.next.v = solution.v;
  motion_.Measure(data.contact_.kinematics(), result.next.q, &data.end_kinematics_, &result);
  FillContactReports(problem, solution, &result.contacts);
  JointLimitImpulse(data.cost_.limits, solution.limit_impulse, scene.nv,
                    &result.joint_limit_impulse);
}

void SecondOrderModel::ClearWarmStart(StepData* data_in) const {
  SecondOrderData& data = DataOf(data_in, "ClearWarmStart");
  program_->ClearWarmStart(data.workspace_.get());
}

}  // namespace quasidyn
