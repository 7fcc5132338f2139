#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"

#include <cmath>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/stepping/step_outcome.h"

namespace quasidyn {
QuasiDynamicData::QuasiDynamicData(const QuasiDynamicModel* model, ContactData contact,
                                   std::unique_ptr<ProgramWorkspace> workspace)
    : StepData(model),
      contact_(std::move(contact)),
      workspace_(std::move(workspace)),
      end_kinematics_(contact_.kinematics().model_ptr()) {
  // As every step reports them (a failed step's are zero, StepModel::Calc).
  result.momentum_force.setZero(model->scene().nv_u);
  result.joint_limit_impulse.setZero(model->scene().nv);
}

QuasiDynamicModel::QuasiDynamicModel(ScenePtr scene, FormulationInfo formulation,
                                     ParameterBlock parameters,
                                     const QuasiDynamicCostParameters& cost,
                                     std::unique_ptr<const QuasiDynamicProgram> program)
    : StepModel(scene, cost.time_step, std::move(formulation), std::move(parameters)),
      program_(std::move(program)),
      cost_parameters_(cost),
      contact_(scene, program_->CandidateDistance(*scene)),
      actuated_stiffness_(scene->ActuatedStiffness()),
      motion_(*scene, contact_.candidate_distance()) {
  CheckNonNegative("quasi-dynamic model", "object_mass_scale", cost.object_mass_scale);
}

std::unique_ptr<StepData> QuasiDynamicModel::CreateData() const {
  return std::unique_ptr<StepData>(
      new QuasiDynamicData(this, contact_.CreateData(), program_->CreateWorkspace()));
}

QuasiDynamicData& QuasiDynamicModel::DataOf(StepData* data, const char* where) const {
  CheckData(data, where);
  return static_cast<QuasiDynamicData&>(*data);  // CheckData: made by this model's CreateData
}

StepProblem QuasiDynamicModel::ProblemOf(const QuasiDynamicData& data) const {
  return StepProblem{scene(), data.contact_.contacts(), data.cost_, time_step()};
}

void QuasiDynamicModel::DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data_in) const {
  QuasiDynamicData& data = static_cast<QuasiDynamicData&>(*data_in);  // Calc: made by CreateData
  const Scene& scene = this->scene();

  // A step that starts where the last one ended (a rollout's: x.q is the last q⁺, bit for bit)
  // takes the poses the motion measure computed there instead of computing them again.
  contact_.ShareKinematics(x.q, &data.end_kinematics_, &data.contact_);
  if (Outcome query = QueryContacts(contact_, x.q, &data.contact_); !query)
    return FailStep(SolverStatus::kNumericalFailure, query.TakeMessage(), &data);
  BuildQuasiDynamicCost(data.contact_.kinematics(), u, actuated_stiffness_,
                        data.external_force.size() > 0 ? data.external_force : scene.external_force,
                        cost_parameters_, &data.cost_);
  // Finite inputs can still overflow here (a 1e308 joint offset times a stiffness): a status,
  // not the solvers' exception for a caller's non-finite problem.
  if (!data.cost_.P.AllFinite() || !data.cost_.tau_h.allFinite()) {
    return FailStep(SolverStatus::kNumericalFailure,
                    "the step's cost overflowed (P or tau_h is not finite): positions, commands, "
                    "masses or stiffnesses too large",
                    &data);
  }
  // The exact programs leave out the joint-limit rows beyond the step's reach and solve again
  // with every row when the step crosses one of those bounds (joint_limit_rows.h).
  if (program_->LeavesOutJointLimitsOutOfReach())
    LeaveOutJointLimitsOutOfReach(scene, x.q, u, &data.cost_.limits);
  program_->Solve(ProblemOf(data), data.workspace_.get(), &data.solution_);
  // (Also when the first solve fails: without the rows it is not harder, but the answer to a
  // caller must not depend on the heuristic.)
  if (data.cost_.limits.left_out > 0 &&
      (!Succeeded(data.solution_.status) || data.solution_.v.size() != scene.nv ||
       !data.solution_.v.allFinite() ||
       !LeftOutJointLimitsHold(x.q, data.solution_.v, time_step(), data.cost_.limits))) {
    BuildJointLimitRows(scene, x.q, time_step(), &data.cost_.limits);
    program_->Solve(ProblemOf(data), data.workspace_.get(), &data.solution_);
  }
  const StepProblem problem = ProblemOf(data);
  const FormulationSolution& solution = data.solution_;

  StepResult& result = data.result;
  TakeSolution(solution, formulation().name, scene.nv, &result);
  if (!result.ok()) return;  // its status and message: Calc completes the failed step
  result.velocity = solution.v;
  // s·M_u·v_u / h: the object rows of P v (P = blockdiag(s M_u, h² K_a), quasi_dynamic_cost.h).
  data.cost_.P.Multiply(solution.v, &data.Pv_);
  result.momentum_force = data.Pv_.head(scene.nv_u) / time_step();
  StepConfiguration(scene, x.q, solution.v, time_step(), &result.next.q);
  result.next.v.resize(0);
  motion_.Measure(data.contact_.kinematics(), result.next.q, &data.end_kinematics_, &result);
  FillContactReports(problem, solution, &result.contacts);
  JointLimitImpulse(data.cost_.limits, solution.limit_impulse, scene.nv,
                    &result.joint_limit_impulse);
}

void QuasiDynamicModel::ClearWarmStart(StepData* data_in) const {
  QuasiDynamicData& data = DataOf(data_in, "ClearWarmStart");
  program_->ClearWarmStart(data.workspace_.get());
}

}  // namespace quasidyn
