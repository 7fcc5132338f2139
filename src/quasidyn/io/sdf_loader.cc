#include "quasidyn/io/sdf_loader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sdf/Box.hh>
#include <sdf/Capsule.hh>
#include <sdf/Collision.hh>
#include <sdf/Cylinder.hh>
#include <sdf/Element.hh>
#include <sdf/Error.hh>
#include <sdf/Geometry.hh>
#include <sdf/Joint.hh>
#include <sdf/JointAxis.hh>
#include <sdf/Link.hh>
#include <sdf/Mesh.hh>
#include <sdf/Model.hh>
#include <sdf/Root.hh>
#include <sdf/SemanticPose.hh>
#include <sdf/Sphere.hh>
#include <sdf/Visual.hh>
#include <set>
#include <sstream>
#include <vector>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/files/utf8.h"
#include "quasidyn/files/xml_tags.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/io/mesh_shape.h"
#include "quasidyn/io/model_file_numbers.h"
#include "quasidyn/io/model_uri.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

Eigen::Isometry3d ToIsometry(const ignition::math::Pose3d& pose) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(pose.Pos().X(), pose.Pos().Y(), pose.Pos().Z());
  const ignition::math::Quaterniond& r = pose.Rot();
  X.linear() = Eigen::Quaterniond(r.W(), r.X(), r.Y(), r.Z()).normalized().toRotationMatrix();
  return X;
}

Eigen::Vector3d ToVector(const ignition::math::Vector3d& v) {
  return Eigen::Vector3d(v.X(), v.Y(), v.Z());
}

// "path:line: <element> 'name'" for messages (the line when SDFormat kept it).
std::string Where(const std::string& path, const sdf::ElementPtr& element,
                  const std::string& what) {
  std::string at = path;
  if (element != nullptr) {
    if (const std::optional<int> line = element->LineNumber()) at += ":" + std::to_string(*line);
  }
  return at + ": " + what;
}

// Reads one model; the state shared by its helpers.
class SdfReader {
 public:
  SdfReader(const std::string& path, const ModelFileOptions& options)
      : path_(path), options_(options) {}

  InstanceSpec Read(const sdf::Model& model);

 private:
  [[noreturn]] void Fail(const sdf::ElementPtr& element, const std::string& what) const {
    ThrowAt(options_.where, Where(path_, element, what));
  }
  void Warn(const sdf::ElementPtr& element, const std::string& what) {
    instance_.warnings.push_back(Where(path_, element, what));
  }
  // The direct children of `element` named `name`, for the warnings below.
  void WarnChildren(const sdf::ElementPtr& element, const std::string& name,
                    const std::string& what);
  Eigen::Isometry3d Resolve(const sdf::SemanticPose& pose, const sdf::ElementPtr& element,
                            const std::string& frame) const;
  // The first size element the geometry's shape needs (<length> of a <cylinder>, ...) that
  // the file does not give, or "": libsdformat fills a missing one with its default (a 1 m
  // cylinder) without a word.
  std::string MissingSize(const sdf::Geometry& geometry) const;
  // Fills shape from a geometry (false for mesh: the caller reads it); fails on the rest.
  bool Primitive(const sdf::Geometry& geometry, const sdf::ElementPtr& element,
                 const std::string& what, Shape* shape) const;
  BodySpec ReadLink(const sdf::Link& link, const Eigen::Isometry3d& X_BL);
  JointSpec ReadJoint(const sdf::Joint& joint);
  // The link a joint's <child> names (a frame resolved to its link).
  std::string ChildLink(const sdf::Joint& joint) const {
    std::string link;
    const sdf::Errors errors = joint.ResolveChildLink(link);
    if (!errors.empty())
      Fail(joint.Element(),
           "joint '" + joint.Name() + "': cannot resolve its child: " + errors.front().Message());
    return link;
  }

  std::string path_;
  ModelFileOptions options_;
  InstanceSpec instance_;
  std::map<std::string, Eigen::Isometry3d> X_MB_;  // each link's body frame in the model frame
};

void SdfReader::WarnChildren(const sdf::ElementPtr& element, const std::string& name,
                             const std::string& what) {
  if (element == nullptr) return;
  for (sdf::ElementPtr child = element->GetFirstElement(); child != nullptr;
       child = child->GetNextElement()) {
    if (child->GetName() == name) Warn(child, "<" + name + "> " + what + " is ignored");
  }
}

Eigen::Isometry3d SdfReader::Resolve(const sdf::SemanticPose& pose, const sdf::ElementPtr& element,
                                     const std::string& frame) const {
  ignition::math::Pose3d resolved;
  const sdf::Errors errors = pose.Resolve(resolved, frame);
  if (!errors.empty()) Fail(element, "cannot resolve a pose: " + errors.front().Message());
  return ToIsometry(resolved);
}

std::string SdfReader::MissingSize(const sdf::Geometry& geometry) const {
  static const std::map<sdf::GeometryType, std::pair<const char*, std::vector<const char*>>>
      kRequired = {{sdf::GeometryType::BOX, {"box", {"size"}}},
                   {sdf::GeometryType::SPHERE, {"sphere", {"radius"}}},
                   {sdf::GeometryType::CYLINDER, {"cylinder", {"radius", "length"}}},
                   {sdf::GeometryType::CAPSULE, {"capsule", {"radius", "length"}}},
                   {sdf::GeometryType::MESH, {"mesh", {"uri"}}}};
  const auto required = kRequired.find(geometry.Type());
  const sdf::ElementPtr element = geometry.Element();
  if (required == kRequired.end() || element == nullptr) return "";
  const auto& [shape_name, children] = required->second;
  const sdf::ElementPtr shape = element->FindElement(shape_name);
  // Without a line the shape was not read from SDF text (libsdformat's conversion of a URDF).
  if (shape == nullptr || !shape->LineNumber()) return "";
  for (const char* child : children) {
    const sdf::ElementPtr given = shape->HasElement(child) ? shape->GetElement(child) : nullptr;
    // An element libsdformat added with its default has no line and is not set in the file.
    if (given == nullptr || !given->GetExplicitlySetInFile() || !given->LineNumber())
      return std::string("<") + shape_name + "> has no <" + child +
             "> (libsdformat would use its "
             "default, " +
             (std::string(child) == "uri" ? "no file" : "1 m") + ")";
  }
  return "";
}

bool SdfReader::Primitive(const sdf::Geometry& geometry, const sdf::ElementPtr& element,
                          const std::string& what, Shape* shape) const {
  switch (geometry.Type()) {
    case sdf::GeometryType::BOX:
      shape->type = ShapeType::kBox;
      shape->size = ToVector(geometry.BoxShape()->Size());
      return true;
    case sdf::GeometryType::SPHERE:
      shape->type = ShapeType::kSphere;
      shape->radius = geometry.SphereShape()->Radius();
      return true;
    case sdf::GeometryType::CYLINDER:
      shape->type = ShapeType::kCylinder;
      shape->radius = geometry.CylinderShape()->Radius();
      shape->length = geometry.CylinderShape()->Length();
      return true;
    case sdf::GeometryType::CAPSULE:
      shape->type = ShapeType::kCapsule;
      shape->radius = geometry.CapsuleShape()->Radius();
      shape->length = geometry.CapsuleShape()->Length();
      return true;
    case sdf::GeometryType::MESH:
      return false;
    case sdf::GeometryType::PLANE:
      Fail(element, what +
                        ": <plane> geometry is not supported in a model (a half_space is an "
                        "environment shape of the scene file)");
    case sdf::GeometryType::HEIGHTMAP:
      Fail(element, what + ": <heightmap> geometry is not supported");
    case sdf::GeometryType::ELLIPSOID:
      Fail(element, what +
                        ": <ellipsoid> geometry is not supported (box, sphere, cylinder, "
                        "capsule, mesh)");
    case sdf::GeometryType::EMPTY:
    default:
      Fail(element, what + ": empty or unknown geometry");
  }
}

BodySpec SdfReader::ReadLink(const sdf::Link& link, const Eigen::Isometry3d& X_BL) {
  const std::string link_where = "link '" + link.Name() + "'";
  if (!IsValidUtf8(link.Name())) Fail(link.Element(), "a link name is not valid UTF-8");
  BodySpec body;
  body.name = options_.instance_name + "/" + link.Name();
  body.where = options_.where;
  body.massless_allowed = options_.MasslessLinksAllowed();
  if (link.Element()->HasElement("inertial")) {
    const ignition::math::Inertiald& inertial = link.Inertial();
    body.mass = inertial.MassMatrix().Mass();
    const ignition::math::Matrix3d I = inertial.Moi();  // about the com, in the link frame
    Eigen::Matrix3d inertia;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) inertia(r, c) = I(r, c);
    body.com = X_BL * ToVector(inertial.Pose().Pos());
    body.inertia = X_BL.linear() * inertia * X_BL.linear().transpose();
    if (body.massless_allowed && body.mass == 0.0) body.inertia.setZero();
    // The inertia's problems (or a robot link's singular inertia) at this file's <inertial>.
    const std::optional<int> line = link.Element()->GetElement("inertial")->LineNumber();
    body.inertia_where = {path_, line ? *line : 0, link_where + " <inertial>"};
  } else if (!body.massless_allowed) {
    Fail(link.Element(), link_where +
                             " has no <inertial>: an object that moves needs a mass > 0 (its "
                             "mass and weight enter the step); add <inertial>");
  }
  for (uint64_t k = 0; k < link.CollisionCount(); ++k) {
    const sdf::Collision& collision = *link.CollisionByIndex(k);
    const std::string what = link_where + " <collision> '" + collision.Name() + "'";
    ShapeSpec shape;
    shape.name = body.name + "/" + collision.Name();
    shape.X_BS = X_BL * Resolve(collision.SemanticPose(), collision.Element(), link.Name());
    shape.where = options_.where;
    // The collision's line in the SDF, so a shape refused later names it.
    const std::string at = Where(path_, collision.Element(), what);
    shape.where.field += (shape.where.field.empty() ? "" : ": ") + at;
    if (const std::string missing = MissingSize(*collision.Geom()); !missing.empty())
      Fail(collision.Element(), what + ": " + missing);
    if (!Primitive(*collision.Geom(), collision.Element(), what, &shape.shape)) {
      const sdf::Mesh& mesh = *collision.Geom()->MeshShape();
      MeshShape hull =
          ConvexMeshShape(ResolveModelUri(mesh.Uri(), options_.model_directory, options_.where,
                                          options_.packages, at + ": "),
                          ToVector(mesh.Scale()), shape.where);
      shape.shape = hull.shape;
      shape.mesh = hull.mesh;
    }
    // μ from <surface><friction><ode><mu> when given, else the scene's.
    sdf::ElementPtr mu = collision.Element()->FindElement("surface");
    for (const char* name : {"friction", "ode", "mu"})
      if (mu != nullptr) mu = mu->FindElement(name);
    if (mu != nullptr) {
      shape.friction = mu->Get<double>();
    } else if (options_.friction) {
      shape.friction = *options_.friction;
    } else {
      Fail(collision.Element(), what +
                                    " has no <surface><friction><ode><mu> and the scene gives "
                                    "no `friction:` for the model");
    }
    body.shapes.push_back(shape);
  }
  bool visuals_lost = false;
  for (uint64_t k = 0; k < link.VisualCount(); ++k) {
    const sdf::Visual& visual = *link.VisualByIndex(k);
    VisualSpec spec;
    spec.name = body.name + "/visual/" + visual.Name();
    spec.X_BV = X_BL * Resolve(visual.SemanticPose(), visual.Element(), link.Name());
    const sdf::Geometry& geometry = *visual.Geom();
    const std::string visual_what = link_where + " <visual> '" + visual.Name() + "'";
    if (const std::string missing = MissingSize(geometry); !missing.empty()) {
      Warn(visual.Element(), visual_what + " dropped: " + missing + " (it is not drawn)");
      continue;
    }
    if (geometry.Type() == sdf::GeometryType::MESH) {
      const sdf::Mesh& mesh = *geometry.MeshShape();
      try {
        spec.mesh = VisualMesh(ResolveModelUri(mesh.Uri(), options_.model_directory, options_.where,
                                               options_.packages),
                               ToVector(mesh.Scale()), options_.where);
      } catch (const SceneError& error) {
        // Only collision geometry enters the step: without this mesh the link draws its
        // collision shapes (a body with visuals is drawn by them alone).
        Warn(visual.Element(), visual_what + ": mesh " + mesh.Uri() +
                                   " is not drawn (the link's collision shapes are drawn "
                                   "instead): " +
                                   error.problem());
        visuals_lost = true;
        continue;
      }
    } else if (geometry.Type() == sdf::GeometryType::BOX ||
               geometry.Type() == sdf::GeometryType::SPHERE ||
               geometry.Type() == sdf::GeometryType::CYLINDER ||
               geometry.Type() == sdf::GeometryType::CAPSULE) {
      Primitive(geometry, visual.Element(), link_where, &spec.shape);
    } else {
      continue;  // a visual the viewer cannot draw changes nothing else
    }
    body.visuals.push_back(spec);
  }
  if (visuals_lost) body.visuals.clear();
  WarnChildren(link.Element(), "sensor", "(" + link_where + ")");
  WarnChildren(link.Element(), "light", "(" + link_where + ")");
  WarnChildren(link.Element(), "plugin", "(" + link_where + ")");
  return body;
}

JointSpec SdfReader::ReadJoint(const sdf::Joint& joint) {
  const std::string what = "joint '" + joint.Name() + "'";
  if (!IsValidUtf8(joint.Name())) Fail(joint.Element(), "a joint name is not valid UTF-8");
  JointSpec spec;
  spec.name = options_.instance_name + "/" + joint.Name();
  spec.where = options_.where;
  switch (joint.Type()) {
    case sdf::JointType::REVOLUTE:
    case sdf::JointType::CONTINUOUS:
      spec.type = JointType::kRevolute;
      break;
    case sdf::JointType::PRISMATIC:
      spec.type = JointType::kPrismatic;
      break;
    case sdf::JointType::FIXED:
      spec.type = JointType::kFixed;
      break;
    default:
      Fail(joint.Element(), what + ": a " + joint.Element()->Get<std::string>("type") +
                                " joint is not supported (revolute, continuous, prismatic, fixed)");
  }
  const Eigen::Isometry3d X_MJ = Resolve(joint.SemanticPose(), joint.Element(), "__model__");
  std::string parent = joint.ParentLinkName();
  if (parent != "world") {
    const sdf::Errors errors = joint.ResolveParentLink(parent);
    if (!errors.empty())
      Fail(joint.Element(), what + ": cannot resolve its parent: " + errors.front().Message());
  }
  if (parent == "world") {
    spec.parent = "world";
    spec.X_PJ = options_.base_pose * X_MJ;
  } else {
    spec.parent = options_.instance_name + "/" + parent;
    spec.X_PJ = X_MB_.at(parent).inverse() * X_MJ;
  }
  spec.child = options_.instance_name + "/" + ChildLink(joint);
  if (spec.type != JointType::kFixed) {
    const sdf::JointAxis* axis = joint.Axis(0);
    if (axis == nullptr) Fail(joint.Element(), what + " has no <axis>");
    ignition::math::Vector3d xyz;
    const sdf::Errors errors = axis->ResolveXyz(xyz, "__model__");
    if (!errors.empty())
      Fail(axis->Element(), what + ": cannot resolve <axis><xyz>: " + errors.front().Message());
    spec.axis = X_MJ.linear().transpose() * ToVector(xyz);  // in J
    if (joint.Type() != sdf::JointType::CONTINUOUS) {
      if (std::abs(axis->Lower()) < kSdfNoJointLimit) spec.lower_limit = axis->Lower();
      if (std::abs(axis->Upper()) < kSdfNoJointLimit) spec.upper_limit = axis->Upper();
    }
    if (axis->Element() != nullptr && axis->Element()->HasElement("dynamics"))
      Warn(axis->Element()->GetElement("dynamics"),
           "<dynamics> of " + what + " (damping, friction, springs) is ignored");
  }
  return spec;
}

InstanceSpec SdfReader::Read(const sdf::Model& model) {
  instance_.name = options_.instance_name;
  instance_.actuated = options_.actuated;
  instance_.where = options_.where;
  instance_.source_file = path_;
  if (model.ModelCount() > 0) {
    const sdf::Model& nested = *model.ModelByIndex(0);
    Fail(nested.Element(), "nested <model> '" + nested.Name() +
                               "' is not supported: give each model its own entry in the "
                               "scene file");
  }
  if (model.Static()) Warn(model.Element(), "<static> is ignored (the scene's `joint:` decides)");
  WarnChildren(model.Element(), "plugin", "(model '" + model.Name() + "')");
  WarnChildren(model.Element(), "gripper", "(model '" + model.Name() + "')");
  if (model.RawPose() != ignition::math::Pose3d::Zero)
    Warn(model.Element()->GetElement("pose"),
         "the model's <pose> is ignored (robots are placed by base_pose, objects by initial)");
  // Each link's body frame: its parent joint's frame, or its own for a link no joint moves.
  std::map<std::string, const sdf::Joint*> joint_of_child;
  for (uint64_t j = 0; j < model.JointCount(); ++j) {
    const sdf::Joint& joint = *model.JointByIndex(j);
    const std::string child = ChildLink(joint);
    if (!joint_of_child.emplace(child, &joint).second)
      Fail(joint.Element(), "link '" + child + "' is the child of two joints");
    // Before the links are read: the ghost links between such joints may have no inertial.
    if (!options_.actuated && !options_.OwnWorldJoints() && joint.ParentLinkName() == "world")
      Fail(joint.Element(), "joint '" + joint.Name() +
                                "': the object's `joint:` in the scene is its joint to the "
                                "world; leave `joint:` out to move it by the file's joints");
  }
  std::vector<std::string> roots;
  for (uint64_t l = 0; l < model.LinkCount(); ++l) {
    const sdf::Link& link = *model.LinkByIndex(l);
    const auto joint = joint_of_child.find(link.Name());
    X_MB_[link.Name()] =
        joint != joint_of_child.end()
            ? Resolve(joint->second->SemanticPose(), joint->second->Element(), "__model__")
            : Resolve(link.SemanticPose(), link.Element(), "__model__");
    if (joint == joint_of_child.end()) roots.push_back(link.Name());
  }
  if (model.LinkCount() == 0) Fail(model.Element(), "model '" + model.Name() + "' has no <link>");
  if (roots.size() > 1)
    Fail(model.LinkByName(roots[1])->Element(),
         "link '" + roots[1] + "' is not connected to link '" + roots[0] +
             "' by joints (a model is a tree of joints from one root link)");
  for (uint64_t l = 0; l < model.LinkCount(); ++l) {
    const sdf::Link& link = *model.LinkByIndex(l);
    const Eigen::Isometry3d X_ML = Resolve(link.SemanticPose(), link.Element(), "__model__");
    instance_.bodies.push_back(ReadLink(link, X_MB_.at(link.Name()).inverse() * X_ML));
  }
  if (!roots.empty() && options_.OwnWorldJoints())
    Fail(model.LinkByName(roots[0])->Element(),
         "link '" + roots[0] +
             "' has no joint to the world, and the object gives no `joint:` (give it "
             "`joint: floating`, `planar` or `fixed`, or join the link to `world`)");
  if (!roots.empty()) {  // the root's joint to the world, from the scene
    JointSpec root_joint;
    root_joint.name = options_.instance_name + "/root_joint";
    root_joint.parent = "world";
    root_joint.child = options_.instance_name + "/" + roots[0];
    root_joint.where = options_.where;
    if (options_.actuated) {
      root_joint.type = JointType::kFixed;
      root_joint.X_PJ = options_.base_pose * X_MB_.at(roots[0]);
    } else {
      root_joint.type = *options_.object_joint;
      if (root_joint.type != JointType::kFloating) root_joint.X_PJ = options_.base_pose;
    }
    instance_.joints.push_back(root_joint);
  }
  for (uint64_t j = 0; j < model.JointCount(); ++j)
    instance_.joints.push_back(ReadJoint(*model.JointByIndex(j)));
  return instance_;
}

// What libsdformat keeps without reading it, found in the file's text: a `drake:` element is
// ignored with a warning at its line (one per kind), a <drake:joint> or <drake:ball_constraint>
// (they change the kinematics) fails, and so does a misspelt <collision>, <visual> or
// <inertial> under a <link> (libsdformat copies an unknown element and only prints a line).
std::vector<std::string> AuditSdfText(const std::string& path, const SourceLocation& where) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  const std::string xml = text.str();
  const XmlScan scan = ScanXmlTags(xml);
  const std::vector<std::string> link_parts = {"collision", "visual", "inertial"};
  const std::vector<std::string> link_children = {
      "collision",         "visual",         "inertial",     "pose",
      "gravity",           "enable_wind",    "self_collide", "kinematic",
      "must_be_base_link", "velocity_decay", "sensor",       "projector",
      "audio_sink",        "audio_source",   "battery",      "light",
      "particle_emitter",  "frame",          "plugin"};
  std::vector<std::string> warnings;
  std::map<std::string, std::pair<int, int>> drake;  // tag: first line, count
  std::vector<std::string> order;
  for (const XmlStartTag& tag : scan.start_tags) {
    const std::string& name = tag.name;
    const std::string at = path + ":" + std::to_string(tag.line) + ": ";
    if (name == "drake:joint" || name == "drake:ball_constraint")
      ThrowAt(where, at + "<" + name +
                         "> (Drake's extension) changes the kinematics and is not read by "
                         "quasidyn; use an SDF <joint>");
    if (name.rfind("drake:", 0) == 0) {
      auto [entry, added] = drake.emplace(name, std::make_pair(tag.line, 0));
      if (added) order.push_back(name);
      ++entry->second.second;
      continue;
    }
    const bool in_link =
        tag.parent != XmlStartTag::kNoParent && scan.start_tags[tag.parent].name == "link";
    const bool known =
        name.find(':') != std::string::npos ||
        std::find(link_children.begin(), link_children.end(), name) != link_children.end();
    if (in_link && !known) {
      if (const std::string closest = ClosestName(name, link_parts); !closest.empty())
        ThrowAt(where, at + "<" + name + "> in a <link> is not an SDF element (did you mean <" +
                           closest + ">?); libsdformat would keep it unread");
    }
  }
  for (const std::string& name : order) {
    const auto [line, count] = drake.at(name);
    warnings.push_back(path + ":" + std::to_string(line) + ": <" + name +
                       "> ignored: Drake's extension is not read" +
                       (count > 1
                            ? " (" + std::to_string(count) + " in the file, the first at this line)"
                            : std::string()));
  }
  return warnings;
}

}  // namespace

InstanceSpec LoadSdfInstance(const std::string& sdf_path, const ModelFileOptions& given) {
  if (!std::filesystem::is_regular_file(sdf_path))
    ThrowFileNotFoundAt(given.where, "SDF file not found: " + sdf_path, sdf_path);
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(sdf_path, error);
  if (!error && bytes > kMaxUrdfFileBytes)
    ThrowAt(given.where, "SDF " + sdf_path + " has " + std::to_string(bytes) + " bytes; at most " +
                             std::to_string(kMaxUrdfFileBytes) + " are read");
  CheckModelFileNumbers(sdf_path, given.where);  // finite, within ±1e12
  const std::vector<std::string> text_warnings = AuditSdfText(sdf_path, given.where);
  ModelFileOptions options = given;
  options.model_directory = std::filesystem::path(sdf_path).parent_path().string();
  sdf::Root root;
  const sdf::Errors errors = root.Load(sdf_path);
  if (!errors.empty()) {
    std::string message = "SDFormat rejects " + sdf_path + ":";
    for (size_t i = 0; i < errors.size() && i < 3; ++i) {
      const sdf::Error& e = errors[i];
      message += " ";
      if (e.FilePath()) message += *e.FilePath() + (e.LineNumber() ? "" : ": ");
      if (e.LineNumber()) message += ":" + std::to_string(*e.LineNumber()) + ": ";
      message += e.Message() + (i + 1 < errors.size() && i < 2 ? ";" : "");
    }
    ThrowAt(options.where, message);
  }
  if (root.Model() == nullptr)
    ThrowAt(options.where, "SDF " + sdf_path +
                               " has no <model> at its root (a <world> file is not read: "
                               "give each model its own entry in the scene file)");
  InstanceSpec instance = SdfReader(sdf_path, options).Read(*root.Model());
  instance.warnings.insert(instance.warnings.begin(), text_warnings.begin(), text_warnings.end());
  return instance;
}

}  // namespace quasidyn
