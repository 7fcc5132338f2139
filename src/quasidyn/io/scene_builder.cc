#include "quasidyn/io/scene_builder.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/model/physical_ranges.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {

void ThrowAt(const SourceLocation& where, const std::string& problem) {
  throw SceneError(where.file, where.line, where.field, problem);
}

void ThrowFileNotFoundAt(const SourceLocation& where, const std::string& problem,
                         const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    throw SceneFileNotFoundError(where.file, where.line, where.field, problem, path);
  ThrowAt(where, problem);
}

namespace {

// Relative tolerance for "symmetric" inertia matrices and "in-plane" frames: a few hundred
// machine epsilons, enough for values typed with ~15 digits or computed from rpy angles.
constexpr double kGeometryTolerance = 1e-9;

std::string Num(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// A frame whose motion stays in the world x-y plane: no z offset, rotation about z only.
bool IsInPlane(const Eigen::Isometry3d& X) {
  return std::abs(X.translation().z()) <= kGeometryTolerance &&
         (X.linear() * Eigen::Vector3d::UnitZ() - Eigen::Vector3d::UnitZ()).norm() <=
             kGeometryTolerance;
}

// A unit vector along `axis` (finite, not zero), computed without overflow or underflow of the
// squared norm (an axis [1e200, 0, 0] or [1e-170, 0, 0] is the x axis).
Eigen::Vector3d UnitAxis(const Eigen::Vector3d& axis) {
  const double largest = axis.cwiseAbs().maxCoeff();
  if (!(largest > 0.0) || !std::isfinite(largest)) return axis;  // fixed joints: unused
  return (axis / largest).normalized();
}

void ValidateShape(const ShapeSpec& s, bool planar, bool on_world) {
  const Shape& shape = s.shape;
  // Dimensions within [kMinShapeSize, kMaxShapeSize], a sphere's radius within
  // [kMinSphereRadius, kMaxShapeSize] (io/loader_limits.h).
  const auto positive = [&](double value, const char* what, double min = kMinShapeSize) {
    if (!(value > 0.0) || !std::isfinite(value)) {
      ThrowAt(s.where, std::string(what) + " must be > 0 (got " + Num(value) + ")");
    }
    if (value < min || value > kMaxShapeSize) {
      ThrowAt(s.where, std::string(what) + " must lie in [" + Num(min) + ", " + Num(kMaxShapeSize) +
                           "] m (got " + Num(value) + ")");
    }
  };
  const auto aspect = [&](double largest, double smallest) {
    if (largest > kMaxShapeAspectRatio * smallest) {
      ThrowAt(s.where, "largest / smallest dimension " + Num(largest / smallest) + " exceeds " +
                           Num(kMaxShapeAspectRatio) +
                           " (contact queries lose accuracy on such slivers)");
    }
  };
  switch (shape.type) {
    case ShapeType::kSphere:
      positive(shape.radius, "radius", kMinSphereRadius);
      break;
    case ShapeType::kBox:
      positive(shape.size.x(), "size x");
      positive(shape.size.y(), "size y");
      positive(shape.size.z(), "size z");
      aspect(shape.size.maxCoeff(), shape.size.minCoeff());
      break;
    case ShapeType::kCylinder:
      if (planar) ThrowAt(s.where, "cylinder shapes are not available in planar scenes");
      positive(shape.radius, "radius");
      positive(shape.length, "length");
      aspect(std::max(shape.radius, shape.length), std::min(shape.radius, shape.length));
      break;
    case ShapeType::kCapsule:
      positive(shape.radius, "radius");
      positive(shape.length, "length");
      aspect(std::max(shape.radius, shape.length), std::min(shape.radius, shape.length));
      break;
    case ShapeType::kHalfSpace:
      if (!on_world) ThrowAt(s.where, "half_space shapes are allowed only in `environment`");
      break;
    case ShapeType::kConvex: {
      const size_t needed = planar ? 3 : 4;
      if (shape.vertices.size() < needed) {
        ThrowAt(s.where, "convex needs at least " + std::to_string(needed) + " vertices (got " +
                             std::to_string(shape.vertices.size()) + ")");
      }
      for (const Eigen::Vector3d& vertex : shape.vertices) {
        if (!vertex.allFinite() || vertex.cwiseAbs().maxCoeff() > kMaxShapeSize) {
          ThrowAt(s.where, "convex vertex coordinates must be finite and within ±" +
                               Num(kMaxShapeSize) + " m");
        }
      }
      break;
    }
  }
  // A shape's μ comes from the scene (range-checked where it is read) or from its model file
  // (SDF <mu>, MJCF geom friction, URDF's scene default): every source meets the same range.
  if (!InPhysicalRange(kFrictionRange, s.friction)) {
    ThrowAt(s.where, "friction: " + PhysicalRangeProblem(kFrictionRange, s.friction));
  }
  if (planar && !IsInPlane(s.X_BS)) {
    ThrowAt(s.where, "in a planar scene a shape's pose must stay in the x-y plane");
  }
}

// Checks a body; for a robot's link (`robot`) whose inertia is singular but positive
// semidefinite (a rod's iyy = 0), returns where that inertia was given (nullopt otherwise):
// the quasi-dynamic step never uses a robot's inertia, so the scene keeps it (Body::
// singular_inertia) and the formulations that use M_a refuse it. Objects need it positive
// definite.
std::optional<SourceLocation> ValidateBody(const BodySpec& b, bool robot) {
  if (b.massless_allowed && b.mass == 0.0 && b.inertia.isZero() && b.com.allFinite())
    return std::nullopt;
  if (!InPhysicalRange(kMassRange, b.mass)) {
    ThrowAt(b.where, "mass " + PhysicalRangeProblem(kMassRange, b.mass));
  }
  const SourceLocation& at = b.inertia_where.file.empty() ? b.where : b.inertia_where;
  if (!b.com.allFinite() || !b.inertia.allFinite()) ThrowAt(at, "com and inertia must be finite");
  const double scale = b.inertia.cwiseAbs().maxCoeff();
  if ((b.inertia - b.inertia.transpose()).cwiseAbs().maxCoeff() > kGeometryTolerance * scale) {
    ThrowAt(at, "inertia must be symmetric");
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(b.inertia);
  const double smallest = eigen.eigenvalues().minCoeff();
  if (smallest > 0.0) return std::nullopt;
  // Semidefinite within the rounding of a rotated inertia (the tolerance of the symmetry check).
  if (robot && smallest >= -kGeometryTolerance * scale) return at;
  ThrowAt(at, std::string(robot ? "inertia must be positive semidefinite"
                                : "inertia must be positive definite") +
                  " (smallest eigenvalue " + Num(smallest) + ")");
}

// The warning of a robot link's singular inertia (ValidateBody), at its file and line.
std::string SingularInertiaWarning(const SourceLocation& at, const BodySpec& b) {
  std::string where = at.file;
  if (at.line > 0) where += ":" + std::to_string(at.line);
  if (!at.field.empty()) where += ": " + at.field;
  return where + ": robot link '" + b.name +
         "' has a singular inertia (a zero principal moment): accepted, as the quasi-dynamic "
         "formulations never use a robot's inertia; the formulations that use the robots' mass "
         "matrix (the second-order ones) refuse this scene";
}

void ValidateJoint(const JointSpec& j, bool actuated, bool planar) {
  const bool movable = j.type == JointType::kRevolute || j.type == JointType::kPrismatic;
  if (actuated && !movable && j.type != JointType::kFixed) {
    ThrowAt(j.where, std::string("a robot cannot have a ") + JointTypeName(j.type) +
                         " joint (robots have revolute, prismatic and fixed joints)");
  }
  if (!actuated && !movable && j.type != JointType::kFixed && j.parent != "world") {
    ThrowAt(j.where, std::string("a ") + JointTypeName(j.type) +
                         " joint joins an object to the world (its parent must be `world`)");
  }
  if (planar && j.type == JointType::kFloating) {
    ThrowAt(j.where, "floating joints are for 3D scenes; use planar in a planar scene");
  }
  if (!planar && j.type == JointType::kPlanar && j.parent != "world") {
    ThrowAt(j.where, "a planar joint of a 3D scene moves an object in a plane of the world");
  }
  if (!j.X_PJ.matrix().allFinite()) ThrowAt(j.where, "pose must be finite");
  if (planar && !IsInPlane(j.X_PJ)) {
    ThrowAt(j.where, "in a planar scene a joint's pose must stay in the x-y plane");
  }
  if (movable) {
    if (!j.axis.allFinite()) ThrowAt(j.where, "axis must be finite");
    if (j.axis.cwiseAbs().maxCoeff() == 0.0) ThrowAt(j.where, "axis must be non-zero");
    const Eigen::Vector3d axis = UnitAxis(j.axis);
    if (planar && j.type == JointType::kRevolute &&
        std::abs(std::abs(axis.z()) - 1.0) > kGeometryTolerance) {
      ThrowAt(j.where, "in a planar scene a revolute axis must be ±z");
    }
    if (planar && j.type == JointType::kPrismatic && std::abs(axis.z()) > kGeometryTolerance) {
      ThrowAt(j.where, "in a planar scene a prismatic axis must lie in the x-y plane");
    }
  }
  const bool has_limits = std::isfinite(j.lower_limit) || std::isfinite(j.upper_limit);
  if (has_limits && !movable) {
    ThrowAt(j.where, std::string("a ") + JointTypeName(j.type) + " joint has no position limits");
  }
  // Equal bounds would leave the log barriers no interior (a joint that cannot move is a fixed
  // joint); the URDF reader already reads urdfdom's default 0 0 as no limit.
  if (std::isnan(j.lower_limit) || std::isnan(j.upper_limit) || !(j.lower_limit < j.upper_limit)) {
    ThrowAt(j.where, "limits must satisfy lower < upper (got " + Num(j.lower_limit) + ", " +
                         Num(j.upper_limit) + "; a joint that cannot move is a fixed joint)");
  }
}

// The instance's joints reordered parents first (stable: among joints whose parent is already
// placed, file order is kept). Throws when a body lacks a joint, has two, or is unreachable.
// A robot's joint may also hang from `carriers`, the bodies of the robots before it (a
// gripper on an arm's link); an object's may not.
std::vector<const JointSpec*> OrderParentsFirst(const InstanceSpec& instance,
                                                const std::map<std::string, int>& carriers) {
  std::map<std::string, const JointSpec*> joint_of_child;
  std::set<std::string> own_bodies;
  for (const BodySpec& b : instance.bodies) own_bodies.insert(b.name);
  std::set<std::string> placed{"world"};
  for (const JointSpec& j : instance.joints) {
    if (!own_bodies.count(j.child)) {
      ThrowAt(j.where, "child '" + j.child + "' is not a body of " + instance.name);
    }
    if (j.parent != "world" && !own_bodies.count(j.parent)) {
      if (!instance.actuated || !carriers.count(j.parent))
        ThrowAt(j.where, "parent '" + j.parent + "' is neither 'world' nor a body of " +
                             instance.name +
                             (instance.actuated ? " nor of a robot listed before it" : ""));
      placed.insert(j.parent);
    }
    if (!joint_of_child.emplace(j.child, &j).second) {
      ThrowAt(j.where, "body '" + j.child + "' is already the child of another joint");
    }
  }
  for (const BodySpec& b : instance.bodies) {
    if (!joint_of_child.count(b.name)) {
      ThrowAt(b.where, "body '" + b.name + "' has no joint connecting it to its parent");
    }
  }
  std::vector<const JointSpec*> order;
  while (order.size() < instance.joints.size()) {
    const size_t before = order.size();
    for (const JointSpec& j : instance.joints) {
      if (!placed.count(j.child) && placed.count(j.parent)) {
        order.push_back(&j);
        placed.insert(j.child);
      }
    }
    if (order.size() == before) {
      for (const JointSpec& j : instance.joints) {
        if (!placed.count(j.child)) ThrowAt(j.where, "joints form a loop not reaching 'world'");
      }
    }
  }
  return order;
}

// An object's mass term s·M_u (Pang & Tedrake 2021, eq. 11) needs every joint of an object to
// move some mass: a massless "ghost" link between two joints is fine when a body after it has
// mass. `joints` are parents first (OrderParentsFirst).
void CheckEveryJointMovesMass(const InstanceSpec& instance,
                              const std::vector<const JointSpec*>& joints) {
  std::map<std::string, double> moved;  // each body's mass plus that of the bodies after it
  for (const BodySpec& b : instance.bodies) moved[b.name] = b.mass;
  for (auto j = joints.rbegin(); j != joints.rend(); ++j) {
    if ((*j)->parent != "world") moved[(*j)->parent] += moved[(*j)->child];
  }
  for (const JointSpec* j : joints) {
    if (j->type == JointType::kFixed || moved[j->child] > 0.0) continue;
    ThrowAt(j->where, "joint '" + j->name + "' of object '" + instance.name + "' moves no mass: '" +
                          j->child +
                          "' and the bodies after it are massless (an object's mass enters the "
                          "step; give one of them an inertial)");
  }
}

// `limits_enforced`: the scene's conventions.joint_limits; ignored (the reference simulator's
// rule), an initial position may lie outside its joint's limits, as the simulator's q0 may.
void CheckInitial(const InstanceSpec& instance, const std::vector<const JointSpec*>& joints, int nq,
                  bool limits_enforced) {
  if (instance.initial.size() != nq) {
    ThrowAt(instance.initial_where, "must have " + std::to_string(nq) + " numbers for " +
                                        instance.name + ", got " +
                                        std::to_string(instance.initial.size()));
  }
  if (!instance.initial.allFinite()) ThrowAt(instance.initial_where, "must be finite");
  int q = 0;
  for (const JointSpec* j : joints) {
    if (j->type == JointType::kFloating) {
      const double norm = instance.initial.segment<4>(q + 3).norm();
      if (std::abs(norm - 1.0) > kUnitQuaternionTolerance) {
        ThrowAt(instance.initial_where, "quaternion (w, x, y, z) of " + j->name +
                                            " must be unit to 1e-6 (norm " + Num(norm) + ")");
      }
    }
    if (limits_enforced && JointNq(j->type) == 1 &&
        !(instance.initial[q] >= j->lower_limit && instance.initial[q] <= j->upper_limit)) {
      ThrowAt(instance.initial_where, "position " + Num(instance.initial[q]) + " of " + j->name +
                                          " is outside its limits [" + Num(j->lower_limit) + ", " +
                                          Num(j->upper_limit) + "]");
    }
    q += JointNq(j->type);
  }
}

// The instances' starts with `starts` (SceneBuilder::SetStarts) in place of their own: a named
// one's q, or its segment of the whole q0 (objects first, then robots, each in its joints'
// parents-first order; `nq_of` gives an instance's n_q). A name that is no instance fails at
// its line with the closest name.
std::vector<InstanceSpec> WithStarts(const std::vector<const InstanceSpec*>& ordered,
                                     const StartOverrides& starts, const std::vector<int>& nq_of) {
  std::vector<InstanceSpec> result;
  for (const InstanceSpec* spec : ordered) result.push_back(*spec);
  std::vector<std::string> names;
  for (const InstanceSpec* spec : ordered) names.push_back(spec->name);
  for (const StartOverrides::Instance& start : starts.instances) {
    const auto it = std::find(names.begin(), names.end(), start.name);
    if (it == names.end()) {
      std::string known;
      for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
      ThrowAt(start.where, "no model named '" + start.name + "' in the scene" +
                               DidYouMean(start.name, names) + " (models: " + known + ")");
    }
    InstanceSpec& spec = result[it - names.begin()];
    spec.initial = start.q;
    spec.initial_where = start.where;
  }
  if (starts.whole) {
    int nq = 0;
    for (int n : nq_of) nq += n;
    if (starts.whole->q.size() != nq) {
      std::string layout;
      for (size_t i = 0; i < ordered.size(); ++i)  // fixed objects (no q) left out
        if (nq_of[i] > 0)
          layout +=
              (layout.empty() ? "" : ", ") + ordered[i]->name + " " + std::to_string(nq_of[i]);
      ThrowAt(starts.whole->where, "must have n_q = " + std::to_string(nq) +
                                       " numbers (objects first, then robots: " + layout +
                                       "), got " + std::to_string(starts.whole->q.size()));
    }
    int offset = 0;
    for (size_t i = 0; i < result.size(); ++i) {
      result[i].initial = starts.whole->q.segment(offset, nq_of[i]);
      result[i].initial_where = starts.whole->where;
      offset += nq_of[i];
    }
  }
  return result;
}
}  // namespace

SceneBuilder::SceneBuilder(const std::string& file) { scene_.source_file = file; }

void SceneBuilder::AddEnvironmentShape(const ShapeSpec& shape) { environment_.push_back(shape); }

void SceneBuilder::AddInstance(const InstanceSpec& instance) { instances_.push_back(instance); }

void SceneBuilder::AddCollisionFilter(const std::string& body_a, const std::string& body_b,
                                      const SourceLocation& where) {
  filters_.push_back({body_a, body_b, where});
}

Scene SceneBuilder::Build() const {
  Scene scene = scene_;
  scene.bodies.clear();
  scene.joints.clear();
  scene.instances.clear();
  scene.geometries.clear();
  scene.visuals.clear();
  scene.collision_filter.clear();
  scene.schedules.clear();
  Body world;
  world.name = "world";
  scene.bodies.push_back(world);

  std::set<std::string> geometry_names;
  const auto add_geometry = [&](const ShapeSpec& s, int body) {
    ValidateShape(s, scene.planar, body == 0);
    if (!geometry_names.insert(s.name).second) {
      ThrowAt(s.where, "duplicate shape name '" + s.name + "'");
    }
    CollisionGeometry g;
    g.name = s.name;
    g.body = body;
    g.X_BS = s.X_BS;
    g.shape = s.shape;
    g.friction = s.friction;
    g.mesh = s.mesh;
    g.source = s.where;
    scene.geometries.push_back(g);
  };
  std::set<std::string> visual_names;
  const auto add_visual = [&](const VisualSpec& spec, int body, const SourceLocation& where) {
    if (!visual_names.insert(spec.name).second)
      ThrowAt(where, "duplicate visual name '" + spec.name + "'");
    VisualGeometry visual;
    visual.name = spec.name;
    visual.body = body;
    visual.X_BV = spec.X_BV;
    visual.shape = spec.shape;
    visual.mesh = spec.mesh;
    scene.visuals.push_back(visual);
  };
  for (const ShapeSpec& s : environment_) add_geometry(s, 0);

  std::vector<const InstanceSpec*> ordered;
  for (const InstanceSpec& i : instances_)
    if (!i.actuated) ordered.push_back(&i);
  for (const InstanceSpec& i : instances_)
    if (i.actuated) ordered.push_back(&i);

  std::set<std::string> instance_names, body_names{"world"}, joint_names;
  std::vector<Eigen::VectorXd> initials;
  std::vector<std::pair<int, Eigen::VectorXd>> external_forces;  // (v_start, τ_ext of an object)
  std::vector<std::pair<int, Eigen::VectorXd>> initial_velocities;  // (v_start, its v(0))
  std::map<std::string, SourceLocation> singular_inertia;           // robot links', by body name
  std::map<std::string, int> robot_bodies;  // the robots' bodies so far: name, scene index
  int q = 0, v = 0;
  // A start from outside the models (SetStarts): the instances with their starts replaced.
  std::vector<InstanceSpec> started;
  if (!starts_.empty()) {
    std::vector<int> nq_of;
    for (const InstanceSpec* spec : ordered) {
      int n = 0;
      for (const JointSpec& j : spec->joints) n += JointNq(j.type);
      nq_of.push_back(n);
    }
    started = WithStarts(ordered, starts_, nq_of);
    for (size_t i = 0; i < ordered.size(); ++i) ordered[i] = &started[i];
  }
  for (const InstanceSpec* spec : ordered) {
    if (!instance_names.insert(spec->name).second) {
      ThrowAt(spec->where, "duplicate instance name '" + spec->name + "'");
    }
    for (const BodySpec& b : spec->bodies) {
      if (!body_names.insert(b.name).second) {
        ThrowAt(b.where, "duplicate body name '" + b.name + "'");
      }
      if (const std::optional<SourceLocation> singular = ValidateBody(b, spec->actuated)) {
        singular_inertia[b.name] = *singular;
        scene.warnings.push_back(SingularInertiaWarning(*singular, b));
      }
    }
    if (spec->bodies.empty()) ThrowAt(spec->where, "needs at least one body");
    const std::vector<const JointSpec*> joints = OrderParentsFirst(*spec, robot_bodies);
    int roots = 0;
    for (const JointSpec* j : joints) {
      if (!joint_names.insert(j->name).second) {
        ThrowAt(j->where, "duplicate joint name '" + j->name + "'");
      }
      ValidateJoint(*j, spec->actuated, scene.planar);
      if (j->parent == "world") ++roots;
    }
    if (!spec->actuated && roots != 1) {
      ThrowAt(spec->where, "an object must have exactly one joint to the world (it has " +
                               std::to_string(roots) + ")");
    }
    if (!spec->actuated) CheckEveryJointMovesMass(*spec, joints);

    const int instance_index = static_cast<int>(scene.instances.size());
    ModelInstance instance;
    instance.name = spec->name;
    instance.actuated = spec->actuated;
    instance.source_file = spec->source_file;
    scene.warnings.insert(scene.warnings.end(), spec->warnings.begin(), spec->warnings.end());
    for (const ShapeSpec& shape : spec->world_shapes) add_geometry(shape, 0);
    instance.q_start = q;
    instance.v_start = v;
    std::map<std::string, int> body_index = robot_bodies;  // a gripper's arm link, or the world
    body_index["world"] = 0;
    std::vector<double> stiffness;
    int actuated_joints = 0;
    for (const JointSpec* j : joints) {
      if (j->type == JointType::kRevolute || j->type == JointType::kPrismatic) ++actuated_joints;
    }
    if (spec->actuated) {
      if (spec->stiffness.size() == 1) {
        stiffness.assign(actuated_joints, spec->stiffness[0]);
      } else if (static_cast<int>(spec->stiffness.size()) == actuated_joints) {
        stiffness = spec->stiffness;
      } else {
        ThrowAt(spec->stiffness_where, "needs one value or " + std::to_string(actuated_joints) +
                                           " (one per actuated joint), got " +
                                           std::to_string(spec->stiffness.size()));
      }
      for (double k : stiffness) {
        if (!InPhysicalRange(kStiffnessRange, k)) {
          ThrowAt(spec->stiffness_where, "stiffness " + PhysicalRangeProblem(kStiffnessRange, k));
        }
      }
    }
    // The damping of the second-order models, as the stiffness: one value or one per joint.
    std::vector<double> damping;
    if (!spec->damping.empty()) {
      if (!spec->actuated) ThrowAt(spec->damping_where, "only robots take damping");
      if (spec->damping.size() == 1) {
        damping.assign(actuated_joints, spec->damping[0]);
      } else if (static_cast<int>(spec->damping.size()) == actuated_joints) {
        damping = spec->damping;
      } else {
        ThrowAt(spec->damping_where, "needs one value or " + std::to_string(actuated_joints) +
                                         " (one per actuated joint), got " +
                                         std::to_string(spec->damping.size()));
      }
      for (double d : damping) {
        if (!InPhysicalRange(kDampingRange, d)) {
          ThrowAt(spec->damping_where, "damping " + PhysicalRangeProblem(kDampingRange, d));
        }
      }
    }
    size_t next_stiffness = 0, next_damping = 0;
    for (const JointSpec* j : joints) {
      const BodySpec& b = *std::find_if(spec->bodies.begin(), spec->bodies.end(),
                                        [&](const BodySpec& x) { return x.name == j->child; });
      const int body = static_cast<int>(scene.bodies.size());
      const int joint = static_cast<int>(scene.joints.size());
      body_index[b.name] = body;
      Body new_body;
      new_body.name = b.name;
      new_body.mass = b.mass;
      new_body.com = b.com;
      new_body.inertia = b.inertia;
      if (const auto it = singular_inertia.find(b.name); it != singular_inertia.end())
        new_body.singular_inertia = it->second;
      new_body.parent_joint = joint;
      new_body.instance = instance_index;
      scene.bodies.push_back(new_body);
      Joint new_joint;
      new_joint.name = j->name;
      new_joint.type = j->type;
      new_joint.parent_body = body_index.at(j->parent);
      new_joint.child_body = body;
      new_joint.X_PJ = j->X_PJ;
      new_joint.axis = UnitAxis(j->axis);
      new_joint.lower_limit = j->lower_limit;
      new_joint.upper_limit = j->upper_limit;
      new_joint.q_start = q;
      new_joint.v_start = v;
      if (j->type == JointType::kRevolute || j->type == JointType::kPrismatic) {
        if (spec->actuated) new_joint.stiffness = stiffness[next_stiffness++];
        if (!damping.empty()) new_joint.damping = damping[next_damping++];
      }
      q += JointNq(j->type);
      v += JointNv(j->type);
      scene.joints.push_back(new_joint);
      instance.bodies.push_back(body);
      instance.joints.push_back(joint);
      // Bodies held together by a joint never collide with each other; a floating or
      // planar joint holds nothing, so an object still rests on the world's shapes.
      if (j->type != JointType::kFloating && j->type != JointType::kPlanar) {
        scene.collision_filter.emplace_back(std::min(new_joint.parent_body, body),
                                            std::max(new_joint.parent_body, body));
      }
      for (const ShapeSpec& s : b.shapes) add_geometry(s, body);
      for (const VisualSpec& visual : b.visuals) add_visual(visual, body, b.where);
    }
    instance.nq = q - instance.q_start;
    instance.nv = v - instance.v_start;
    if (spec->actuated)
      for (const int body : instance.bodies) robot_bodies[scene.bodies[body].name] = body;
    if (v > kMaxVelocities) {
      ThrowAt(spec->where,
              "the scene reaches " + std::to_string(v) + " velocity coordinates here; at most " +
                  std::to_string(kMaxVelocities) +
                  " are supported (the LCP and the gradients hold dense n_v x n_v matrices)");
    }
    CheckInitial(*spec, joints, instance.nq,
                 scene.conventions.joint_limits == JointLimitRule::kEnforced);
    initials.push_back(spec->initial);
    if (spec->initial_velocity.size() > 0) {
      if (spec->initial_velocity.size() != instance.nv) {
        ThrowAt(spec->initial_velocity_where,
                "must have " + std::to_string(instance.nv) + " numbers (the velocities of " +
                    spec->name +
                    (instance.nv == 0 ? ": a fixed object does not move" : std::string()) +
                    "), got " + std::to_string(spec->initial_velocity.size()));
      }
      if (!spec->initial_velocity.allFinite())
        ThrowAt(spec->initial_velocity_where, "must be finite");
      initial_velocities.emplace_back(instance.v_start, spec->initial_velocity);
    }
    if (spec->external_force.size() > 0) {
      if (spec->actuated) ThrowAt(spec->external_force_where, "only objects take external forces");
      if (spec->external_force.size() != instance.nv) {
        ThrowAt(spec->external_force_where,
                "must have " + std::to_string(instance.nv) + " numbers (the object's velocities" +
                    (instance.nv == 0 ? ": a fixed object does not move" : std::string()) +
                    "), got " + std::to_string(spec->external_force.size()));
      }
      if (!spec->external_force.allFinite()) ThrowAt(spec->external_force_where, "must be finite");
      external_forces.emplace_back(instance.v_start, spec->external_force);
    }

    if (!spec->commands.empty()) {
      if (!spec->actuated) ThrowAt(spec->commands[0].where, "only robots take commands");
      RobotSchedule schedule;
      schedule.instance = instance_index;
      for (const CommandKnot& knot : spec->commands) {
        if (knot.position.size() != instance.nq) {
          ThrowAt(knot.where, "command must have " + std::to_string(instance.nq) + " numbers for " +
                                  spec->name + ", got " + std::to_string(knot.position.size()));
        }
        if (!std::isfinite(knot.time) || !knot.position.allFinite()) {
          ThrowAt(knot.where, "command must be finite");
        }
        if (!schedule.times.empty() && !(knot.time > schedule.times.back())) {
          ThrowAt(knot.where, "command times must be strictly increasing (" + Num(knot.time) +
                                  " after " + Num(schedule.times.back()) + ")");
        }
        schedule.times.push_back(knot.time);
        schedule.positions.push_back(knot.position);
      }
      scene.schedules.push_back(schedule);
    }
    if (!spec->actuated) {
      scene.nq_u = q;
      scene.nv_u = v;
    }
    scene.instances.push_back(instance);
  }
  scene.nq = q;
  scene.nv = v;
  scene.nq_a = q - scene.nq_u;
  scene.nv_a = v - scene.nv_u;
  scene.q0.resize(q);
  int offset = 0;
  for (const Eigen::VectorXd& initial : initials) {
    scene.q0.segment(offset, initial.size()) = initial;
    offset += static_cast<int>(initial.size());
  }
  if (!initial_velocities.empty()) {
    scene.v0 = Eigen::VectorXd::Zero(scene.nv);
    for (const auto& [start, velocity] : initial_velocities)
      scene.v0.segment(start, velocity.size()) = velocity;
  }
  if (!external_forces.empty()) {
    scene.external_force = Eigen::VectorXd::Zero(scene.nv_u);
    for (const auto& [start, force] : external_forces)
      scene.external_force.segment(start, force.size()) = force;
  }

  for (const FilterSpec& f : filters_) {
    const int a = scene.BodyIndex(f.a);
    const int b = scene.BodyIndex(f.b);
    if (a < 0) ThrowAt(f.where, "no body named '" + f.a + "'");
    if (b < 0) ThrowAt(f.where, "no body named '" + f.b + "'");
    if (a == b) ThrowAt(f.where, "a body cannot be filtered against itself");
    scene.collision_filter.emplace_back(std::min(a, b), std::max(a, b));
  }
  std::sort(scene.collision_filter.begin(), scene.collision_filter.end());
  scene.collision_filter.erase(
      std::unique(scene.collision_filter.begin(), scene.collision_filter.end()),
      scene.collision_filter.end());
  return scene;
}

}  // namespace quasidyn
