#include "quasidyn/formulations/halm_posa/halm_posa_model.h"

#include <cmath>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/failure_message.h"
#include "quasidyn/formulations/halm_posa/halm_posa_gradient.h"
#include "quasidyn/formulations/programs/quasistatic_lcp.h"
#include "quasidyn/stepping/step_outcome.h"

namespace quasidyn {
namespace {

constexpr const char* kDescription = "halm-posa LCP (Halm & Posa 2018, eqs. 37-38)";
// ε_data of the data contractions (contact_data_derivative.h) [m or rad]: ∛ε, as the
// quasi-dynamic models use.
constexpr double kDataStep = 6.0555e-6;

// The scene, checked for what the model assumes (halm_posa_model.h).
ScenePtr CheckedScene(ScenePtr scene) {
  QUASIDYN_CHECK_ARGUMENT(scene != nullptr, "halm-posa", "the scene is null");
  QUASIDYN_CHECK_ARGUMENT(scene->planar, "halm-posa",
                          "formulation.type: halm-posa is a planar model (objects sliding on the "
                          "x-y plane); scene '" +
                              scene->name + "' is 3D (dimension: 2 is needed)");
  QUASIDYN_CHECK_ARGUMENT(scene->gravity.head<2>().norm() == 0.0, "halm-posa",
                          "gravity: halm-posa scenes look down on a horizontal support plane, so "
                          "gravity must have no x-y part (scene '" +
                              scene->name + "' has [" + NumberText(scene->gravity.x()) + ", " +
                              NumberText(scene->gravity.y()) + ", 0]; set gravity: [0, 0, 0])");
  QUASIDYN_CHECK_ARGUMENT(scene->external_force.size() == 0, "halm-posa",
                          "objects[].external_force: halm-posa has no external forces (its "
                          "objects move only on their limit surfaces, pushed by the robots)");
  return scene;
}

}  // namespace

HalmPosaData::HalmPosaData(const HalmPosaModel* model, ContactData contact)
    : StepData(model),
      contact_(std::move(contact)),
      end_kinematics_(contact_.kinematics().model_ptr()) {
  // As every step reports it (a failed step's is zero, StepModel::Calc).
  result.joint_limit_impulse.setZero(model->scene().nv);
}

HalmPosaModel::HalmPosaModel(ScenePtr scene, double time_step, FormulationInfo formulation,
                             ParameterBlock reported, const HalmPosaParameters& parameters)
    : StepModel(scene, time_step, std::move(formulation), std::move(reported)),
      contact_(CheckedScene(scene)),
      surfaces_(ObjectLimitSurfaces(*scene)),
      parameters_(parameters),
      scaled_gains_(parameters.feedback_scale * parameters.feedback_gains),
      motion_(*scene, contact_.candidate_distance()) {
  CheckSize("halm-posa", "B", parameters.feedback_gains.rows(), scene->nq_a, "n_q,a");
  CheckSize("halm-posa", "B", parameters.feedback_gains.cols(), scene->nq_a, "n_q,a");
}

std::unique_ptr<StepData> HalmPosaModel::CreateData() const {
  return std::unique_ptr<StepData>(new HalmPosaData(this, contact_.CreateData()));
}

HalmPosaData& HalmPosaModel::DataOf(StepData* data, const char* where) const {
  CheckData(data, where);
  return static_cast<HalmPosaData&>(*data);  // CheckData: made by this model's CreateData
}

StepProblem HalmPosaModel::ProblemOf(const HalmPosaData& data) const {
  return StepProblem{scene(), data.contact_.contacts(), data.no_cost_, time_step()};
}

void HalmPosaModel::DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data_in) const {
  HalmPosaData& data = static_cast<HalmPosaData&>(*data_in);  // Calc: made by CreateData
  const Scene& scene = this->scene();
  const double h = time_step();

  if (Outcome query = QueryContacts(contact_, x.q, &data.contact_); !query)
    return FailStep(SolverStatus::kNumericalFailure, query.TakeMessage(), &data);
  const ContactSet& contacts = data.contact_.contacts();
  BuildHalmPosaMobility(surfaces_, x.q, scaled_gains_, &data.W_);
  BuildJointLimitRows(scene, x.q, h, &data.no_cost_.limits);
  BuildHalmPosaLcp(contacts, data.no_cost_.limits, data.W_, u, h, &data.lcp_);
  const LcpProblem& lcp = data.lcp_.lcp;
  if (!lcp.M.allFinite() || !lcp.q.allFinite()) {
    return FailStep(
        SolverStatus::kNumericalFailure,
        std::string(kDescription) +
            ": the LCP overflowed (positions, commands, gains or limit surfaces too large)",
        &data);
  }
  const LcpResult& solved = data.solver_.Solve(contacts, &data.lcp_, &data.warm_started_);
  const StepProblem problem = ProblemOf(data);
  const int nc = contacts.size();
  FormulationSolution& solution = data.solution_;
  if (!Succeeded(solved.status)) {
    // Rank the contacts at the commanded motion alone (v = d₀/h): the one it drives in deepest.
    Eigen::VectorXd commanded = data.lcp_.displacement_offset / h;
    std::string reason = solved.message;
    if (parameters_.feedback_scale == 0.0) {
      reason +=
          "; c = 0 is perfect velocity control, which has no solution when the command "
          "squeezes or jams (Halm & Posa 2018, section 4): use c > 0";
    }
    data.result.solver = SummaryOf(solved.info);
    return FailStep(solved.status, FailureMessage(problem, kDescription, reason, commanded), &data);
  }
  data.z_ = solved.z.cwiseMax(0.0);  // Lemke may leave −1e-16 where z is 0: impulses >= 0
  data.displacement_ = data.lcp_.displacement_offset;
  data.displacement_.noalias() += data.lcp_.displacement_map * data.z_;  // Δq, eqs. (32)-(33)
  const JointLimitRows& limits = data.no_cost_.limits;
  solution.Start(solved.status, SummaryOf(solved.info), data.displacement_, nc, limits.size());
  solution.v /= h;
  const int nd = contacts.ray_count();
  for (int i = 0; i < nc; ++i) {  // z in forces (rate form): impulses h z
    solution.normal_impulse[i] = h * data.z_[i];
    const ContactSet::RaysMap rays = contacts.Rays(i);
    for (int j = 0; j < nd; ++j)
      solution.friction_impulse[i] += h * data.z_[nc + nd * i + j] * rays.col(j);
  }
  solution.limit_impulse = h * data.z_.tail(limits.size());
  StepResult& result = data.result;
  result.status = solved.status;
  result.message = solved.message;
  result.solver = solution.solver;
  result.next.q = x.q;
  result.next.q += data.displacement_;  // planar: q ⊕ Δq = q + Δq
  // Finite inputs can still overflow here (robots at 1e308 commanded further out): a status,
  // not the kinematics' exception for a non-finite q⁺ below.
  if (!result.next.q.allFinite()) {
    return FailStep(SolverStatus::kNumericalFailure,
                    std::string(kDescription) +
                        ": the step's end configuration overflowed (positions or commands too "
                        "large)",
                    &data);
  }
  result.next.v.resize(0);
  motion_.Measure(data.contact_.kinematics(), result.next.q, &data.end_kinematics_, &result);
  result.velocity = solution.v;
  FillContactReports(problem, solution, &result.contacts);
  JointLimitImpulse(limits, solution.limit_impulse, scene.nv, &result.joint_limit_impulse);
}

void HalmPosaModel::DoCalcDiff(GradientMode mode, StepData* data_in) const {
  HalmPosaData& data = static_cast<HalmPosaData&>(*data_in);  // CalcDiff: made by CreateData
  StepDerivatives& out = data.derivatives;
  const HalmPosaStepInputs inputs{contact_,
                                  time_step(),
                                  surfaces_,
                                  data.q(),
                                  data.u(),
                                  data.contact_.contacts(),
                                  data.no_cost_.limits,
                                  data.W_,
                                  data.lcp_,
                                  data.z_,
                                  data.displacement_};
  HalmPosaGradient gradient =
      DifferentiateHalmPosaStep(inputs, mode == GradientMode::kAAndB, kDataStep);
  if (!gradient.ok) {
    out.status = SolverStatus::kNumericalFailure;
    out.message = "A: " + gradient.failure;
    return;
  }
  out.active_rows = gradient.active;
  out.A = std::move(gradient.A);
  out.B = std::move(gradient.B);
}

void HalmPosaModel::ClearWarmStart(StepData* data_in) const {
  DataOf(data_in, "ClearWarmStart").solver_.ClearWarmStart();
}

void HalmPosaModel::ScheduledCommandInto(double t, const State& x, Eigen::VectorXd* out) const {
  const double h = time_step();
  const Scene& scene = this->scene();
  CheckVector("ScheduledCommand", "x.q", x.q, scene.nq, "n_q");
  const Eigen::VectorXd previous = scene.CommandAt(t - h);
  Eigen::VectorXd& u = *out;
  scene.CommandAt(t, &u);
  u = (u - previous) / h;
  const double k_p = parameters_.tracking_gain;
  if (k_p > 0) u += k_p * (previous - x.q.tail(scene.nq_a));
  QUASIDYN_CHECK_ARGUMENT(u.allFinite(), "ScheduledCommand",
                          "the commanded velocity at t = " + NumberText(t) +
                              " s is not finite (the schedule's steps over h = " + NumberText(h) +
                              " s overflow)");
}

}  // namespace quasidyn
