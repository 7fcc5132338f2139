#pragma once
// Assembles a Scene (model/scene.h) from instance descriptions read out of YAML or URDF:
// orders instances objects first then robots, orders each instance's joints parents first,
// assigns the q / v indices of every joint, fills nq, nv, nq_u, nv_u, nq_a, nv_a and q0,
// filters the bodies joined by a joint, and validates everything it is given. Every item
// carries the file, line and field it came from, so a problem becomes a SceneError there.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/model/scene.h"
#include "quasidyn/model/value_source.h"

namespace quasidyn {

// Where an item came from, for error messages (SceneError's file, 1-based line, field).
using SourceLocation = ValueSource;

[[noreturn]] void ThrowAt(const SourceLocation& where, const std::string& problem);
// ThrowAt for a model file at `path` that is not a regular file: a SceneFileNotFoundError
// (missing_file() = path) when nothing exists there, a SceneError otherwise (e.g. a folder).
[[noreturn]] void ThrowFileNotFoundAt(const SourceLocation& where, const std::string& problem,
                                      const std::string& path);

struct ShapeSpec {
  std::string name;  // unique in the scene
  Eigen::Isometry3d X_BS = Eigen::Isometry3d::Identity();
  Shape shape;
  double friction = 0.0;                     // μ [-], >= 0
  std::shared_ptr<const TriangleMesh> mesh;  // a convex hull's source mesh (viewer), or null
  SourceLocation where;
};

struct VisualSpec {
  std::string name;  // unique among the visuals
  Eigen::Isometry3d X_BV = Eigen::Isometry3d::Identity();
  Shape shape;                               // a primitive, when mesh is null
  std::shared_ptr<const TriangleMesh> mesh;  // in V, scaled [m]
};

struct BodySpec {
  std::string name;                                   // unique in the scene, not "world"
  double mass = 0.0;                                  // [kg], > 0 (or 0, see below)
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      // [m], in B
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // [kg·m²] about the com, SPD
  // True where the quasi-dynamic step never uses the body's mass (a robot's links: robots are
  // impedances; an object fixed to the world): mass 0 with a zero inertia is then accepted
  // (a URDF link without <inertial>). Objects that move always need mass > 0.
  bool massless_allowed = false;
  std::vector<ShapeSpec> shapes;
  std::vector<VisualSpec> visuals;  // drawn by the viewer only (Scene::visuals)
  SourceLocation where;
  SourceLocation inertia_where;  // for inertia errors; `where` when unset
};

struct JointSpec {
  std::string name;  // unique in the scene
  JointType type = JointType::kFixed;
  std::string parent;  // "world" or a body of the same instance
  std::string child;   // a body of the same instance
  Eigen::Isometry3d X_PJ = Eigen::Isometry3d::Identity();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  // non-zero; normalised by the builder
  // Position limits of a revolute [rad] or prismatic [m] joint, lower < upper; ±inf: none.
  double lower_limit = -std::numeric_limits<double>::infinity();
  double upper_limit = std::numeric_limits<double>::infinity();
  SourceLocation where;
};

struct CommandKnot {
  double time = 0.0;         // [s]
  Eigen::VectorXd position;  // q̄ of the robot (size = its nq)
  SourceLocation where;
};

struct InstanceSpec {
  std::string name;
  bool actuated = false;  // robot (true) or object (false)
  std::vector<BodySpec> bodies;
  std::vector<JointSpec> joints;  // exactly one joint per body (a tree)
  // Robots: K [N/m or N·m/rad] > 0, one value for every actuated joint or one per joint
  // (in the instance's parents-first joint order).
  std::vector<double> stiffness;
  SourceLocation stiffness_where;
  // Robots: D [N·s/m or N·m·s/rad] >= 0, as stiffness (one value or one per actuated joint);
  // empty: Joint::damping's default (second-order models only).
  std::vector<double> damping;
  SourceLocation damping_where;
  Eigen::VectorXd initial;  // size = the instance's nq
  SourceLocation initial_where;
  // v(0) of the instance (size its nv [m/s, rad/s]; Scene::v0); empty: at rest.
  Eigen::VectorXd initial_velocity;
  SourceLocation initial_velocity_where;
  std::vector<CommandKnot> commands;  // robots only; times strictly increasing
  // Objects: τ_ext on the object's velocities (size its n_v; Scene::external_force); empty:
  // none.
  Eigen::VectorXd external_force;
  SourceLocation external_force_where;
  SourceLocation where;
  std::string source_file;  // the URDF it was read from; empty for inline models
  // What its reader ignored (Scene::warnings), each naming the element and the file.
  std::vector<std::string> warnings;
  // Shapes its file fixes on the world (an MJCF <worldbody>'s own geoms: a floor plane is a
  // half_space), added to the environment.
  std::vector<ShapeSpec> world_shapes;
};

// A start given from outside the models (a side file's `initial:`, io/side_file.h): the q0 of
// the instances named, in place of their own, or the whole scene's q0 (objects first, then
// robots). Each is checked as an instance's `initial` (size, unit quaternions, limits), at
// `where`.
struct StartOverrides {
  struct Instance {
    std::string name;
    Eigen::VectorXd q;
    SourceLocation where;
  };
  std::vector<Instance> instances;  // by name; the others keep their own initial
  std::optional<Instance> whole;    // the scene's q0 (name unused)
  bool empty() const { return instances.empty() && !whole; }
};

class SceneBuilder {
 public:
  // `file` names the scene file in errors. The scene-wide parameters are set through
  // parameters() before Build().
  explicit SceneBuilder(const std::string& file);

  Scene& parameters() { return scene_; }

  void AddEnvironmentShape(const ShapeSpec& shape);  // fixed on the world body
  void AddInstance(const InstanceSpec& instance);
  void AddCollisionFilter(const std::string& body_a, const std::string& body_b,
                          const SourceLocation& where);
  // The start Build() gives the instances instead of their own initial; a name that is no
  // instance, or a whole q0 of the wrong size, fails at its `where`.
  void SetStarts(const StartOverrides& starts) { starts_ = starts; }

  // Assembles and validates; throws SceneError on the first problem.
  Scene Build() const;

 private:
  Scene scene_;
  std::vector<ShapeSpec> environment_;
  std::vector<InstanceSpec> instances_;
  struct FilterSpec {
    std::string a, b;
    SourceLocation where;
  };
  std::vector<FilterSpec> filters_;
  StartOverrides starts_;
};

}  // namespace quasidyn
