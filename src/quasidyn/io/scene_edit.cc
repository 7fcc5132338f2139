#include "quasidyn/io/scene_edit.h"

#include <cmath>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/model/physical_ranges.h"

namespace quasidyn {
namespace {

// Finite and within the loader's limit ±kMaxSceneNumber (loader_limits.h).
void CheckSceneNumbers(const char* where, const std::string& name,
                       const Eigen::Ref<const Eigen::VectorXd>& x) {
  CheckFinite(where, name, x);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    QUASIDYN_CHECK_ARGUMENT(std::abs(x[i]) <= kMaxSceneNumber, where,
                            name + "[" + std::to_string(i) + "] = " + NumberText(x[i]) +
                                " is beyond the scene limit of 1e12");
}

// Within the usable range of a positive physical input (model/physical_ranges.h), as the scene
// loader checks it: "Scene.with_time_step: h must lie within [1e-06, 10] s, got 1e-320".
void CheckInRange(const char* where, const std::string& name, double x,
                  const PhysicalRange& range) {
  QUASIDYN_CHECK_ARGUMENT(InPhysicalRange(range, x), where,
                          name + " " + PhysicalRangeProblem(range, x));
}

const ModelInstance& Robot(const Scene& scene, const std::string& robot, const char* where) {
  const int index = scene.InstanceIndex(robot);
  QUASIDYN_CHECK_ARGUMENT(index >= 0, where, "the scene has no robot '" + robot + "'");
  const ModelInstance& instance = scene.instances[index];
  QUASIDYN_CHECK_ARGUMENT(instance.actuated, where,
                          "'" + robot + "' is an object; only robots take this");
  return instance;
}

}  // namespace

Scene WithInitialConfiguration(const Scene& scene, const Eigen::VectorXd& q0, const char* where) {
  CheckSize(where, "q0", q0.size(), scene.nq, "n_q");
  CheckSceneNumbers(where, "q0", q0);
  Scene edited = scene;
  edited.q0 = q0;
  for (const Joint& joint : scene.joints) {
    if (joint.type != JointType::kFloating) continue;
    auto quaternion = edited.q0.segment<4>(joint.q_start + 3);
    const double norm = quaternion.norm();
    QUASIDYN_CHECK_ARGUMENT(std::abs(norm - 1.0) <= kUnitQuaternionTolerance, where,
                            "q0: the quaternion (w, x, y, z) of joint '" + joint.name +
                                "' must be unit to 1e-6 (norm " + NumberText(norm) + ")");
    quaternion /= norm;
  }
  return edited;
}

Scene WithCommands(const Scene& scene, const std::string& robot, const std::vector<double>& times,
                   const std::vector<Eigen::VectorXd>& positions, const char* where) {
  const ModelInstance& instance = Robot(scene, robot, where);
  const int index = scene.InstanceIndex(robot);
  QUASIDYN_CHECK_ARGUMENT(times.size() == positions.size(), where,
                          "times has " + std::to_string(times.size()) + " knots but positions " +
                              std::to_string(positions.size()) + ": one position per knot time");
  for (size_t k = 0; k < times.size(); ++k) {
    QUASIDYN_CHECK_ARGUMENT(std::isfinite(times[k]) && std::abs(times[k]) <= kMaxSceneNumber, where,
                            "times[" + std::to_string(k) + "] must be finite");
    QUASIDYN_CHECK_ARGUMENT(k == 0 || times[k] > times[k - 1], where,
                            "times must be strictly increasing (times[" + std::to_string(k) +
                                "] = " + NumberText(times[k]) + " after " +
                                NumberText(times[k - 1]) + ")");
    const std::string name = "positions[" + std::to_string(k) + "]";
    CheckSize(where, name, positions[k].size(), instance.nq, "the robot's n_q");
    CheckSceneNumbers(where, name, positions[k]);
  }
  Scene edited = scene;
  std::erase_if(edited.schedules, [index](const RobotSchedule& s) { return s.instance == index; });
  if (!times.empty()) edited.schedules.push_back({index, times, positions});
  return edited;
}

Scene WithStiffness(const Scene& scene, const std::string& robot, const Eigen::VectorXd& stiffness,
                    const char* where) {
  const ModelInstance& instance = Robot(scene, robot, where);
  std::vector<int> actuated;
  for (int j : instance.joints)
    if (scene.joints[j].stiffness > 0) actuated.push_back(j);
  QUASIDYN_CHECK_ARGUMENT(
      stiffness.size() == 1 || stiffness.size() == static_cast<Eigen::Index>(actuated.size()),
      where,
      "stiffness needs one value or " + std::to_string(actuated.size()) +
          " (one per actuated joint of '" + robot + "'), got " + std::to_string(stiffness.size()));
  CheckSceneNumbers(where, "stiffness", stiffness);
  for (Eigen::Index i = 0; i < stiffness.size(); ++i)
    CheckInRange(where, "stiffness[" + std::to_string(i) + "]", stiffness[i], kStiffnessRange);
  Scene edited = scene;
  for (size_t i = 0; i < actuated.size(); ++i)
    edited.joints[actuated[i]].stiffness = stiffness[stiffness.size() == 1 ? 0 : i];
  return edited;
}

Scene WithFriction(const Scene& scene, const std::string& shape, double friction,
                   const char* where) {
  const int index = scene.GeometryIndex(shape);
  QUASIDYN_CHECK_ARGUMENT(index >= 0, where, "the scene has no shape '" + shape + "'");
  CheckInRange(where, "friction of '" + shape + "'", friction, kFrictionRange);
  Scene edited = scene;
  edited.geometries[index].friction = friction;
  return edited;
}

Scene WithTimeStep(const Scene& scene, double time_step, const char* where) {
  CheckInRange(where, "h", time_step, kTimeStepRange);
  Scene edited = scene;
  edited.time_step = time_step;
  return edited;
}

Scene WithContactTolerance(const Scene& scene, double contact_tolerance, const char* where) {
  CheckInRange(where, "contact_tolerance", contact_tolerance, kContactToleranceRange);
  Scene edited = scene;
  edited.contact_tolerance = contact_tolerance;
  return edited;
}

}  // namespace quasidyn
