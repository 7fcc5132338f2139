#include "quasidyn/io/urdf_loader.h"

#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "quasidyn/files/utf8.h"
#include "quasidyn/files/xml_tags.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/io/mesh_shape.h"
#include "quasidyn/io/model_file_numbers.h"
#include "quasidyn/io/model_uri.h"
#include "quasidyn/io/urdf_audit.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

// The quasidyn capsule extension: urdfdom does not know <capsule>, so each one becomes a
// <mesh> whose filename carries its size ("quasidyn-capsule:<radius>:<length>"), and
// ReadLink turns such meshes back into capsules.
constexpr char kCapsulePrefix[] = "quasidyn-capsule:";

// The text urdfdom reads: `copy` (a scan of the URDF, its audit's elements removed,
// BlankUrdfElements) with each <capsule .../> (or empty <capsule ...></capsule>; Drake's
// <drake:capsule> alike) replaced by its mesh.
std::string ReplaceCapsules(XmlScan* copy, const std::string& path, const SourceLocation& where) {
  for (const XmlStartTag& tag : copy->start_tags) {
    if (tag.element == nullptr || (tag.name != "capsule" && tag.name != "drake:capsule")) continue;
    const std::string at = path + ":" + std::to_string(tag.line) + ": <" + tag.name + "> ";
    for (const tinyxml2::XMLNode* child = tag.element->FirstChild(); child != nullptr;
         child = child->NextSibling()) {
      if (child->ToComment() == nullptr)
        ThrowAt(where, at + "must be empty (<" + tag.name + " radius=\"r\" length=\"l\"/>)");
    }
    const auto number = [&](const char* key) {
      const std::optional<std::string_view> text = XmlAttribute(tag.attributes, key);
      if (!text) return 0.0;
      const std::string value_text(*text);
      char* stop = nullptr;
      const double value = std::strtod(value_text.c_str(), &stop);
      const bool ok = stop != value_text.c_str() && *stop == '\0' && std::isfinite(value);
      return ok ? value : 0.0;
    };
    const double radius = number("radius"), length = number("length");
    if (!(radius > 0.0) || !(length > 0.0)) {
      ThrowAt(where, at + "needs radius > 0 and length > 0 (in m)");
    }
    std::ostringstream filename;
    filename.precision(17);
    filename << kCapsulePrefix << radius << ":" << length;
    tag.element->DeleteChildren();
    for (const XmlAttributeValue& attribute : tag.attributes)
      tag.element->DeleteAttribute(attribute.name.c_str());
    tag.element->SetName("mesh");
    tag.element->SetAttribute("filename", filename.str().c_str());
  }
  return XmlDocumentText(*copy);
}

Eigen::Isometry3d ToIsometry(const urdf::Pose& pose) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z);
  X.linear() =
      Eigen::Quaterniond(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z)
          .normalized()
          .toRotationMatrix();
  return X;
}

// What the reader knows of a link from the file's text (io/urdf_audit.h): its lines.
struct LinkLines {
  const std::string* path = nullptr;
  const UrdfLinkDeclaration* declared = nullptr;  // null when the audit did not see it
  const XmlScan* scan = nullptr;
};

// "arm.urdf:14: link 'arm' <collision>" for collision k of a link.
std::string CollisionAt(const LinkLines& lines, const std::string& link, size_t k) {
  std::string at = *lines.path;
  if (lines.declared != nullptr && k < lines.declared->collision_lines.size())
    at += ":" + std::to_string(lines.declared->collision_lines[k]);
  return at + ": link '" + link + "' <collision>";
}

// The link's <collision> shapes added to body (box, sphere, cylinder, capsule). Each shape's
// `where` names the scene's field and the collision's line in the URDF, so a shape refused later
// (its size, io/scene_builder.cc; its geometry, geometry/scene_shapes.h) names the line too.
BodySpec ReadCollisions(const urdf::Link& link, BodySpec body, const LinkLines& lines,
                        const UrdfOptions& options) {
  for (size_t k = 0; k < link.collision_array.size(); ++k) {
    const urdf::Collision& collision = *link.collision_array[k];
    const std::string at = CollisionAt(lines, link.name, k);
    ShapeSpec shape;
    shape.name = body.name + "/" + std::to_string(k);
    shape.X_BS = ToIsometry(collision.origin);
    shape.friction = *options.friction;
    shape.where = options.where;
    shape.where.field += (shape.where.field.empty() ? "" : ": ") + at;
    const urdf::Geometry* geometry = collision.geometry.get();
    if (geometry == nullptr) ThrowAt(options.where, at + ": collision without geometry");
    switch (geometry->type) {
      case urdf::Geometry::SPHERE:
        shape.shape.type = ShapeType::kSphere;
        shape.shape.radius = static_cast<const urdf::Sphere*>(geometry)->radius;
        break;
      case urdf::Geometry::BOX: {
        const urdf::Vector3& dim = static_cast<const urdf::Box*>(geometry)->dim;
        shape.shape.type = ShapeType::kBox;
        shape.shape.size = Eigen::Vector3d(dim.x, dim.y, dim.z);
        break;
      }
      case urdf::Geometry::CYLINDER: {
        const auto* cylinder = static_cast<const urdf::Cylinder*>(geometry);
        shape.shape.type = ShapeType::kCylinder;
        shape.shape.radius = cylinder->radius;
        shape.shape.length = cylinder->length;
        break;
      }
      case urdf::Geometry::MESH: {
        const std::string& name = static_cast<const urdf::Mesh*>(geometry)->filename;
        if (name.rfind(kCapsulePrefix, 0) == 0) {
          shape.shape.type = ShapeType::kCapsule;
          std::istringstream size(name.substr(sizeof(kCapsulePrefix) - 1));
          char colon = 0;
          size >> shape.shape.radius >> colon >> shape.shape.length;
          break;
        }
        // A mesh collides as its convex hull (io/mesh_shape.h); the mesh stays for the viewer.
        const auto* mesh = static_cast<const urdf::Mesh*>(geometry);
        MeshShape hull = ConvexMeshShape(
            ResolveModelUri(name, options.model_directory, options.where, options.packages,
                            at + ": "),
            Eigen::Vector3d(mesh->scale.x, mesh->scale.y, mesh->scale.z), shape.where);
        shape.shape = hull.shape;
        shape.mesh = hull.mesh;
        break;
      }
      default:
        ThrowAt(options.where, at + ": only box, sphere, cylinder, capsule and mesh "
                                    "collision geometry is supported");
    }
    body.shapes.push_back(shape);
  }
  return body;
}

// The link's <visual> elements (primitives and meshes) for the viewer; named
// "<instance>/<link>/visual/<k>". A visual mesh that cannot be found or read is a warning (only
// collision geometry enters the step): the link's visuals are then all left out, so the viewer
// draws its collision shapes instead (Scene::visuals).
void ReadVisuals(const urdf::Link& link, const LinkLines& lines, const UrdfOptions& options,
                 BodySpec* body, std::vector<std::string>* warnings) {
  const auto visual_at = [&](size_t k) {
    std::string at = *lines.path;
    if (lines.declared != nullptr && k < lines.declared->visuals.size())
      at += ":" + std::to_string(lines.scan->start_tags[lines.declared->visuals[k]].line);
    return at + ": link '" + link.name + "' <visual>";
  };
  for (size_t k = 0; k < link.visual_array.size(); ++k) {
    const urdf::Visual& visual = *link.visual_array[k];
    const urdf::Geometry* geometry = visual.geometry.get();
    if (geometry == nullptr) continue;
    VisualSpec spec;
    spec.name = body->name + "/visual/" + std::to_string(k);
    spec.X_BV = ToIsometry(visual.origin);
    switch (geometry->type) {
      case urdf::Geometry::SPHERE:
        spec.shape.type = ShapeType::kSphere;
        spec.shape.radius = static_cast<const urdf::Sphere*>(geometry)->radius;
        break;
      case urdf::Geometry::BOX: {
        const urdf::Vector3& dim = static_cast<const urdf::Box*>(geometry)->dim;
        spec.shape.type = ShapeType::kBox;
        spec.shape.size = Eigen::Vector3d(dim.x, dim.y, dim.z);
        break;
      }
      case urdf::Geometry::CYLINDER: {
        const auto* cylinder = static_cast<const urdf::Cylinder*>(geometry);
        spec.shape.type = ShapeType::kCylinder;
        spec.shape.radius = cylinder->radius;
        spec.shape.length = cylinder->length;
        break;
      }
      case urdf::Geometry::MESH: {
        const auto* mesh = static_cast<const urdf::Mesh*>(geometry);
        if (mesh->filename.rfind(kCapsulePrefix, 0) == 0) {
          spec.shape.type = ShapeType::kCapsule;
          std::istringstream size(mesh->filename.substr(sizeof(kCapsulePrefix) - 1));
          char colon = 0;
          size >> spec.shape.radius >> colon >> spec.shape.length;
          break;
        }
        try {
          spec.mesh = VisualMesh(ResolveModelUri(mesh->filename, options.model_directory,
                                                 options.where, options.packages),
                                 Eigen::Vector3d(mesh->scale.x, mesh->scale.y, mesh->scale.z),
                                 options.where);
        } catch (const SceneError& error) {
          warnings->push_back(
              visual_at(k) + ": mesh " + mesh->filename +
              " is not drawn (the link's collision shapes are drawn instead): " + error.problem());
          body->visuals.clear();
          return;
        }
        break;
      }
      default:
        continue;
    }
    body->visuals.push_back(spec);
  }
}

BodySpec ReadLink(const urdf::Link& link, const std::string& path, const LinkLines& lines,
                  const UrdfOptions& options, std::vector<std::string>* warnings) {
  if (!IsValidUtf8(link.name)) ThrowAt(options.where, path + ": a link name is not valid UTF-8");
  const std::string where_text =
      path +
      (lines.declared != nullptr ? ":" + std::to_string(lines.declared->line) : std::string()) +
      ": link '" + link.name + "'";
  BodySpec body;
  body.name = options.instance_name + "/" + link.name;
  body.where = options.where;
  body.massless_allowed = options.MasslessLinksAllowed();
  ReadVisuals(link, lines, options, &body, warnings);
  if (!link.inertial) {
    if (body.massless_allowed) return ReadCollisions(link, body, lines, options);
    ThrowAt(options.where, where_text +
                               " has no <inertial>: an object that moves needs a mass > 0 "
                               "(its mass and weight enter the step); add <inertial>");
  }
  body.mass = link.inertial->mass;
  if (body.massless_allowed && body.mass == 0.0) {
    return ReadCollisions(link, body, lines, options);  // inertia unused, left zero
  }
  if (!(body.mass > 0.0)) {
    ThrowAt(options.where,
            where_text + ": mass must be > 0 (got " + std::to_string(body.mass) + ")");
  }
  const Eigen::Isometry3d X_BI = ToIsometry(link.inertial->origin);
  const urdf::Inertial& i = *link.inertial;
  Eigen::Matrix3d inertia;
  inertia << i.ixx, i.ixy, i.ixz, i.ixy, i.iyy, i.iyz, i.ixz, i.iyz, i.izz;
  body.com = X_BI.translation();
  body.inertia = X_BI.linear() * inertia * X_BI.linear().transpose();
  // The inertia's problems (or a robot link's singular inertia) at this file's link.
  body.inertia_where = {path, lines.declared != nullptr ? lines.declared->line : 0,
                        "link '" + link.name + "' <inertial>"};
  return ReadCollisions(link, body, lines, options);
}

JointSpec ReadJoint(const urdf::Joint& joint, const std::string& path, const UrdfOptions& options) {
  // `path` is "arm.urdf:LINE" when the joint's line is known.
  if (!IsValidUtf8(joint.name)) ThrowAt(options.where, path + ": a joint name is not valid UTF-8");
  JointSpec spec;
  spec.name = options.instance_name + "/" + joint.name;
  spec.parent = options.instance_name + "/" + joint.parent_link_name;
  spec.child = options.instance_name + "/" + joint.child_link_name;
  spec.X_PJ = ToIsometry(joint.parent_to_joint_origin_transform);
  spec.axis = Eigen::Vector3d(joint.axis.x, joint.axis.y, joint.axis.z);
  spec.where = options.where;
  switch (joint.type) {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::PRISMATIC:
      spec.type =
          joint.type == urdf::Joint::REVOLUTE ? JointType::kRevolute : JointType::kPrismatic;
      // <limit lower upper> [rad or m]; urdfdom reads absent bounds as 0, so equal bounds
      // (a joint that cannot move) are read as no limits. velocity and effort are not used.
      if (joint.limits && joint.limits->lower < joint.limits->upper) {
        spec.lower_limit = joint.limits->lower;
        spec.upper_limit = joint.limits->upper;
      }
      break;
    case urdf::Joint::CONTINUOUS:
      spec.type = JointType::kRevolute;
      break;
    case urdf::Joint::FIXED:
      spec.type = JointType::kFixed;
      break;
    default:
      ThrowAt(options.where, path + ": joint '" + joint.name +
                                 "': only fixed, revolute, continuous and prismatic joints "
                                 "are supported (floating / planar URDF joints are not)");
  }
  return spec;
}

}  // namespace

InstanceSpec LoadUrdfInstance(const std::string& urdf_path, const UrdfOptions& given_options) {
  UrdfOptions options = given_options;
  options.model_directory = std::filesystem::path(urdf_path).parent_path().string();
  // URDF has no friction: the scene file always gives it; a C++ caller's default is 0.5.
  if (!options.friction) options.friction = 0.5;
  if (!std::filesystem::is_regular_file(urdf_path)) {
    ThrowFileNotFoundAt(options.where, "URDF file not found: " + urdf_path, urdf_path);
  }
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(urdf_path, error);
  if (!error && bytes > kMaxUrdfFileBytes) {
    ThrowAt(options.where, "URDF " + urdf_path + " has " + std::to_string(bytes) +
                               " bytes; at most " + std::to_string(kMaxUrdfFileBytes) +
                               " are read");
  }
  std::ifstream file(urdf_path);
  std::stringstream text;
  text << file.rdbuf();
  const std::string xml = text.str();
  const XmlScan scan = ScanXmlTags(xml);
  if (!scan.error.empty()) {  // malformed XML, or nested too deep for urdfdom's parser
    ThrowAt(options.where, "cannot parse URDF " + urdf_path + ":" +
                               std::to_string(scan.error_line) + ": " + scan.error);
  }
  CheckModelFileNumbers(scan, urdf_path, options.where);  // finite, within ±1e12
  // urdfdom reads a copy without the elements it would choke on; what it then leaves out is
  // compared with what the file declares (io/urdf_audit.h).
  UrdfAudit audit = AuditUrdfText(scan, urdf_path, options.where);
  urdf::ModelInterfaceSharedPtr model;
  for (;;) {
    XmlScan copy = ScanXmlTags(xml);
    BlankUrdfElements(audit, &copy);
    model = urdf::parseURDF(ReplaceCapsules(&copy, urdf_path, options.where));
    if (!model || !model->getRoot()) {
      ThrowAt(options.where, "cannot parse URDF " + urdf_path +
                                 " (malformed URDF; urdfdom's message is printed above)");
    }
    const std::optional<size_t> lost_visual =
        CheckUrdfLoaded(audit, *model, urdf_path, options.where);
    if (!lost_visual) break;
    AddDroppedVisual(*lost_visual, scan, urdf_path, &audit);  // and read again
  }
  std::map<std::string, const UrdfLinkDeclaration*> declared;
  for (const UrdfLinkDeclaration& link : audit.links) declared.emplace(link.name, &link);
  const auto lines_of = [&](const std::string& link) {
    const auto found = declared.find(link);
    return LinkLines{&urdf_path, found == declared.end() ? nullptr : found->second, &scan};
  };

  InstanceSpec instance;
  instance.name = options.instance_name;
  instance.actuated = options.actuated;
  instance.where = options.where;
  instance.source_file = urdf_path;
  instance.warnings = audit.warnings;
  const std::string root = model->getRoot()->name;
  // An articulated object whose file holds its joints to the world: the root link is `world`
  // (Drake's convention), which is the scene's world, not a body of the object.
  const bool own_world_joints = options.OwnWorldJoints();
  if (own_world_joints && root != "world") {
    ThrowAt(options.where, urdf_path +
                               ": the object gives no `joint:` but the file declares no "
                               "joint to the world (its root link '" +
                               root +
                               "' is not `world`); give the object `joint: floating`, `planar` "
                               "or `fixed`, or join its links to a `world` link");
  }
  // Links: the root first, then by name (urdfdom keeps them in a std::map).
  if (!own_world_joints) {
    instance.bodies.push_back(
        ReadLink(*model->getRoot(), urdf_path, lines_of(root), options, &instance.warnings));
  }
  for (const auto& [name, link] : model->links_) {
    if (name != root)
      instance.bodies.push_back(
          ReadLink(*link, urdf_path, lines_of(name), options, &instance.warnings));
  }
  if (!own_world_joints) {
    JointSpec root_joint;
    root_joint.name = options.instance_name + "/root_joint";
    root_joint.parent = "world";
    root_joint.child = options.instance_name + "/" + root;
    root_joint.type = options.actuated ? JointType::kFixed : *options.object_joint;
    // A fixed root sits at base_pose; a planar object's joint frame is its plane (identity in
    // planar scenes); a floating joint's frame is the world's.
    if (root_joint.type != JointType::kFloating) root_joint.X_PJ = options.base_pose;
    root_joint.where = options.where;
    instance.joints.push_back(root_joint);
  }
  // Joints in URDF document order (the <robot>'s own <joint>s, not a <transmission>'s), so an
  // instance's q follows the file (the builder then moves any joint listed before its parent
  // after it).
  for (const auto& [name, line] : audit.joints) {
    const urdf::JointConstSharedPtr joint = model->getJoint(name);
    if (!joint) continue;
    JointSpec spec = ReadJoint(*joint, urdf_path + ":" + std::to_string(line), options);
    if (own_world_joints && joint->parent_link_name == root) {  // a joint to the world
      spec.parent = "world";
      spec.X_PJ = options.base_pose * spec.X_PJ;
    }
    instance.joints.push_back(spec);
  }
  return instance;
}

}  // namespace quasidyn
