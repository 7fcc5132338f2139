#include "quasidyn/model/scene.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "quasidyn/model/welded_bodies.h"

namespace quasidyn {

const char* JointTypeName(JointType type) {
  switch (type) {
    case JointType::kFixed:
      return "fixed";
    case JointType::kRevolute:
      return "revolute";
    case JointType::kPrismatic:
      return "prismatic";
    case JointType::kPlanar:
      return "planar";
    case JointType::kFloating:
      return "floating";
  }
  return "unknown";
}

int JointNq(JointType type) {
  switch (type) {
    case JointType::kFixed:
      return 0;
    case JointType::kRevolute:
    case JointType::kPrismatic:
      return 1;
    case JointType::kPlanar:
      return 3;
    case JointType::kFloating:
      return 7;
  }
  return 0;
}

int JointNv(JointType type) { return type == JointType::kFloating ? 6 : JointNq(type); }

namespace {
template <typename Items>
int IndexByName(const Items& items, const std::string& name) {
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].name == name) return static_cast<int>(i);
  return -1;
}
}  // namespace

int Scene::BodyIndex(const std::string& n) const { return IndexByName(bodies, n); }
int Scene::InstanceIndex(const std::string& n) const { return IndexByName(instances, n); }
int Scene::GeometryIndex(const std::string& n) const { return IndexByName(geometries, n); }

bool Scene::HasJointLimits() const {
  return std::any_of(joints.begin(), joints.end(), [](const Joint& j) {
    return std::isfinite(j.lower_limit) || std::isfinite(j.upper_limit);
  });
}

// The same body, a pair of the filter list, or two bodies welded together (welded_bodies.h).
bool Scene::IsFiltered(int body_a, int body_b) const {
  if (body_a == body_b) return true;
  const std::pair<int, int> key{std::min(body_a, body_b), std::max(body_a, body_b)};
  if (std::find(collision_filter.begin(), collision_filter.end(), key) != collision_filter.end())
    return true;
  const int n = static_cast<int>(bodies.size());
  if (body_a < 0 || body_b < 0 || body_a >= n || body_b >= n) return false;
  const std::vector<int> root = WeldRoots(*this);
  return root[body_a] == root[body_b];
}

Eigen::VectorXd Scene::ActuatedStiffness() const {
  Eigen::VectorXd k = Eigen::VectorXd::Zero(nv_a);
  for (const Joint& joint : joints) {
    const int nv_joint = JointNv(joint.type);
    for (int i = 0; i < nv_joint; ++i) {
      const int row = joint.v_start + i - nv_u;
      if (row >= 0 && row < nv_a) k[row] = joint.stiffness;
    }
  }
  return k;
}

Eigen::VectorXd Scene::CommandAt(double t) const {
  Eigen::VectorXd u;
  CommandAt(t, &u);
  return u;
}

void Scene::CommandAt(double t, Eigen::VectorXd* u) const {
  if (std::isnan(t)) throw std::invalid_argument("Scene::CommandAt: t must not be NaN");
  // Robots have nq == nv, so the actuated block of q starts at nq_u.
  *u = q0.segment(nq_u, nq_a);
  for (const RobotSchedule& schedule : schedules) {
    const ModelInstance& robot = instances[schedule.instance];
    const auto& ts = schedule.times;
    if (ts.empty()) continue;
    auto value = u->segment(robot.q_start - nq_u, robot.nq);
    if (t <= ts.front()) {
      value = schedule.positions.front();
    } else if (t >= ts.back()) {
      value = schedule.positions.back();
    } else {  // linear between the knots around t
      const size_t k = std::upper_bound(ts.begin(), ts.end(), t) - ts.begin();
      const double s = (t - ts[k - 1]) / (ts[k] - ts[k - 1]);
      value = (1.0 - s) * schedule.positions[k - 1] + s * schedule.positions[k];
    }
  }
}

double Scene::ScheduleEnd() const {
  double end = duration;
  for (const RobotSchedule& s : schedules)
    if (!s.times.empty()) end = std::max(end, s.times.back());
  for (const auto& entry : extensions) end = std::max(end, entry.second->LastEventTime());
  return end;
}

}  // namespace quasidyn
