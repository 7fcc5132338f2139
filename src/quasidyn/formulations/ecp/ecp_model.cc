#include "quasidyn/formulations/ecp/ecp_model.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/ecp/contact_frame.h"
#include "quasidyn/formulations/ecp/ecp_formulation.h"
#include "quasidyn/formulations/ecp/ecp_gradient.h"
#include "quasidyn/formulations/ecp/ecp_keys.h"
#include "quasidyn/formulations/ecp/posed_quadric.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/math/quaternion.h"
#include "quasidyn/math/rotation.h"
#include "quasidyn/stepping/step_outcome.h"

namespace quasidyn {
namespace {

const std::vector<AppliedImpulse> kNoImpulses;

using Eigen::Matrix3d;
using Eigen::Vector3d;

constexpr char kDescription[] = "ecp (Xie & Chakraborty, equivalent contact point NCP)";

// The 6-vector of block b of a vector (q: 7 per body, v and u: 6).
Vector3d Segment3(const Eigen::VectorXd& x, int start) { return x.segment<3>(start); }

}  // namespace

EcpData::EcpData(const EcpModel* model, std::shared_ptr<const EcpSystem> system)
    : StepData(model), function_(std::move(system)) {
  const EcpSystem& s = function_.system();
  solver_.Setup(s.kinds(), model->solver_settings());
  z0_.setZero(s.size());
  z_last_.setZero(s.size());
  warm_.assign(s.pairs().size(), 0);
  gap_start_.assign(s.pairs().size(), 0.0);
  speed_.assign(s.bodies().size(), 0.0);
  directions_.assign(s.pairs().size(), Eigen::Vector3d::UnitZ());
  X_WB_ = model->fixed_poses();
  z_restart_.setZero(s.size());
  result.contacts.reserve(s.pairs().size());
}

MixedNcpSettings EcpModel::DefaultSolverSettings() {
  // The scaled rows are O(1) m/s, m or dimensionless: 1e-9 is far below any physical effect and
  // well above rounding.
  MixedNcpSettings s;
  s.tolerance = 1e-9;
  s.inaccurate_tolerance = 1e-6;
  s.max_iterations = 100;
  return s;
}

EcpModel::EcpModel(ScenePtr scene, const EcpParameters& parameters, const MixedNcpSettings& solver)
    : EcpModel(std::move(scene), EcpFormulationInfo(), ReportedEcpParameters(parameters),
               parameters, solver) {}

EcpModel::EcpModel(ScenePtr scene, FormulationInfo formulation, ParameterBlock reported,
                   const EcpParameters& parameters, const MixedNcpSettings& solver)
    : StepModel(std::move(scene), parameters.time_step, std::move(formulation),
                std::move(reported)),
      solver_settings_(solver),
      geometry_(scene_ptr()) {
  ValidateMixedNcpSettings(solver);
  system_ = std::make_shared<const EcpSystem>(this->scene(), parameters);
  // The Newton systems eliminate the bodies' velocities first (their block of the Jacobian is the
  // scaled mass matrix plus O(h) terms: invertible).
  solver_settings_.eliminated_leading = 6 * static_cast<int>(system_->bodies().size());
  Kinematics kinematics(scene_ptr());
  kinematics.Update(this->scene().q0);
  fixed_X_WB_ = kinematics.BodyPoses();
  body_radius_.assign(system_->bodies().size(), 0.0);
  for (const EcpShape& shape : system_->shapes()) {
    if (shape.body_slot < 0) continue;
    body_radius_[shape.body_slot] =
        std::max(body_radius_[shape.body_slot],
                 shape.set.bounding_center.norm() + shape.set.bounding_radius);
  }
}

std::unique_ptr<StepData> EcpModel::CreateData() const {
  return std::unique_ptr<StepData>(new EcpData(this, system_));
}

EcpData& EcpModel::DataOf(StepData* data, const char* where) const {
  CheckData(data, where);
  return static_cast<EcpData&>(*data);
}

void EcpModel::LoadBodies(EcpData* data) const {
  const EcpSystem& system = *system_;
  for (int b = 0; b < static_cast<int>(system.bodies().size()); ++b) {
    const EcpBody& body = system.bodies()[b];
    EcpBodyState& s = data->function_.bodies()[b];
    const Eigen::Vector4d Q = data->q().segment<4>(body.q_start + 3);
    s.R = RotationMatrixFromQuaternion(Q);
    const Vector3d com = s.R * body.com;
    s.c = Segment3(data->q(), body.q_start) + com;
    s.w = Segment3(data->v(), body.v_start + 3);
    s.v = Segment3(data->v(), body.v_start) + s.w.cross(com);
    const Vector3d force = Segment3(data->u(), body.v_start);
    s.impulse = force;
    s.angular_impulse = Segment3(data->u(), body.v_start + 3) - com.cross(force);
  }
}

void EcpModel::DoCheckStep(const State& x, const Eigen::VectorXd& /*u*/,
                           const StepData& data) const {
  QUASIDYN_CHECK_ARGUMENT(data.external_force.size() == 0, "Calc",
                          "external_force: the ecp model takes applied forces through u (the "
                          "step's generalized impulse, ScheduledCommand adds h·external_force)");
  for (const EcpBody& body : system_->bodies()) {
    QUASIDYN_CHECK_ARGUMENT(
        x.q.segment<4>(body.q_start + 3).norm() > 0.0, "Calc",
        "x.q: the quaternion of object '" + scene().instances[body.instance].name + "' is zero");
  }
}

void EcpModel::DoCalc(const State& x, const Eigen::VectorXd& /*u*/, StepData* data_in) const {
  EcpData& data = static_cast<EcpData&>(*data_in);  // Calc: made by CreateData
  const Scene& scene = this->scene();
  const EcpSystem& system = *system_;
  const double h = time_step();
  LoadBodies(&data);
  PrepareStart(&data);
  // Finite inputs can still overflow here (an applied impulse of 1e308 over a body's inertia): a
  // status, not the Newton solver's exception for a non-finite start.
  if (!data.z0_.allFinite()) {
    return FailStep(SolverStatus::kNumericalFailure,
                    std::string(kDescription) +
                        ": the step's starting velocities overflowed (velocities or applied "
                        "impulses too large)",
                    &data);
  }

  data.restarts_ = 0;
  const MixedNcpResult& solved = data.solver_.Solve(data.function_, data.z0_);
  SolverSummary& summary = data.result.solver;
  int iterations = solved.info.iterations;
  double seconds = solved.info.solve_time_seconds;
  if (!Succeeded(solved.status)) {
    const SolverStatus status = solved.status;
    const std::string failure =
        std::string(kDescription) + ": the Newton iteration failed at " +
        (solved.worst_index >= 0 ? system.UnknownName(scene, solved.worst_index)
                                 : std::string("no unknown")) +
        " (residual " + NumberText(solved.info.residual) + "): " + solved.message;
    const bool restarted = Restart(&data);
    iterations += solved.info.iterations;  // and the last restart's (the others' are not summed)
    seconds += solved.info.solve_time_seconds;
    if (!restarted) {
      summary.iterations = iterations;
      summary.primal_residual = solved.info.residual;
      summary.solve_time_seconds = seconds;
      return FailStep(status,
                      failure + "; the solves restarted from " + std::to_string(data.restarts_) +
                          " other starting points did not converge either",
                      &data);
    }
  }
  summary.iterations = iterations;
  summary.primal_residual = solved.info.residual;
  summary.dual_residual = 0.0;
  summary.complementarity_gap = solved.info.merit;
  summary.solve_time_seconds = seconds;
  const Eigen::VectorXd& z = solved.z;
  data.z_last_ = z;
  for (int k = 0; k < static_cast<int>(system.pairs().size()); ++k) {
    data.warm_[k] = data.function_.active()[k];
  }
  // The end state: the poses the NCP was solved at (EcpStepFunction::end_com, end_rotation are
  // those of its last evaluation, which is at z).
  StepResult& result = data.result;
  result.status = solved.status;
  result.message.clear();
  result.next.q = x.q;
  result.next.v = x.v;
  for (int b = 0; b < static_cast<int>(system.bodies().size()); ++b) {
    const EcpBody& body = system.bodies()[b];
    const EcpBodyState& s = data.function_.bodies()[b];
    const Vector3d v_com = z.segment<3>(6 * b), w = z.segment<3>(6 * b + 3);
    const Eigen::Vector4d Q = IntegrateQuaternion(x.q.segment<4>(body.q_start + 3), w, h);
    const Matrix3d R = RotationMatrixFromQuaternion(Q);
    const Vector3d com = R * body.com;
    result.next.q.segment<3>(body.q_start) = s.c + h * v_com - com;
    result.next.q.segment<4>(body.q_start + 3) = Q;
    result.next.v.segment<3>(body.v_start) = v_com - w.cross(com);
    result.next.v.segment<3>(body.v_start + 3) = w;
  }
  result.velocity = result.next.v;  // then (q⁺ ⊖ q)/h below
  for (int b = 0; b < static_cast<int>(system.bodies().size()); ++b) {
    const EcpBody& body = system.bodies()[b];
    result.velocity.segment<3>(body.v_start) =
        (result.next.q.segment<3>(body.q_start) - x.q.segment<3>(body.q_start)) / h;
  }
  result.momentum_force.resize(0);
  // The pairs that touch (within the contact tolerance) or push, with their ECP and wrench.
  result.contacts.clear();
  for (int k = 0; k < static_cast<int>(system.pairs().size()); ++k) {
    if (!data.function_.active()[k]) continue;
    const EcpPair& pair = system.pairs()[k];
    const Vector3d a1 = z.segment<3>(pair.a1()), a2 = z.segment<3>(pair.a2());
    const double gap = z[pair.s()] >= 0.0 ? (a2 - a1).norm() : -(a2 - a1).norm();
    const double P = pair.impulse_scale;
    const double pn = P * std::max(z[pair.pn()], 0.0);
    if (gap > scene.contact_tolerance && pn == 0.0) continue;
    const EcpStepFunction::PairFrame& frame = data.function_.frame(k);
    ContactReport report;
    report.geometry_a = system.shapes()[pair.shape_f].geometry;
    report.geometry_b = system.shapes()[pair.shape_g].geometry;
    report.body_a = scene.geometries[report.geometry_a].body;
    report.body_b = scene.geometries[report.geometry_b].body;
    report.point = a2;
    report.normal = frame.n;
    report.phi_start = data.gap_start_[k];
    report.phi_end = gap;
    report.normal_impulse = pn;
    report.friction_impulse = P * (z[pair.pt()] * frame.t + z[pair.po()] * frame.o);
    report.torsional_impulse = P * z[pair.pr()];
    report.normal_force = pn / h;
    report.friction_force = report.friction_impulse / h;
    report.torsional_moment = report.torsional_impulse / h;
    result.contacts.push_back(report);
    data.gap_start_[k] = gap;  // the next step starts where this one ends
  }
}

void EcpModel::ScheduledCommandInto(double t, const State& x, Eigen::VectorXd* out) const {
  const Scene& scene = this->scene();
  const double h = time_step();
  QUASIDYN_CHECK_ARGUMENT(!std::isnan(t), "ScheduledCommand", "t is NaN");
  CheckVector("ScheduledCommand", "x.v", x.v, scene.nv, "n_v");
  Eigen::VectorXd& u = *out;
  u.setZero(scene.nv_u);
  if (scene.external_force.size() == scene.nv_u) u += h * scene.external_force;
  const EcpSceneKeys* keys = scene.ExtensionOf<EcpSceneKeys>(kEcpName);
  for (const AppliedImpulse& impulse : keys != nullptr ? keys->impulses : kNoImpulses) {
    const ModelInstance& object = scene.instances[impulse.instance];
    bool due;
    double scale = 1.0;
    if (impulse.trigger_component < 0 && impulse.duration > 0.0) {  // a force over a window
      const double slack = 1e-9 * h, start = t - h;
      due = start >= impulse.time - slack && start < impulse.time + impulse.duration - slack;
      scale = h;
    } else if (impulse.trigger_component < 0) {
      const double slack = 1e-9 * h;
      due = impulse.time >= t - h - slack && impulse.time < t - slack;
    } else {
      const double value = x.v[object.v_start + impulse.trigger_component];
      due = std::abs(value - impulse.trigger_value) <= impulse.trigger_tolerance;
    }
    if (due) u.segment<6>(object.v_start) += scale * impulse.impulse;
  }
}

void EcpModel::DoCalcDiff(GradientMode mode, StepData* data_in) const {
  EcpData& data = static_cast<EcpData&>(*data_in);  // CalcDiff: made by CreateData
  StepDerivatives& out = data.derivatives;
  EcpGradient gradient = DifferentiateEcpStep(scene(), data.function_, data.solver_, data.q(),
                                              data.v(), mode == GradientMode::kAAndB);
  if (!gradient.ok) return FailDerivatives(std::move(gradient.failure), &out);
  out.A = std::move(gradient.A);
  out.B = std::move(gradient.B);
}

void EcpModel::ClearWarmStart(StepData* data_in) const {
  EcpData& data = DataOf(data_in, "ClearWarmStart");
  std::fill(data.warm_.begin(), data.warm_.end(), 0);
}

}  // namespace quasidyn
