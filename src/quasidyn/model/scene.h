#pragma once
// The const description of a simulated scene: bodies, joints, model instances
// (robots and objects), collision geometry, and the simulation parameters.
// Read from a scene file by io/scene_document.h and checked by scenes/scene_loading.h
// (LoadScene); read by every layer above.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/model/formulation_choice.h"
#include "quasidyn/model/mpc_settings.h"
#include "quasidyn/model/planning_settings.h"
#include "quasidyn/model/shape.h"
#include "quasidyn/model/simulator_conventions.h"
#include "quasidyn/model/value_source.h"

namespace quasidyn {

// Joint types and their coordinates (q) and velocities (v), all relative to the
// joint frame J, which is fixed in the parent body at X_PJ:
//   fixed      nq = nv = 0.
//   revolute   nq = nv = 1: angle θ [rad] about `axis` (unit, in J).
//   prismatic  nq = nv = 1: displacement d [m] along `axis` (unit, in J).
//   planar     nq = nv = 3: (x [m], y [m], θ [rad]): translation along J's x and y,
//              then rotation about J's z. Used for objects of planar scenes.
//   floating   nq = 7, nv = 6: q = (p [m] in J, unit quaternion (w, x, y, z) of the
//              child in J); v = (ṗ [m/s], ω [rad/s]) both expressed in J. The parent
//              of a floating joint is the world. Used for objects of 3D scenes.
enum class JointType { kFixed, kRevolute, kPrismatic, kPlanar, kFloating };

const char* JointTypeName(JointType type);
int JointNq(JointType type);
int JointNv(JointType type);

struct Body {
  std::string name;                                   // unique in the scene; bodies[0] is "world"
  double mass = 0.0;                                  // [kg], > 0 for every body but the world
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      // centre of mass in B [m]
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // about the com, in B [kg·m²], SPD
  // A robot's link only: where its inertia was given when it is singular (positive
  // semidefinite with a zero principal moment, qsim's rods with iyy = 0); file empty when the
  // inertia is positive definite. The quasi-dynamic formulations never use a robot's inertia;
  // those that use the robots' mass matrix (FormulationCapabilities::robot_inertia) refuse it.
  ValueSource singular_inertia;
  int parent_joint = -1;  // index into Scene::joints; -1 for the world
  int instance = -1;      // index into Scene::instances; -1 for the world
};

struct Joint {
  std::string name;  // unique in the scene
  JointType type = JointType::kFixed;
  int parent_body = 0;                                     // index into Scene::bodies
  int child_body = 0;                                      // index into Scene::bodies
  Eigen::Isometry3d X_PJ = Eigen::Isometry3d::Identity();  // joint frame in the parent
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();         // unit, in J (revolute, prismatic)
  int q_start = 0;                                         // first index of this joint in q
  int v_start = 0;                                         // first index of this joint in v
  // Impedance of an actuated joint: stiffness K [N/m prismatic, N·m/rad revolute], > 0.
  // Zero for the joints of objects (un-actuated).
  double stiffness = 0.0;
  // Damping D of an actuated joint [N·s/m prismatic, N·m·s/rad revolute], >= 0, used by the
  // second-order models only (stepping/second_order_model.h: the robot's torque
  // K(q̄ − q) − D q̇). Empty: the default there, critical damping of the joint's own inertia at
  // q0, D = 2·sqrt(K·M_jj(q0)). Unset for the joints of objects.
  std::optional<double> damping;
  // Position limits of a revolute [rad] or prismatic [m] joint (URDF <limit lower upper>),
  // lower_limit <= upper_limit; ±inf when the joint has none (every other joint type).
  double lower_limit = -std::numeric_limits<double>::infinity();
  double upper_limit = std::numeric_limits<double>::infinity();
};

// A robot (actuated, fixed base, revolute/prismatic/fixed joints only) or an object
// (un-actuated: one joint to the world, floating in 3D, planar, fixed, revolute or prismatic,
// and, in an articulated object such as a door or a drawer, revolute, prismatic and fixed
// joints between its bodies; no stiffness: only contact, gravity and its mass move them).
struct ModelInstance {
  std::string name;         // unique in the scene
  bool actuated = false;    // robots are actuated, objects are not
  std::vector<int> bodies;  // indices into Scene::bodies
  std::vector<int> joints;  // indices into Scene::joints, parents first
  int q_start = 0, nq = 0;  // its block of q
  int v_start = 0, nv = 0;  // its block of v
  // The URDF file it was read from, as the scene loader resolved it (relative to the working
  // folder or absolute); empty for inline models. Lets a program tell a scene's input files.
  std::string source_file;
};

// Piecewise-linear commands q̄_a(t) for one robot: knot times [s] strictly increasing,
// one commanded position vector (size = the robot's nv) per knot. Before the first
// knot the first position holds, after the last knot the last one.
struct RobotSchedule {
  int instance = -1;  // index into Scene::instances
  std::vector<double> times;
  std::vector<Eigen::VectorXd> positions;
};

// What a formulation reads from a scene file beyond the scene format's own keys (ecp's
// objects[].impulses, halm-posa's objects[].limit_surface): read by that formulation's own
// reader (formulations/<name>/, through formulations/registry.h) and kept in
// Scene::extensions under the formulation's name.
class SceneExtension {
 public:
  virtual ~SceneExtension() = default;
  // The time of its last timed event [s] (an applied impulse), which a run of the scene
  // reaches (Scene::ScheduleEnd); 0 when it has none.
  virtual double LastEventTime() const { return 0.0; }
};

// How two shapes' friction coefficients combine into the contact's μ.
enum class FrictionCombination { kMin, kGeometricMean, kHarmonic };

struct Scene {
  std::string name;
  std::string source_file;  // for error messages; empty for inline scenes
  // A side file's base (io/side_file.h: the unchanged file it adds a start and blocks to), as
  // resolved; empty otherwise. An input of every run, which no output may overwrite.
  std::string base_file;
  // What the loader read but ignores, one message per item naming the element and the file
  // (and line where known), e.g. an SDF <plugin> or an MJCF <actuator>: the command line
  // prints them, Python has Scene.warnings.
  std::vector<std::string> warnings;
  bool planar = false;                       // bodies move in the world x-y plane
  Eigen::Vector3d gravity{0.0, 0.0, -9.81};  // [m/s²]
  double time_step = 0.01;                   // h [s], > 0
  // How long a run of the scene lasts when nothing else says [s], > 0, or 0: the end of its
  // command schedule (ScheduleEnd). For scenes whose objects are driven by applied impulses
  // and initial velocities (ecp) rather than by a robot schedule.
  double duration = 0.0;
  double contact_tolerance = 0.01;  // ε [m], >= 0: contacts with φ <= ε are kept
  // n_d, the friction-pyramid ray count (3D: >= 3; 2 with conventions.friction_ray_basis qsim)
  int friction_rays = 4;
  FrictionCombination friction_combination = FrictionCombination::kHarmonic;
  // The `conventions:` block: quasidyn's or qsim's ray basis, quaternion update and joint limits
  // (model/simulator_conventions.h).
  SimulatorConventions conventions;
  // The `formulation:` block: the formulation's name and its parameters as the file gave them
  // (model/formulation_choice.h); their meaning is the formulation's (formulations/<name>/).
  SceneFormulation formulation;

  std::vector<Body> bodies;  // bodies[0] is the world
  std::vector<Joint> joints;
  std::vector<ModelInstance> instances;  // objects first, then robots (q = [q_u; q_a])
  std::vector<CollisionGeometry> geometries;
  // What the viewer draws besides the collision shapes (URDF/SDF/MJCF <visual>); a body with
  // visuals is drawn by them instead of its collision shapes.
  std::vector<VisualGeometry> visuals;
  // Pairs of bodies whose shapes never collide (indices, first < second). Bodies joined
  // by a joint are filtered automatically by the loader.
  std::vector<std::pair<int, int>> collision_filter;

  Eigen::VectorXd q0;  // initial configuration (size nq)
  // Initial generalized velocity (size nv [m/s, rad/s], floating bodies (ṗ, ω) in the world),
  // the second-order models' v(0) (stepping/step_model.h, InitialState); empty: at rest. The
  // quasi-dynamic models have no velocity and ignore it.
  Eigen::VectorXd v0;
  std::vector<RobotSchedule> schedules;
  // The file's optional `planning:` block (planning_settings.h), checked against the scene at
  // load; empty when the file has none.
  std::optional<PlanningSettings> planning;
  // The file's optional `mpc:` block (mpc_settings.h: the MPC through contact of
  // control/contact_mpc.h), checked against the scene at load; empty when the file has none.
  std::optional<MpcSettings> mpc;

  int nq = 0, nv = 0;      // totals
  int nq_u = 0, nv_u = 0;  // un-actuated (objects) block, first
  int nq_a = 0, nv_a = 0;  // actuated (robots) block, after; nq_a == nv_a
  // τ_ext, a constant external generalized force on the objects' velocities (size n_v,u, or
  // empty for none): per object, floating (f [N], m [N·m]) in the world, the moment about
  // the body origin; planar (f_x, f_y [N], m_z [N·m]). Added to gravity in the step's τ_u
  // (dynamics/quasi_dynamic_cost.h); StepData::external_force overrides it for one step.
  Eigen::VectorXd external_force;
  // What formulations read from the file beyond the scene format (SceneExtension), by the
  // formulation's name.
  std::map<std::string, std::shared_ptr<const SceneExtension>> extensions;

  int BodyIndex(const std::string& name) const;      // -1 when absent
  int InstanceIndex(const std::string& name) const;  // -1 when absent
  int GeometryIndex(const std::string& name) const;  // -1 when absent
  bool IsFiltered(int body_a, int body_b) const;
  // True when some joint has a finite position limit (Joint::lower_limit / upper_limit).
  bool HasJointLimits() const;
  // K_a, the diagonal of actuated joint stiffnesses (size nv_a).
  Eigen::VectorXd ActuatedStiffness() const;
  // The commanded q̄_a at time t [s] (size nq_a); robots without a schedule hold q0. Before the
  // first knot it is the first knot, after the last the last (t = ±inf included); throws
  // std::invalid_argument on a NaN t.
  Eigen::VectorXd CommandAt(double t) const;
  // The same into *u (resized to nq_a): no allocation when u already has that size (a
  // rollout's command buffer).
  void CommandAt(double t, Eigen::VectorXd* u) const;
  // The end of the run [s]: the last knot time or the extensions' last event (an applied
  // impulse), or `duration` when later; 0 if none.
  double ScheduleEnd() const;
  // The extension that formulation `name` read, as its type; nullptr when absent.
  template <typename Extension>
  const Extension* ExtensionOf(const std::string& owner) const {
    const auto it = extensions.find(owner);
    return it == extensions.end() ? nullptr : dynamic_cast<const Extension*>(it->second.get());
  }
};

// How every object that reads a scene after its constructor keeps it: shared ownership, so
// the scene lives as long as its last user (a step model, its data, a kinematics object) and
// no reference can outlive it.
using ScenePtr = std::shared_ptr<const Scene>;

// A ScenePtr that does not own `scene`, for an object (a Kinematics, say) created and dropped
// inside one function that has the scene by reference: the function's caller keeps the scene
// alive for the call. Never store the result beyond that call.
inline ScenePtr BorrowScene(const Scene& scene) { return ScenePtr(ScenePtr(), &scene); }

}  // namespace quasidyn
