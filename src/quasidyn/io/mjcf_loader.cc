#include "quasidyn/io/mjcf_loader.h"

#include <mujoco/mujoco.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "quasidyn/files/utf8.h"
#include "quasidyn/files/xml_tags.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/io/mesh_hull.h"
#include "quasidyn/io/model_file_numbers.h"

namespace quasidyn {
namespace {

using ModelPtr = std::unique_ptr<mjModel, void (*)(mjModel*)>;

Eigen::Vector3d Vector(const mjtNum* v) { return Eigen::Vector3d(v[0], v[1], v[2]); }

Eigen::Matrix3d Rotation(const mjtNum* quat) {  // MuJoCo quaternions are (w, x, y, z)
  return Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).normalized().toRotationMatrix();
}

Eigen::Isometry3d Pose(const mjtNum* pos, const mjtNum* quat) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Vector(pos);
  X.linear() = Rotation(quat);
  return X;
}

Eigen::Isometry3d Translation(const Eigen::Vector3d& p) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = p;
  return X;
}

class MjcfReader {
 public:
  MjcfReader(const std::string& path, const mjModel& m, const ModelFileOptions& options)
      : path_(path), m_(m), options_(options) {}

  InstanceSpec Read();

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    ThrowAt(options_.where, path_ + ": " + what);
  }
  std::string Name(const int* addresses, int index, const char* kind) const {
    const char* name = m_.names + addresses[index];
    const std::string text = *name ? std::string(name) : kind + std::to_string(index);
    if (!IsValidUtf8(text)) Fail(std::string("a ") + kind + " name is not valid UTF-8");
    return text;
  }
  std::string BodyName(int b) const { return Name(m_.name_bodyadr, b, "body"); }
  std::string JointName(int j) const { return Name(m_.name_jntadr, j, "joint"); }
  std::string GeomName(int g) const { return Name(m_.name_geomadr, g, "geom"); }
  // "<tag> (line N)" from the first occurrence of <tag (with name="name" when name is not
  // empty) in the file's text, or "<tag>" when it is not there (an <include>d file).
  std::string Element(const std::string& tag, const std::string& name = "") const;
  // The line of that element, or 0.
  int Line(const std::string& tag, const std::string& name = "") const;
  // "arm.xml:14: geom 'finger' of body 'hand'" (the line when the geom is named in the file).
  std::string GeomAt(int g, int b) const {
    const char* written = m_.names + m_.name_geomadr[g];
    const int line = *written ? Line("geom", written) : 0;
    std::string at = path_;  // appended piece by piece: GCC 12's -Wrestrict (bug 105329)
    if (line > 0) at.append(":").append(std::to_string(line));
    at.append(": geom '").append(GeomName(g)).append("' of body '").append(BodyName(b));
    return at.append("'");
  }
  void WarnIgnored(int count, const std::string& tag, const std::string& what);
  // The geoms of body b into *body (collision shapes and visuals), in the frame X_BF of the
  // MuJoCo body frame F in the quasidyn body frame B.
  void ReadGeoms(int b, const Eigen::Isometry3d& X_BF, BodySpec* body);
  void ReadBody(int b);

  std::string path_;
  const mjModel& m_;
  ModelFileOptions options_;
  InstanceSpec instance_;
  XmlScan scan_;  // the MJCF file's elements, for the lines of warnings
  // X_BF per MuJoCo body: its MuJoCo frame F in its quasidyn body frame B (B is F moved to the
  // last joint's anchor).
  std::map<int, Eigen::Isometry3d> anchor_shift_;
};

int MjcfReader::Line(const std::string& tag, const std::string& name) const {
  for (const XmlStartTag& start : scan_.start_tags) {
    if (start.name != tag) continue;
    if (!name.empty() && XmlAttribute(start.attributes, "name") != std::string_view(name)) continue;
    return start.line;
  }
  return 0;
}

std::string MjcfReader::Element(const std::string& tag, const std::string& name) const {
  const int line = Line(tag, name);
  if (line == 0) return "<" + tag + ">";
  return "<" + tag + "> (line " + std::to_string(line) + ")";
}

void MjcfReader::WarnIgnored(int count, const std::string& tag, const std::string& what) {
  if (count <= 0) return;
  instance_.warnings.push_back(path_ + ": " + Element(tag) + ": " + std::to_string(count) + " " +
                               what +
                               " ignored (quasidyn models contact and impedance-"
                               "controlled robots only)");
}

void MjcfReader::ReadGeoms(int b, const Eigen::Isometry3d& X_BF, BodySpec* body) {
  for (int g = m_.body_geomadr[b]; g >= 0 && g < m_.body_geomadr[b] + m_.body_geomnum[b]; ++g) {
    const std::string what = "geom '" + GeomName(g) + "' of body '" + BodyName(b) + "'";
    const mjtNum* size = m_.geom_size + 3 * g;
    Shape shape;
    std::shared_ptr<const TriangleMesh> mesh;
    switch (m_.geom_type[g]) {
      case mjGEOM_SPHERE:
        shape.type = ShapeType::kSphere;
        shape.radius = size[0];
        break;
      case mjGEOM_CAPSULE:
      case mjGEOM_CYLINDER:  // size = (radius, half length), axis z
        shape.type = m_.geom_type[g] == mjGEOM_CAPSULE ? ShapeType::kCapsule : ShapeType::kCylinder;
        shape.radius = size[0];
        shape.length = 2 * size[1];
        break;
      case mjGEOM_BOX:  // half sizes
        shape.type = ShapeType::kBox;
        shape.size = 2 * Vector(size);
        break;
      case mjGEOM_PLANE:
        if (b != 0) Fail(what + ": a plane is allowed only on the <worldbody> (a half_space)");
        shape.type = ShapeType::kHalfSpace;
        break;
      case mjGEOM_MESH: {
        const int id = m_.geom_dataid[g];
        auto triangles = std::make_shared<TriangleMesh>();
        triangles->file = path_ + " <mesh> '" + Name(m_.name_meshadr, id, "mesh") + "'";
        for (int v = 0; v < m_.mesh_vertnum[id]; ++v) {
          const float* p = m_.mesh_vert + 3 * (m_.mesh_vertadr[id] + v);
          triangles->vertices.emplace_back(p[0], p[1], p[2]);
        }
        for (int f = 0; f < m_.mesh_facenum[id]; ++f) {
          const int* t = m_.mesh_face + 3 * (m_.mesh_faceadr[id] + f);
          triangles->triangles.emplace_back(t[0], t[1], t[2]);
        }
        mesh = triangles;
        if (m_.geom_contype[g] == 0 && m_.geom_conaffinity[g] == 0) break;  // a visual
        MeshHull hull;
        try {
          hull = ConvexHullOfMesh(*triangles);
        } catch (const std::runtime_error& e) {
          Fail(what + ": " + e.what());
        }
        if (const std::string problem = NonConvexityProblem(hull, *triangles); !problem.empty())
          instance_.warnings.push_back(problem +
                                       " (MuJoCo collides it as its hull; so does "
                                       "quasidyn)");
        shape.type = ShapeType::kConvex;
        shape.vertices = hull.vertices;
        break;
      }
      default:
        Fail(what +
             ": ellipsoid and height-field geoms are not supported (sphere, capsule, "
             "cylinder, box, mesh; plane on the worldbody)");
    }
    const Eigen::Isometry3d X_BG = X_BF * Pose(m_.geom_pos + 3 * g, m_.geom_quat + 4 * g);
    const std::string owner = b == 0 ? options_.instance_name + "/world" : body->name;
    if (m_.geom_contype[g] == 0 && m_.geom_conaffinity[g] == 0) {
      if (b == 0 || shape.type == ShapeType::kHalfSpace) {  // the scene draws its world
        instance_.warnings.push_back(GeomAt(g, b) +
                                     ": contype = conaffinity = 0 (a visual) on the world or a "
                                     "plane: not drawn (the viewer draws the scene's "
                                     "environment)");
        continue;
      }
      VisualSpec visual;
      visual.name = owner + "/visual/" + GeomName(g);
      visual.X_BV = X_BG;
      visual.shape = shape;
      visual.mesh = mesh;
      body->visuals.push_back(visual);
      continue;
    }
    ShapeSpec spec;
    spec.name = owner + "/" + GeomName(g);
    spec.X_BS = b == 0 && options_.actuated ? options_.base_pose * X_BG : X_BG;
    spec.shape = shape;
    spec.mesh = mesh;
    spec.friction = m_.geom_friction[3 * g];
    spec.where = options_.where;
    // The geom's line in the MJCF, so a shape refused later (its size) names it.
    spec.where.field += (spec.where.field.empty() ? "" : ": ") + GeomAt(g, b);
    if (b == 0) {
      instance_.world_shapes.push_back(spec);
    } else {
      body->shapes.push_back(spec);
    }
  }
}

void MjcfReader::ReadBody(int b) {
  const std::string name = options_.instance_name + "/" + BodyName(b);
  const int parent = m_.body_parentid[b];
  const std::string parent_name =
      parent == 0 ? "world" : options_.instance_name + "/" + BodyName(parent);
  // X_PF: the MuJoCo frame of b in the quasidyn frame of its parent (which MuJoCo's anchor
  // shifted by −a_last, see below).
  Eigen::Isometry3d X_PF = Pose(m_.body_pos + 3 * b, m_.body_quat + 4 * b);
  if (parent == 0) {
    X_PF = options_.base_pose * X_PF;
  } else {
    X_PF = anchor_shift_.at(parent) * X_PF;
  }
  const int first = m_.body_jntadr[b], count = m_.body_jntnum[b];
  const bool top = parent == 0;
  std::vector<JointSpec> joints;
  Eigen::Vector3d previous_anchor = Eigen::Vector3d::Zero();
  for (int j = first; j >= 0 && j < first + count; ++j) {
    const std::string what = "joint '" + JointName(j) + "' of body '" + BodyName(b) + "'";
    const int type = m_.jnt_type[j];
    if (type == mjJNT_BALL) Fail(what + ": ball joints are not supported (hinge, slide, free)");
    if (type == mjJNT_FREE) {
      if (options_.actuated) Fail(what + ": a robot has a fixed base (no free joint)");
      if (!top) Fail(what + ": a free joint must be on the object's top body");
      if (options_.OwnWorldJoints())
        Fail(what + ": the object gives no `joint:`; a free top body needs `joint: floating`");
      continue;  // the scene's `joint:` (floating, planar or fixed) moves the object
    }
    // An object's hinge or slide below its top body is a joint of the articulated object; on
    // its top body it is the object's joint to the world, where the scene gives none.
    if (!options_.actuated && top && !options_.OwnWorldJoints())
      Fail(what +
           ": a hinge or slide joint on the object's top body joins it to the world; "
           "leave out the object's `joint:` in the scene to use it");
    JointSpec spec;
    spec.name = options_.instance_name + "/" + JointName(j);
    spec.type = type == mjJNT_HINGE ? JointType::kRevolute : JointType::kPrismatic;
    spec.axis = Vector(m_.jnt_axis + 3 * j);
    if (m_.jnt_limited[j]) {
      spec.lower_limit = m_.jnt_range[2 * j];
      spec.upper_limit = m_.jnt_range[2 * j + 1];
    }
    // The joint frame: the MuJoCo body frame moved to the anchor (Translation(a)); the next
    // joint's frame is that one moved by a_next − a.
    const Eigen::Vector3d anchor = Vector(m_.jnt_pos + 3 * j);
    spec.X_PJ = joints.empty() ? X_PF * Translation(anchor) : Translation(anchor - previous_anchor);
    spec.where = options_.where;
    previous_anchor = anchor;
    joints.push_back(spec);
    const int dof = m_.jnt_dofadr[j];
    if (m_.jnt_stiffness[j] != 0 || m_.dof_damping[dof] != 0 || m_.dof_armature[dof] != 0 ||
        m_.dof_frictionloss[dof] != 0)
      instance_.warnings.push_back(path_ + ": " + Element("joint", JointName(j)) + " '" +
                                   JointName(j) +
                                   "': stiffness, damping, armature and frictionloss are "
                                   "ignored (a robot joint is the scene's impedance)");
  }
  // Chain the joints: every joint but the last moves a massless body of its own.
  if (joints.empty()) {
    JointSpec fixed;
    fixed.name = options_.instance_name + "/" + BodyName(b) + "/weld";
    fixed.type = JointType::kFixed;
    fixed.X_PJ = X_PF;
    fixed.where = options_.where;
    if (!options_.actuated && top) {  // the object's joint to the world (the scene's)
      if (options_.OwnWorldJoints())
        Fail("body '" + BodyName(b) +
             "' has no joint to the world, and the object gives no `joint:` (give it `joint: "
             "floating`, `planar` or `fixed`, or a hinge or slide joint)");
      fixed.name = options_.instance_name + "/root_joint";
      fixed.type = *options_.object_joint;
      fixed.X_PJ =
          fixed.type == JointType::kFloating ? Eigen::Isometry3d::Identity() : options_.base_pose;
    }
    joints.push_back(fixed);
  }
  std::string chain_parent = parent_name;
  for (size_t k = 0; k < joints.size(); ++k) {
    JointSpec& joint = joints[k];
    joint.parent = chain_parent;
    const bool last = k + 1 == joints.size();
    joint.child = last ? name : name + "/" + joint.name.substr(options_.instance_name.size() + 1);
    if (!last) {
      BodySpec link;
      link.name = joint.child;
      link.massless_allowed = true;
      link.where = options_.where;
      instance_.bodies.push_back(link);
    }
    chain_parent = joint.child;
    instance_.joints.push_back(joint);
  }
  // The body frame is the last joint's frame: MuJoCo's frame moved to the last anchor (a
  // free-object's or fixed body's frame is MuJoCo's own).
  const Eigen::Isometry3d X_BF = Translation(-previous_anchor);
  anchor_shift_[b] = X_BF;
  BodySpec body;
  body.name = name;
  body.where = options_.where;
  body.massless_allowed = options_.MasslessLinksAllowed();
  body.mass = m_.body_mass[b];
  if (body.mass > 0) {
    const Eigen::Matrix3d R = X_BF.linear() * Rotation(m_.body_iquat + 4 * b);
    body.inertia = R * Vector(m_.body_inertia + 3 * b).asDiagonal() * R.transpose();
    body.com = X_BF * Vector(m_.body_ipos + 3 * b);
  } else if (!body.massless_allowed) {
    Fail("body '" + BodyName(b) +
         "' has no mass (no <inertial> and no geom with density): an object that moves needs "
         "a mass > 0");
  }
  ReadGeoms(b, X_BF, &body);
  instance_.bodies.push_back(body);
}

InstanceSpec MjcfReader::Read() {
  std::ifstream file(path_);
  std::stringstream text;
  text << file.rdbuf();
  scan_ = ScanXmlTags(text.str());
  instance_.name = options_.instance_name;
  instance_.actuated = options_.actuated;
  instance_.where = options_.where;
  instance_.source_file = path_;
  int top_bodies = 0;
  for (int b = 1; b < m_.nbody; ++b) top_bodies += m_.body_parentid[b] == 0 ? 1 : 0;
  if (m_.nbody < 2) Fail("the <worldbody> has no <body>");
  if (!options_.actuated && top_bodies != 1)
    Fail("an object is one tree of bodies; the <worldbody> has " + std::to_string(top_bodies) +
         " top bodies (give each its own entry in the scene file)");
  BodySpec world;  // the worldbody's geoms go to the environment
  world.name = options_.instance_name + "/world";
  ReadGeoms(0, Eigen::Isometry3d::Identity(), &world);
  for (int b = 1; b < m_.nbody; ++b) ReadBody(b);  // MuJoCo orders parents first
  WarnIgnored(m_.nu, "actuator", "actuators are");
  WarnIgnored(m_.ntendon, "tendon", "tendons are");
  WarnIgnored(m_.neq, "equality", "equality constraints are");
  WarnIgnored(m_.nsite, "site", "sites are");
  WarnIgnored(m_.nsensor, "sensor", "sensors are");
  WarnIgnored(m_.nkey, "key", "keyframes are");
  WarnIgnored(m_.ncam, "camera", "cameras are");
  WarnIgnored(m_.nlight, "light", "lights are");
  WarnIgnored(m_.npair, "pair", "explicit contact pairs are");
  WarnIgnored(m_.nexclude, "exclude", "contact exclusions are");
  return instance_;
}

}  // namespace

InstanceSpec LoadMjcfInstance(const std::string& mjcf_path, const ModelFileOptions& options) {
  if (options.friction)
    ThrowAt(options.where,
            "MJCF geoms carry their own friction (geom friction, MuJoCo's default 1); remove "
            "`friction:` and set it in the file");
  if (!std::filesystem::is_regular_file(mjcf_path))
    ThrowFileNotFoundAt(options.where, "MJCF file not found: " + mjcf_path, mjcf_path);
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(mjcf_path, error);
  if (!error && bytes > kMaxUrdfFileBytes)
    ThrowAt(options.where, "MJCF " + mjcf_path + " has " + std::to_string(bytes) +
                               " bytes; at most " + std::to_string(kMaxUrdfFileBytes) +
                               " are read");
  CheckModelFileNumbers(mjcf_path, options.where);  // finite, within ±1e12
  char message[1024] = "";
  ModelPtr model(mj_loadXML(mjcf_path.c_str(), nullptr, message, sizeof(message)), mj_deleteModel);
  if (model == nullptr)
    ThrowAt(options.where, "MuJoCo rejects " + mjcf_path + ": " + std::string(message));
  return MjcfReader(mjcf_path, *model, options).Read();
}

}  // namespace quasidyn
