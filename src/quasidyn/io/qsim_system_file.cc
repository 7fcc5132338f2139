#include "quasidyn/io/qsim_system_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/files/xml_tags.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/io/model_uri.h"
#include "quasidyn/io/qsim_parameters.h"
#include "quasidyn/io/sdf_loader.h"
#include "quasidyn/io/urdf_loader.h"

namespace quasidyn {
namespace {

bool IsAbsent(const YamlValue& value) {
  return !value.IsMap() && !value.IsSequence() && !value.IsScalar();
}

// The robot's system-file entry: Kp and the line of its name.
struct RobotEntry {
  std::vector<double> stiffness;
  SourceLocation stiffness_where, name_where;
};

// Loads the SDF or URDF of a model.
InstanceSpec LoadModel(const std::string& name, const std::string& path,
                       const SourceLocation& where, bool actuated, const XyzRpy& pose,
                       std::optional<JointType> object_joint, const PackageSearch& packages) {
  ModelFileOptions options;
  options.instance_name = name;
  options.actuated = actuated;
  options.object_joint = object_joint;
  options.base_pose = IsometryOf(pose);
  options.friction = kDrakeDefaultFriction;
  options.where = where;
  options.packages = packages;
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), ::tolower);
  if (extension == ".sdf") return LoadSdfInstance(path, options);
  if (extension == ".urdf") return LoadUrdfInstance(path, options);
  ThrowAt(where, path + ": a model file is an SDF (.sdf) or a URDF (.urdf)");
}

// Whether the object file joins its links to the world itself (the simulator's "ghost link"
// objects: an SDF <joint> whose <parent> is `world`; a URDF whose root link is `world`), read
// from its tags before the loader reads it: such an object takes no `joint:`.
bool HasOwnWorldJoints(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  const std::string xml = text.str();
  const XmlScan scan = ScanXmlTags(xml);
  for (const XmlText& run : scan.texts) {
    const XmlStartTag& tag = scan.start_tags[run.element];
    if (tag.name != "parent" || tag.parent == XmlStartTag::kNoParent) continue;
    if (scan.start_tags[tag.parent].name != "joint") continue;
    std::string_view value = run.text;
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front())))
      value.remove_prefix(1);
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
      value.remove_suffix(1);
    if (value == "world") return true;
  }
  for (const XmlStartTag& tag : scan.start_tags)
    if (tag.name == "link" && XmlAttribute(tag.attributes, "name") == "world") return true;
  return false;
}

// The joint a model's file itself sets between its root and the world, or null (the loader
// then adds "<name>/root_joint").
const JointSpec* OwnWorldJoint(const InstanceSpec& spec) {
  for (const JointSpec& joint : spec.joints)
    if (joint.parent == "world" && joint.name != spec.name + "/root_joint") return &joint;
  return nullptr;
}

bool HasMovableJoint(const InstanceSpec& spec) {
  for (const JointSpec& joint : spec.joints)
    if (joint.type != JointType::kFixed) return true;
  return false;
}

// q0 of the model: zero for every joint (Drake's default positions), moved to the nearer limit
// when zero lies outside; identity for a floating joint. In quasidyn's joint order (parents
// first, file order otherwise: io/scene_builder.h).
Eigen::VectorXd DefaultInitial(const InstanceSpec& spec) {
  std::vector<const JointSpec*> order;
  std::set<std::string> placed{"world"}, children;
  for (const JointSpec& joint : spec.joints) children.insert(joint.child);
  for (const JointSpec& joint : spec.joints)  // a gripper's arm link (MountOnLink)
    if (!children.count(joint.parent)) placed.insert(joint.parent);
  for (size_t pass = 0; pass <= spec.joints.size() && order.size() < spec.joints.size(); ++pass)
    for (const JointSpec& joint : spec.joints)
      if (!placed.count(joint.child) && placed.count(joint.parent)) {
        order.push_back(&joint);
        placed.insert(joint.child);
      }
  std::vector<double> q;
  for (const JointSpec* joint : order) {
    if (joint->type == JointType::kRevolute || joint->type == JointType::kPrismatic) {
      q.push_back(std::clamp(0.0, joint->lower_limit, joint->upper_limit));
    } else if (joint->type == JointType::kFloating) {
      q.insert(q.end(), {0, 0, 0, 1, 0, 0, 0});
    } else {
      q.insert(q.end(), JointNq(joint->type), 0.0);
    }
  }
  return Eigen::Map<const Eigen::VectorXd>(q.data(), static_cast<Eigen::Index>(q.size()));
}

// A welded link, or a link a frame is on, must be the model's root: the link the scene fixes at
// the weld's pose.
void CheckRootLink(const std::string& model, const std::string& link, const SourceLocation& where,
                   const InstanceSpec& spec) {
  for (const JointSpec& joint : spec.joints)
    if (joint.parent == "world" && joint.child != model + "/" + link)
      ThrowAt(where, "link '" + link + "' is not the root link of model '" + model + "' (" +
                         joint.child.substr(model.size() + 1) +
                         "): quasidyn welds a model, and places frames on it, by its root");
}

void CheckWeld(const DirectiveModel& model, const InstanceSpec& spec) {
  if (const JointSpec* own = OwnWorldJoint(spec))
    ThrowAt(model.weld_where, "model '" + model.name + "' is joined to the world in its file (" +
                                  own->name + ") and welded here; give one of the two");
  CheckRootLink(model.name, model.weld_link, model.weld_where, spec);
}

class Reader {
 public:
  Reader(const std::string& base_directory, const PackageSearch& packages, QsimScene* scene)
      : folder_(base_directory), packages_(packages), scene_(*scene) {}

  void ReadSystemFile(const YamlValue& root) {
    root.CheckKeys({"model_directive", "robots", "objects", "quasistatic_sim_params"});
    const YamlValue directive = root.Get("model_directive");
    const std::string path =
        ResolveModelUri(directive.AsString(), folder_, LocationOf(directive), packages_);
    const ModelDirectives directives =
        ReadModelDirectivesFile(path, LocationOf(directive), packages_);
    for (const YamlValue& robot : Items(root.Get("robots"))) {
      robot.CheckKeys({"name", "Kp"});
      const YamlValue name = robot.Get("name"), kp = robot.Get("Kp");
      const Eigen::VectorXd k = kp.AsVector();
      RobotEntry entry{{k.data(), k.data() + k.size()}, LocationOf(kp), LocationOf(name)};
      if (!robots_.emplace(name.AsString(), entry).second)
        name.Fail("robot '" + name.AsString() + "' is listed twice");
    }
    if (const auto objects = root.Find("objects")) ReadObjects(*objects, directives);
    if (const auto params = root.Find("quasistatic_sim_params"))
      ReadQsimParameters(*params, &scene_);
    for (const auto& [name, entry] : robots_) {
      bool found = false;
      for (const DirectiveModel& model : directives.models) found = found || model.name == name;
      if (!found) ThrowAt(entry.name_where, "robot '" + name + "' is not a model of " + path);
    }
    for (const DirectiveModel& model : directives.models) AddDirectiveModel(model, false);
    CheckRootLinks(directives);
    Order();
  }

  void ReadDirectiveFile(const YamlValue& root) {
    const ModelDirectives directives = ReadModelDirectives(root, folder_, packages_);
    scene_.gravity = Eigen::Vector3d(0, 0, -9.81);  // a MultibodyPlant's default
    scene_.warnings.push_back(root.file() +
                              ": a directive file has no Kp: every robot's joints get K = " +
                              std::to_string(static_cast<int>(kDirectiveFileStiffness)) +
                              " (a system file, `model_directive:`, gives them)");
    for (const DirectiveModel& model : directives.models) AddDirectiveModel(model, true);
    CheckRootLinks(directives);
    Order();
  }

 private:
  // A list that may be empty (`objects:` with nothing after it).
  static std::vector<YamlValue> Items(const YamlValue& value) {
    if (IsAbsent(value)) return {};
    if (!value.IsSequence()) value.Fail("must be a list");
    return value.Items();
  }

  void ReadObjects(const YamlValue& objects, const ModelDirectives& directives) {
    std::set<std::string> names;
    for (const DirectiveModel& model : directives.models) names.insert(model.name);
    for (const YamlValue& object : Items(objects)) {
      object.CheckKeys({"name", "file"});
      const YamlValue name = object.Get("name"), file = object.Get("file");
      QsimModel model;
      model.role = QsimModel::Role::kObject;
      model.name = name.AsString();
      if (!names.insert(model.name).second)
        name.Fail("'" + model.name + "' names another model of the system already");
      model.file = ResolveModelUri(file.AsString(), folder_, LocationOf(file), packages_);
      model.where = LocationOf(file);
      model.own_world_joints = HasOwnWorldJoints(model.file);
      const std::optional<JointType> joint =
          model.own_world_joints ? std::nullopt : std::optional<JointType>(JointType::kFloating);
      model.spec = LoadModel(model.name, model.file, model.where, false, {}, joint, packages_);
      model.initial = DefaultInitial(model.spec);
      scene_.models.push_back(std::move(model));
    }
  }

  void AddDirectiveModel(const DirectiveModel& model, bool directive_file) {
    QsimModel out;
    out.name = model.name;
    out.file = model.file;
    out.where = model.where;
    if (model.weld) out.pose = *model.weld;
    const auto robot = robots_.find(model.name);
    const bool is_robot = robot != robots_.end();
    out.spec = LoadModel(model.name, model.file, model.where, is_robot || directive_file, out.pose,
                         JointType::kFixed, packages_);
    if (model.weld) CheckWeld(model, out.spec);
    if (!model.weld_parent_model.empty()) MountOnLink(model, is_robot || directive_file, &out);
    const bool joined = model.weld || OwnWorldJoint(out.spec) != nullptr;
    if (!joined)
      ThrowAt(model.name_where, "model '" + model.name +
                                    "' is neither welded (add_weld) nor joined to the world in "
                                    "its file: Drake would let it float, and it is not an "
                                    "object of the system");
    if (is_robot || (directive_file && HasMovableJoint(out.spec))) {
      out.role = QsimModel::Role::kRobot;
      if (is_robot) {
        out.stiffness = robot->second.stiffness;
        out.stiffness_where = robot->second.stiffness_where;
      } else {
        out.stiffness = {kDirectiveFileStiffness};
        out.stiffness_where = model.name_where;
      }
      out.initial = DefaultInitial(out.spec);
    } else {
      if (HasMovableJoint(out.spec))
        ThrowAt(model.name_where, "model '" + model.name +
                                      "' has joints but is neither a robot (`robots:`) nor an "
                                      "object (`objects:`) of the system");
      if (!model.weld)
        ThrowAt(model.name_where,
                "model '" + model.name + "' is part of the environment: weld it (add_weld)");
      out.role = QsimModel::Role::kFixed;
      if (directive_file)  // loaded as a robot above
        out.spec = LoadModel(model.name, model.file, model.where, false, out.pose,
                             JointType::kFixed, packages_);
    }
    scene_.models.push_back(std::move(out));
  }

  // A robot welded to a link of a robot added before it (a gripper on an arm's last link):
  // its root joint's parent is that link (docs/scene-format.md, `base_parent`).
  void MountOnLink(const DirectiveModel& model, bool is_robot, QsimModel* out) const {
    const std::string& parent = model.weld_parent_model;
    const std::string body = parent + "/" + model.weld_parent_link;
    const QsimModel* carrier = nullptr;
    for (const QsimModel& m : scene_.models)
      if (m.name == parent) carrier = &m;
    const std::string what = "model '" + model.name + "' is welded to link '" +
                             model.weld_parent_link + "' of model '" + parent + "'";
    if (parent == model.name) ThrowAt(model.weld_where, what + ", its own");
    if (carrier == nullptr) ThrowAt(model.weld_where, what + ", which must be added before it");
    if (!is_robot || carrier->role != QsimModel::Role::kRobot)
      ThrowAt(model.weld_where,
              what +
                  ": quasidyn welds a model to another model's link only when both are "
                  "robots (a gripper on an arm); welded elsewhere, a model is fixed in the "
                  "world or on a model's root link");
    bool found = false;
    for (const BodySpec& b : carrier->spec.bodies) found = found || b.name == body;
    if (!found)
      ThrowAt(model.weld_parent_where,
              "model '" + parent + "' has no link '" + model.weld_parent_link + "'");
    for (JointSpec& joint : out->spec.joints)
      if (joint.parent == "world") joint.parent = body;
    out->base_parent = body;
  }

  void CheckRootLinks(const ModelDirectives& directives) const {
    for (const RootLinkUse& use : directives.root_links)
      for (const QsimModel& model : scene_.models)
        if (model.name == use.model) CheckRootLink(use.model, use.link, use.where, model.spec);
  }

  // Objects that move first, by name (the simulator adds them sorted: CreateMbp's std::set),
  // then the fixed models and the robots in the directives' order.
  void Order() {
    const auto rank = [](const QsimModel& m) {
      return m.role == QsimModel::Role::kObject ? 0 : m.role == QsimModel::Role::kFixed ? 1 : 2;
    };
    std::stable_sort(scene_.models.begin(), scene_.models.end(),
                     [&](const QsimModel& a, const QsimModel& b) {
                       if (rank(a) != rank(b)) return rank(a) < rank(b);
                       return rank(a) == 0 && a.name < b.name;
                     });
  }

  std::string folder_;  // the file's folder: relative names resolve there
  const PackageSearch& packages_;
  QsimScene& scene_;
  std::map<std::string, RobotEntry> robots_;
};

}  // namespace

bool IsQsimFile(const YamlValue& root) {
  return root.IsMap() && (root.Has("model_directive") || root.Has("directives"));
}

QsimScene ReadQsimFile(const YamlValue& root, const std::string& base_directory,
                       const PackageSearch& packages) {
  QsimScene scene;
  scene.file = root.file();
  scene.name = std::filesystem::path(root.file()).stem().string();
  Reader reader(base_directory, packages, &scene);
  if (root.Has("model_directive")) {
    reader.ReadSystemFile(root);
  } else {
    reader.ReadDirectiveFile(root);
  }
  return scene;
}

QsimScene ReadQsimSceneFile(const std::string& path,
                            const std::map<std::string, std::string>& package_folders) {
  const YamlValue root = YamlValue::Parse(ReadYamlFileText(path, {path, 0, ""}), path);
  if (!IsQsimFile(root))
    root.Fail(
        "not a file of the reference quasistatic simulator (it has neither `model_directive:` "
        "nor `directives:`)");
  PackageSearch packages;
  for (const auto& [name, folder] : package_folders)
    packages.command_line[name] = {folder, "--package " + name + "=" + folder};
  return ReadQsimFile(root, std::filesystem::path(path).parent_path().string(), packages);
}

}  // namespace quasidyn
