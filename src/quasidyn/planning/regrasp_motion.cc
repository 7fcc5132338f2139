#include "quasidyn/planning/regrasp_motion.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {
constexpr const char* kRegraspWhere = "RegraspMotion";
// A row of the lift counts as met when φ_i is within this of its target c_i [m].
constexpr double kLiftTolerance = 1e-6;
}  // namespace

const SettingsSchema<RegraspMotionSettings>& RegraspMotionSettingsSchema() {
  static const SettingsSchema<RegraspMotionSettings>* const schema = [] {
    using R = RegraspMotionSettings;
    auto* s = new SettingsSchema<R>(
        "regrasp_motion",
        "a planner's regrasp as a motion a plant executes: release, transfer and close finger by "
        "finger, the fingers lifted off the objects (docs/control.md, \"Tracking through "
        "regrasps\")");
    s->Number("clearance", &R::clearance)
        .Unit("m")
        .Within(kSettingLengthRange)
        .Doc("clearance c: how far the lifted fingers stay from the objects");
    s->Number("max_joint_step", &R::max_joint_step)
        .Unit("rad or m")
        .Within(kSettingLengthRange)
        .Doc("largest joint command change s per plant step");
    s->Integer("settle_steps", &R::settle_steps)
        .AtLeast(0)
        .Doc("plant steps that hold the new grasp after the close");
    s->Integer("max_lift_iterations", &R::max_lift_iterations)
        .AtLeast(1)
        .Doc("Gauss–Newton iterations of one lift off the objects");
    s->Integer("max_motion_steps", &R::max_motion_steps)
        .AtLeast(1)
        .Doc("the most plant steps one regrasp's motion may take (a longer one is refused)");
    s->Number("damping", &R::damping)
        .Unit("(m/rad)²")
        .Within(kSettingWeightRange)
        .Doc("least-squares damping λ of a lift");
    s->Field("relax_grip", &R::relax_grip)
        .Doc(
            "the grip's squeeze is let go before the first finger moves (false: the fingers "
            "that stay keep squeezing)");
    return s;
  }();
  return *schema;
}

RegraspMotion::RegraspMotion(ScenePtr scene, const RegraspMotionSettings& settings)
    : scene_(std::move(scene)),
      settings_(settings),
      kinematics_(scene_),
      geometry_(scene_),
      data_(geometry_.CreateData()) {
  if (const std::optional<SettingsProblem> p =
          CheckSettingsBlock(RegraspMotionSettingsSchema(), settings_))
    settings_detail::ThrowSettingProblem(RegraspMotionSettingsSchema().block(), p->field,
                                         p->problem);
  const Scene& s = *scene_;
  QUASIDYN_CHECK_ARGUMENT(s.nq_a > 0, kRegraspWhere, "the scene has no robot to regrasp with");
  robot_body_.assign(s.bodies.size(), false);
  object_body_.assign(s.bodies.size(), false);
  for (size_t b = 0; b < s.bodies.size(); ++b) {
    const int instance = s.bodies[b].instance;
    if (instance < 0) continue;
    robot_body_[b] = s.instances[instance].actuated;
    object_body_[b] = !s.instances[instance].actuated;
  }
  // Fingers: the robots' joints grouped by the topmost robot joint of their chain.
  std::vector<int> root_of(s.joints.size(), -1);
  for (const ModelInstance& instance : s.instances) {
    if (!instance.actuated) continue;
    for (int j : instance.joints) {  // parents first
      const int parent_joint = s.bodies[s.joints[j].parent_body].parent_joint;
      const bool parent_is_robot = robot_body_[s.joints[j].parent_body] && parent_joint >= 0;
      root_of[j] = parent_is_robot ? root_of[parent_joint] : j;
    }
  }
  std::vector<int> finger_of_root(s.joints.size(), -1);
  for (const ModelInstance& instance : s.instances) {
    if (!instance.actuated) continue;
    for (int j : instance.joints) {
      if (JointNq(s.joints[j].type) == 0) continue;
      int& finger = finger_of_root[root_of[j]];
      if (finger < 0) {
        finger = static_cast<int>(fingers_.size());
        fingers_.emplace_back();
      }
      fingers_[finger].push_back(s.joints[j].q_start - s.nq_u);
    }
  }
  for (const ModelInstance& instance : s.instances) {
    if (!instance.actuated) continue;
    for (int j : instance.joints) {
      const JointType type = s.joints[j].type;
      QUASIDYN_CHECK_ARGUMENT(type == JointType::kRevolute || type == JointType::kPrismatic ||
                                  type == JointType::kFixed,
                              kRegraspWhere,
                              "robot joint '" + s.joints[j].name + "' is " + JointTypeName(type) +
                                  "; a regrasp moves revolute and prismatic joints only");
    }
  }
}

Eigen::VectorXd RegraspMotion::Lift(const Eigen::VectorXd& q_in, double* distance,
                                    int* iterations) {
  return LiftJoints(q_in, std::vector<bool>(scene_->nq_a, true), distance, iterations);
}

Eigen::VectorXd RegraspMotion::LiftJoints(const Eigen::VectorXd& q_in,
                                          const std::vector<bool>& moving, double* distance,
                                          int* iterations) {
  const Scene& s = *scene_;
  CheckVector(kRegraspWhere, "q", q_in, s.nq, "n_q");
  const int na = s.nq_a;
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(moving.size()) == na, kRegraspWhere,
                          "the moving joints must have n_q,a entries");
  const double c = settings_.clearance;
  Eigen::VectorXd q = q_in;
  std::vector<Eigen::VectorXd> rows;
  std::vector<double> residuals;
  double reached = c;
  int iteration = 0;
  for (;; ++iteration) {
    kinematics_.Update(q);
    if (!geometry_.Query(kinematics_.BodyPoses(), c, &data_)) {
      reached = -std::numeric_limits<double>::infinity();  // no distance can be vouched for
      break;
    }
    rows.clear();
    residuals.clear();
    reached = c;
    for (const ContactCandidate& candidate : data_.candidates()) {
      const int body_a = s.geometries[candidate.geometry_a].body;
      const int body_b = s.geometries[candidate.geometry_b].body;
      if (!robot_body_[body_a] && !robot_body_[body_b]) continue;  // objects and the world
      // g = ∂φ/∂q_a = nᵀ (J_A(p_A) − J_B(p_B)), the moving joints' columns (the header).
      Eigen::VectorXd g = Eigen::VectorXd::Zero(na);
      const Eigen::Vector3d& n = candidate.point.normal;
      if (robot_body_[body_a]) {
        kinematics_.PointJacobian(body_a, candidate.point.p_A, &J_a_);
        g += (n.transpose() * J_a_.rightCols(na)).transpose();
      }
      if (robot_body_[body_b]) {
        kinematics_.PointJacobian(body_b, candidate.point.p_B, &J_b_);
        g -= (n.transpose() * J_b_.rightCols(na)).transpose();
      }
      for (int i = 0; i < na; ++i) {
        if (!moving[i]) g(i) = 0.0;
      }
      if (g.squaredNorm() == 0.0) continue;  // a pair the moving joints do not move
      const bool with_object = object_body_[body_a] || object_body_[body_b];
      const double phi = candidate.point.phi;
      if (with_object) reached = std::min(reached, phi);
      const double residual = (with_object ? c : 0.0) - phi;
      if (residual <= kLiftTolerance) continue;
      rows.push_back(std::move(g));
      residuals.push_back(residual);
    }
    if (rows.empty() || iteration == settings_.max_lift_iterations) break;
    const int m = static_cast<int>(rows.size());
    Eigen::MatrixXd G(m, na);
    Eigen::VectorXd r(m);
    for (int i = 0; i < m; ++i) {
      G.row(i) = rows[i].transpose();
      r(i) = residuals[i];
    }
    Eigen::MatrixXd GGt = G * G.transpose();
    GGt.diagonal().array() += settings_.damping;
    Eigen::VectorXd step = G.transpose() * GGt.llt().solve(r);
    const double largest = step.cwiseAbs().maxCoeff();
    if (largest > settings_.max_joint_step) step *= settings_.max_joint_step / largest;
    q.tail(na) += step;
  }
  if (distance) *distance = reached;
  if (iterations) *iterations = iteration;
  return q;
}

bool RegraspMotion::Moves(const std::vector<int>& finger, const Eigen::VectorXd& q_before,
                          const Eigen::VectorXd& q_after) const {
  const int nu = scene_->nq_u;
  for (int i : finger) {
    if (q_after(nu + i) != q_before(nu + i)) return true;
  }
  return false;
}

int RegraspMotion::FingersMoved(const Eigen::VectorXd& q_before,
                                const Eigen::VectorXd& q_after) const {
  CheckVector(kRegraspWhere, "q_before", q_before, scene_->nq, "n_q");
  CheckVector(kRegraspWhere, "q_after", q_after, scene_->nq, "n_q");
  int moved = 0;
  for (const std::vector<int>& finger : fingers_) moved += Moves(finger, q_before, q_after) ? 1 : 0;
  return moved;
}

bool RegraspMotion::Fits(double more, RegraspCommands* out) const {
  if (!out->ok) return false;
  const double total = static_cast<double>(out->commands.size()) + more;
  if (total <= settings_.max_motion_steps) return true;  // false for NaN too
  out->ok = false;
  out->message = "the regrasp's motion needs more than max_motion_steps = " +
                 std::to_string(settings_.max_motion_steps) + " plant steps (at least " +
                 (std::isfinite(total) ? std::to_string(static_cast<long long>(total)) : "∞") +
                 " at max_joint_step " + std::to_string(settings_.max_joint_step) + ")";
  out->commands.clear();
  return false;
}

bool RegraspMotion::AppendLine(const Eigen::VectorXd& from, const Eigen::VectorXd& to,
                               RegraspCommands* out) const {
  const double steps = std::ceil((to - from).cwiseAbs().maxCoeff() / settings_.max_joint_step);
  if (!Fits(steps, out)) return false;  // checked before the count becomes an int
  const int n = static_cast<int>(steps);
  for (int j = 1; j <= n; ++j) {
    out->commands.push_back(from + (to - from) * (j / static_cast<double>(n)));
  }
  return true;
}

RegraspCommands RegraspMotion::Plan(const Eigen::VectorXd& q_before, const Eigen::VectorXd& q_after,
                                    const Eigen::VectorXd& last_command) {
  return Plan(q_before, q_after, last_command, q_before);
}

RegraspCommands RegraspMotion::Plan(const Eigen::VectorXd& q_before, const Eigen::VectorXd& q_after,
                                    const Eigen::VectorXd& last_command,
                                    const Eigen::VectorXd& measured) {
  const Scene& s = *scene_;
  const int na = s.nq_a;
  CheckVector(kRegraspWhere, "q_before", q_before, s.nq, "n_q");
  CheckVector(kRegraspWhere, "measured", measured, s.nq, "n_q");
  CheckVector(kRegraspWhere, "q_after", q_after, s.nq, "n_q");
  CheckVector(kRegraspWhere, "last_command", last_command, na, "n_q,a");
  const Eigen::VectorXd& grasp = q_after.tail(na);
  RegraspCommands out;
  out.min_lifted_distance = settings_.clearance;
  // Hold: every finger commanded to where it is (measured: no squeeze left to push the objects
  // once a finger lets go), from the last command. The commanded positions so far: the fingers
  // not moved yet at their configuration, a moved one at its new grasp. The lifts keep clear
  // of the objects where they are (measured).
  Eigen::VectorXd held = settings_.relax_grip ? Eigen::VectorXd(measured.tail(na)) : last_command;
  if (!AppendLine(last_command, held, &out)) return out;
  out.release_steps = static_cast<int>(out.commands.size());
  Eigen::VectorXd q = measured;
  for (const std::vector<int>& finger : fingers_) {
    if (!Moves(finger, q_before, q_after)) continue;
    ++out.fingers_moved;
    std::vector<bool> moving(na, false);
    for (int i : finger) moving[i] = true;
    auto lift = [&](const Eigen::VectorXd& a) {
      q.tail(na) = a;
      double d = 0.0;
      int iterations = 0;
      Eigen::VectorXd lifted = LiftJoints(q, moving, &d, &iterations).tail(na);
      out.min_lifted_distance = std::min(out.min_lifted_distance, d);
      out.lift_iterations += iterations;
      return lifted;
    };
    const Eigen::VectorXd r_old = lift(held);
    Eigen::VectorXd a_new = held;
    for (int i : finger) a_new(i) = grasp(i);
    const Eigen::VectorXd r_new = lift(a_new);
    const size_t before = out.commands.size();
    if (!AppendLine(held, r_old, &out)) return out;
    out.release_steps += static_cast<int>(out.commands.size() - before);

    // Transfer: waypoints s apart on the joint-space line, each lifted again.
    const size_t transfer_start = out.commands.size();
    // Each waypoint is a command at least: refused here, before its Lifts, when they would not
    // fit (a wound grasp's span is unbounded).
    const double span = (r_new - r_old).cwiseAbs().maxCoeff();
    const double transfer = std::ceil(span / settings_.max_joint_step);
    if (!Fits(transfer, &out)) return out;
    const int waypoints = static_cast<int>(transfer);
    Eigen::VectorXd previous = r_old;
    for (int j = 1; j < waypoints; ++j) {
      const Eigen::VectorXd lifted = lift(r_old + (r_new - r_old) * (j / double(waypoints)));
      if (!AppendLine(previous, lifted, &out)) return out;
      previous = lifted;
    }
    if (!AppendLine(previous, r_new, &out)) return out;
    out.transfer_steps += static_cast<int>(out.commands.size() - transfer_start);

    const size_t close_start = out.commands.size();
    if (!AppendLine(r_new, a_new, &out)) return out;
    out.close_steps += static_cast<int>(out.commands.size() - close_start);
    held = a_new;
  }
  // g is held (the unmoved fingers' part of g is their configuration: already commanded).
  const size_t close_start = out.commands.size();
  if (!AppendLine(held, grasp, &out) || !Fits(settings_.settle_steps, &out)) return out;
  for (int j = 0; j < settings_.settle_steps; ++j) out.commands.push_back(grasp);
  if (out.commands.empty()) out.commands.push_back(grasp);  // a regrasp that moves nothing
  out.close_steps += static_cast<int>(out.commands.size() - close_start);
  return out;
}

}  // namespace quasidyn
