#include "quasidyn/control/plan_tracking.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/second_order_cost.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/planning/penetration_meter.h"

namespace quasidyn {

ScenePtr PerturbedScene(const Scene& scene, const PlantPerturbation& p) {
  constexpr const char* kWhere = "PerturbedScene";
  QUASIDYN_CHECK_ARGUMENT(p.object_offset.allFinite(), kWhere, "object_offset is not finite");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(p.friction_scale) && p.friction_scale > 0.0, kWhere,
                          "friction_scale must be > 0");
  QUASIDYN_CHECK_ARGUMENT(p.substeps >= 1, kWhere, "substeps must be >= 1");
  auto out = std::make_shared<Scene>(scene);
  for (const ModelInstance& instance : out->instances) {
    if (instance.actuated || instance.nq == 0) continue;
    const int dims = instance.nq == 3 ? 2 : 3;  // planar (x, y, θ) or floating (p, Q)
    out->q0.segment(instance.q_start, dims) += p.object_offset.head(dims);
  }
  for (CollisionGeometry& geometry : out->geometries) geometry.friction *= p.friction_scale;
  out->time_step = scene.time_step / p.substeps;
  return out;
}

PlantPerturbation RandomPerturbation(const Scene& scene, std::uint64_t seed, double offset,
                                     double friction_spread, int substeps) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::Vector3d direction(normal(rng), normal(rng), scene.planar ? 0.0 : normal(rng));
  PlantPerturbation p;
  p.object_offset = offset * direction.normalized();
  p.friction_scale = 1.0 + friction_spread * uniform(rng);
  p.substeps = substeps;
  return p;
}

void CheckSameCoordinates(const Scene& model, const Scene& plant) {
  auto check = [](int a, int b, const char* name) {
    QUASIDYN_CHECK_ARGUMENT(a == b, "plant scene",
                            std::string("its ") + name + " = " + std::to_string(b) +
                                " does not match the model's " + std::to_string(a));
  };
  check(model.nq, plant.nq, "n_q");
  check(model.nq_u, plant.nq_u, "n_q,u (objects)");
  check(model.nq_a, plant.nq_a, "n_q,a (robots)");
  QUASIDYN_CHECK_ARGUMENT(model.planar == plant.planar, "plant scene",
                          "one scene is planar and the other is not");
}

ObjectError ObjectErrorOf(const Scene& scene, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& q_ref) {
  const int no = scene.nq_u;
  ObjectError out;
  bool ghost = false;  // the first object on planar ghost links (x, y, θ) in a 3D scene
  for (const ModelInstance& instance : scene.instances)
    if (!instance.actuated && instance.nq > 0) {
      ghost = OnPlanarGhostLinks(scene, instance);
      break;
    }
  if (scene.planar || ghost) {
    out.position = (q.head(std::min(no, 2)) - q_ref.head(std::min(no, 2))).norm();
    out.angle = no >= 3 ? std::abs(std::remainder(q(2) - q_ref(2), 2.0 * M_PI)) : 0.0;
  } else if (no >= 7) {
    out.position = (q.head(3) - q_ref.head(3)).norm();
    const Eigen::Quaterniond a(q(3), q(4), q(5), q(6));
    const Eigen::Quaterniond b(q_ref(3), q_ref(4), q_ref(5), q_ref(6));
    out.angle = a.normalized().angularDistance(b.normalized());
  }
  return out;
}

namespace {

// D K⁻¹ per actuated joint [s]: how long a joint of a second-order plant trails a command moving
// at a constant rate (its steady lag D u̇ / K), with D the plant's own damping (the joints'
// `damping`, else critical at q0, as SecondOrderModel takes it).
Eigen::VectorXd CommandLeadTime(const ScenePtr& scene) {
  return ActuatedDampingAtStart(scene).cwiseQuotient(scene->ActuatedStiffness());
}

}  // namespace

const SettingsSchema<TrackingSettings>& TrackingSettingsSchema() {
  static const SettingsSchema<TrackingSettings>* const schema = [] {
    using S = TrackingSettings;
    auto* s = new SettingsSchema<S>(
        "tracking",
        "a plan executed on a plant that differs from the model, its regrasps as motions "
        "(docs/control.md, \"Plant ≠ model\", \"Tracking through regrasps\")");
    s->Field("ramp_substeps", &S::ramp_substeps)
        .Name("ramp")
        .Doc(
            "with n > 1 plant substeps, substep j is commanded a + (j/n)(u − a) from where the "
            "robots are, a (false: u on every substep)");
    s->Field("velocity_feedforward", &S::velocity_feedforward)
        .Doc(
            "a second-order plant's robots get the command's rate too: D K⁻¹ (u − a)/h is added "
            "to each substep's command, so the impedance acts as K (u − q) + D (u̇ − v) and does "
            "not trail the command by D u̇ / K (false: damped toward rest)");
    s->Include("regrasp", &S::regrasp, RegraspMotionSettingsSchema(), "regrasp_");
    s->Field("regrasp_jump", &S::regrasp_jump)
        .Doc(
            "a diagnostic: each regrasp puts the plant's robots at the plan's new grasp, at rest, "
            "with no plant step (a jump no plant makes), to measure what the regrasp motions "
            "cost");
    return s;
  }();
  return *schema;
}

TrackingResult TrackPlan(const StepModel& plant, int substeps, const Eigen::VectorXd& q0,
                         const std::vector<Eigen::VectorXd>& q_ref,
                         const std::vector<Eigen::VectorXd>& u_ref, PlanController* controller,
                         const TrackingSettings& settings) {
  const std::vector<bool>& regrasp_steps = settings.regrasp_steps;
  const RegraspMotionSettings& regrasp = settings.regrasp;
  constexpr const char* kWhere = "TrackPlan";
  const int T = static_cast<int>(u_ref.size());
  const Scene& scene = plant.scene();
  QUASIDYN_CHECK_ARGUMENT(substeps >= 1, kWhere, "substeps must be >= 1");
  if (const std::optional<SettingsProblem> p =
          CheckSettingsBlock(TrackingSettingsSchema(), settings))
    settings_detail::ThrowSettingProblem(TrackingSettingsSchema().block(), p->field, p->problem);
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(q_ref.size()) == T + 1 && T >= 1, kWhere,
                          "the plan needs T >= 1 commands and T + 1 configurations");
  QUASIDYN_CHECK_ARGUMENT(regrasp_steps.empty() || static_cast<int>(regrasp_steps.size()) == T,
                          kWhere, "regrasp_steps must be empty or have one entry per command");
  CheckVector(kWhere, "q0", q0, plant.state_q_size(), "the plant's n_q");
  for (int t = 0; t <= T; ++t)
    CheckVector(kWhere, "q_ref", q_ref[t], plant.state_q_size(), "the plant's n_q");
  for (int t = 0; t < T; ++t) CheckVector(kWhere, "u_ref", u_ref[t], plant.control_size(), "n_q,a");
  QUASIDYN_CHECK_ARGUMENT(
      !settings.velocity_feedforward ||
          (plant.state_v_size() > 0 &&
           plant.capabilities().command == CommandKind::kRobotPositions),
      kWhere,
      "velocity_feedforward needs a plant with a velocity state whose robots are commanded by "
      "positions (a second-order formulation); the plant's formulation '" +
          plant.formulation().name + "' is not one");
  // D K⁻¹ [s] with the feed-forward; the lead added to a control step's substeps (zero without).
  const Eigen::VectorXd lead_per_rate =
      settings.velocity_feedforward ? CommandLeadTime(plant.scene_ptr()) : Eigen::VectorXd();
  Eigen::VectorXd lead = Eigen::VectorXd::Zero(scene.nq_a);
  const bool has_regrasps =
      std::find(regrasp_steps.begin(), regrasp_steps.end(), true) != regrasp_steps.end();
  std::unique_ptr<RegraspMotion> motion;
  if (has_regrasps) motion = std::make_unique<RegraspMotion>(plant.scene_ptr(), regrasp);
  PenetrationMeter meter(plant.scene_ptr());
  std::unique_ptr<StepData> data = plant.CreateData();
  TrackingResult out;
  out.q.push_back(q0);
  out.min_lifted_distance = regrasp.clearance;
  out.start_penetration = meter.Depth(q0);  // a given q0 may overlap: reported apart
  // The plant's whole state: a second-order plant's velocity starts at rest and carries over
  // from one control step to the next (the controllers measure q only).
  State x{q0, Eigen::VectorXd::Zero(plant.state_v_size())};
  // One plant step under u; false (and the message set) when it fails.
  auto step = [&](int t, const Eigen::VectorXd& u, double* depth) {
    const Eigen::VectorXd start = x.q;
    plant.Calc(x, u, data.get());
    if (!data->result.ok()) {
      out.status = data->result.status;
      out.message = "plant step " + std::to_string(t + 1) + " failed: " + data->result.message;
      return false;
    }
    x = data->result.next;
    *depth = meter.StepDepth(plant, start, data->result);
    out.max_penetration = std::max(out.max_penetration, *depth);
    return true;
  };
  Eigen::VectorXd last_target = q0.tail(scene.nq_a);  // the robots' last commanded positions
  for (int t = 0; t < T; ++t) {
    if (Cancelled(settings.cancel)) {
      out.stopped = out.interrupted = true;
      break;
    }
    double depth = 0.0;
    if (has_regrasps && regrasp_steps[t]) {
      ++out.regrasps;
      RegraspRecord record;
      record.step = t;
      const Eigen::VectorXd start = x.q;
      if (settings.regrasp_jump) {  // the diagnostic: the robots put at the grasp, at rest
        record.fingers_moved = motion->FingersMoved(q_ref[t], q_ref[t + 1]);
        x.q.tail(scene.nq_a) = q_ref[t + 1].tail(scene.nq_a);
        if (x.v.size() > 0) x.v.tail(scene.nv_a).setZero();
        last_target = x.q.tail(scene.nq_a);
      } else {
        const RegraspCommands commands = motion->Plan(q_ref[t], q_ref[t + 1], last_target, x.q);
        out.min_lifted_distance = std::min(out.min_lifted_distance, commands.min_lifted_distance);
        if (!commands.ok) {  // refused by the motion's step limit (regrasp_motion.h)
          out.status = SolverStatus::kMaxIterations;
          out.regrasp_refused = true;
          out.message = "regrasp at plan step " + std::to_string(t) + ": " + commands.message;
          break;
        }
        for (const Eigen::VectorXd& target : commands.commands) {
          if (!step(t, plant.CommandToward(x, target), &depth)) break;
          ++out.regrasp_plant_steps;
          out.max_regrasp_penetration = std::max(out.max_regrasp_penetration, depth);
          const ObjectError moved = ObjectErrorOf(scene, x.q, start);
          out.max_regrasp_object_motion = std::max(out.max_regrasp_object_motion, moved.position);
          out.max_regrasp_object_rotation = std::max(out.max_regrasp_object_rotation, moved.angle);
        }
        if (!out.message.empty()) break;
        record.fingers_moved = commands.fingers_moved;
        record.plant_steps = static_cast<int>(commands.commands.size());
        record.lifted_distance = commands.min_lifted_distance;
        last_target = commands.commands.back();
      }
      record.error_before = ObjectErrorOf(scene, start, q_ref[t]);
      record.error_after = ObjectErrorOf(scene, x.q, q_ref[t + 1]);
      record.moved = ObjectErrorOf(scene, x.q, start);
      out.regrasp_records.push_back(record);
      out.u.push_back(plant.CommandToward(x, last_target));
      out.q.push_back(x.q);
      if (settings.stop && settings.stop(t + 1, x.q)) {
        out.stopped = true;
        break;
      }
      continue;
    }
    const Eigen::VectorXd u = controller ? controller->Command(t, out.q.back()) : u_ref[t];
    out.u.push_back(u);
    const bool ramp = settings.ramp_substeps && substeps > 1 &&
                      plant.capabilities().command == CommandKind::kRobotPositions;
    const Eigen::VectorXd held = x.q.tail(scene.nq_a);
    if (settings.velocity_feedforward)
      lead = lead_per_rate.cwiseProduct(u - held) / (substeps * plant.time_step());
    for (int s = 1; s <= substeps; ++s) {
      const double fraction = static_cast<double>(s) / substeps;
      if (!step(t,
                Eigen::VectorXd((ramp && s < substeps ? held + fraction * (u - held) : u) + lead),
                &depth))
        break;
    }
    if (!out.message.empty()) break;
    if (plant.capabilities().command == CommandKind::kRobotPositions)
      last_target = u;
    else
      last_target = x.q.tail(scene.nq_a);
    out.q.push_back(x.q);
    if (settings.stop && settings.stop(t + 1, x.q)) {
      out.stopped = true;
      break;
    }
  }
  const int no = scene.nq_u;
  const int end = out.stopped ? static_cast<int>(out.q.size()) - 1 : T;
  out.final_object_error = out.q.back().head(no) - q_ref[end].head(no);
  const ObjectError error = ObjectErrorOf(scene, out.q.back(), q_ref[end]);
  out.final_position_error = error.position;
  out.final_angle_error = error.angle;
  return out;
}

}  // namespace quasidyn
