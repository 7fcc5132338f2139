#include "quasidyn/io/urdf_loader.h"

#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace quasidyn {
namespace {

// The quasidyn capsule extension: urdfdom does not know <capsule>, so each one becomes a
// <mesh> whose filename carries its size ("quasidyn-capsule:<radius>:<length>"), and
// ReadLink turns such meshes back into capsules.
constexpr char kCapsulePrefix[] = "quasidyn-capsule:";

// `xml` with every comment blanked out (newlines kept, so line numbers still hold).
std::string BlankComments(std::string xml) {
  size_t start = 0;
  while ((start = xml.find("<!--", start)) != std::string::npos) {
    const size_t end = xml.find("-->", start + 4);
    const size_t stop = end == std::string::npos ? xml.size() : end + 3;
    for (size_t i = start; i < stop; ++i)
      if (xml[i] != '\n') xml[i] = ' ';
    start = stop;
  }
  return xml;
}

int LineAt(const std::string& text, size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

std::string ReplaceCapsules(const std::string& xml, const std::string& path,
                            const SourceLocation& where) {
  static const std::regex capsule_element(R"(<capsule\b([^>]*?)\s*(/>|>\s*</capsule\s*>))");
  static const std::regex attribute(R"re(\b(radius|length)\s*=\s*["']([^"']*)["'])re");
  std::string out;
  size_t copied = 0;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), capsule_element);
       it != std::sregex_iterator(); ++it) {
    const std::string attributes = (*it)[1].str();
    double radius = 0.0, length = 0.0;
    for (auto a = std::sregex_iterator(attributes.begin(), attributes.end(), attribute);
         a != std::sregex_iterator(); ++a) {
      char* end = nullptr;
      const std::string text = (*a)[2].str();
      const double value = std::strtod(text.c_str(), &end);
      const bool ok = end != text.c_str() && *end == '\0' && std::isfinite(value);
      ((*a)[1].str() == "radius" ? radius : length) = ok ? value : 0.0;
    }
    if (!(radius > 0.0) || !(length > 0.0)) {
      ThrowAt(where, path + ":" + std::to_string(LineAt(xml, it->position())) +
                         ": <capsule> needs radius > 0 and length > 0 (in m)");
    }
    std::ostringstream mesh;
    mesh.precision(17);
    mesh << "<mesh filename=\"" << kCapsulePrefix << radius << ":" << length << "\"/>";
    out += xml.substr(copied, it->position() - copied) + mesh.str();
    copied = it->position() + it->length();
  }
  return out + xml.substr(copied);
}

// Names of the <joint> elements in document order (first occurrence of each name).
std::vector<std::string> JointNamesInOrder(const std::string& xml) {
  static const std::regex joint_element(R"re(<joint\b[^>]*?\bname\s*=\s*["']([^"']*)["'])re");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), joint_element);
       it != std::sregex_iterator(); ++it) {
    if (std::find(names.begin(), names.end(), (*it)[1].str()) == names.end()) {
      names.push_back((*it)[1].str());
    }
  }
  return names;
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

BodySpec ReadLink(const urdf::Link& link, const std::string& path, const UrdfOptions& options) {
  const std::string where_text = path + ": link '" + link.name + "'";
  BodySpec body;
  body.name = options.instance_name + "/" + link.name;
  body.where = options.where;
  if (!link.inertial) {
    ThrowAt(options.where, where_text + " has no <inertial>; every body needs a mass > 0");
  }
  body.mass = link.inertial->mass;
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
  for (size_t k = 0; k < link.collision_array.size(); ++k) {
    const urdf::Collision& collision = *link.collision_array[k];
    ShapeSpec shape;
    shape.name = body.name + "/" + std::to_string(k);
    shape.X_BS = ToIsometry(collision.origin);
    shape.friction = options.friction;
    shape.where = options.where;
    const urdf::Geometry* geometry = collision.geometry.get();
    if (geometry == nullptr) ThrowAt(options.where, where_text + ": collision without geometry");
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
        ThrowAt(options.where, where_text +
                                   ": mesh collision geometry is not supported "
                                   "(use box, sphere, cylinder or capsule)");
      }
      default:
        ThrowAt(options.where, where_text +
                                   ": only box, sphere, cylinder and capsule "
                                   "collision geometry is supported (not meshes)");
    }
    body.shapes.push_back(shape);
  }
  return body;
}

JointSpec ReadJoint(const urdf::Joint& joint, const std::string& path, const UrdfOptions& options) {
  JointSpec spec;
  spec.name = options.instance_name + "/" + joint.name;
  spec.parent = options.instance_name + "/" + joint.parent_link_name;
  spec.child = options.instance_name + "/" + joint.child_link_name;
  spec.X_PJ = ToIsometry(joint.parent_to_joint_origin_transform);
  spec.axis = Eigen::Vector3d(joint.axis.x, joint.axis.y, joint.axis.z);
  spec.where = options.where;
  switch (joint.type) {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS:
      spec.type = JointType::kRevolute;
      break;
    case urdf::Joint::PRISMATIC:
      spec.type = JointType::kPrismatic;
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

InstanceSpec LoadUrdfInstance(const std::string& urdf_path, const UrdfOptions& options) {
  if (!std::filesystem::is_regular_file(urdf_path)) {
    ThrowAt(options.where, "URDF file not found: " + urdf_path);
  }
  std::ifstream file(urdf_path);
  std::stringstream text;
  text << file.rdbuf();
  const std::string xml = BlankComments(text.str());
  const urdf::ModelInterfaceSharedPtr model =
      urdf::parseURDF(ReplaceCapsules(xml, urdf_path, options.where));
  if (!model || !model->getRoot()) {
    ThrowAt(options.where, "cannot parse URDF " + urdf_path +
                               " (malformed XML or URDF; urdfdom's message is printed above)");
  }

  InstanceSpec instance;
  instance.name = options.instance_name;
  instance.actuated = options.actuated;
  instance.where = options.where;
  const std::string root = model->getRoot()->name;
  // Links: the root first, then by name (urdfdom keeps them in a std::map).
  instance.bodies.push_back(ReadLink(*model->getRoot(), urdf_path, options));
  for (const auto& [name, link] : model->links_) {
    if (name != root) instance.bodies.push_back(ReadLink(*link, urdf_path, options));
  }
  JointSpec root_joint;
  root_joint.name = options.instance_name + "/root_joint";
  root_joint.parent = "world";
  root_joint.child = options.instance_name + "/" + root;
  root_joint.type = options.actuated ? JointType::kFixed : options.object_joint;
  if (root_joint.type == JointType::kFixed) root_joint.X_PJ = options.base_pose;
  root_joint.where = options.where;
  instance.joints.push_back(root_joint);
  // Joints in URDF document order, so an instance's q follows the file (the builder then
  // moves any joint listed before its parent after it).
  for (const std::string& name : JointNamesInOrder(xml)) {
    const urdf::JointConstSharedPtr joint = model->getJoint(name);
    if (joint) instance.joints.push_back(ReadJoint(*joint, urdf_path, options));
  }
  return instance;
}

}  // namespace quasidyn
