#include "quasidyn/io/scene_document.h"

#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "quasidyn/io/body_reader.h"
#include "quasidyn/io/field_lines.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/io/mjcf_loader.h"
#include "quasidyn/io/mpc_reader.h"
#include "quasidyn/io/plane_frame.h"
#include "quasidyn/io/planning_reader.h"
#include "quasidyn/io/qsim_scene.h"
#include "quasidyn/io/scene_builder.h"
#include "quasidyn/io/sdf_loader.h"
#include "quasidyn/io/settings_reader.h"
#include "quasidyn/io/shape_reader.h"
#include "quasidyn/io/side_file.h"
#include "quasidyn/io/urdf_loader.h"
#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

struct Context {
  bool planar = false;
  std::string base_directory;
  PackageSearch packages;  // package:// folders (io/package_folders.h)
  // The keys an object may carry beyond the format's (SceneDocument::ReadModels).
  std::vector<std::string> extension_object_keys;
};

JointType ReadJointType(const YamlValue& value) {
  const std::string name = value.AsString();
  for (JointType type : {JointType::kFixed, JointType::kRevolute, JointType::kPrismatic,
                         JointType::kPlanar, JointType::kFloating}) {
    if (name == JointTypeName(type)) return type;
  }
  value.Fail("unknown joint type '" + name + "' (fixed, revolute, prismatic, planar, floating)");
}

std::string ResolvePath(const std::string& path, const Context& context) {
  return ResolveScenePath(path, context.base_directory);
}

ValueSource SourceOf(const YamlValue& value) { return {value.file(), value.line(), value.path()}; }

// A formulation parameter as a matrix: a number (1 × 1), a list of numbers (n × 1) or a list of
// equally long lists (n × m).
Eigen::MatrixXd ReadParameterValue(const YamlValue& value) {
  if (value.IsScalar()) return Eigen::MatrixXd::Constant(1, 1, value.AsDouble());
  if (!value.IsSequence()) value.Fail("must be a number, a list of numbers or a list of lists");
  const std::vector<YamlValue> items = value.Items();
  if (items.empty()) value.Fail("needs at least one entry");
  if (items[0].IsScalar()) {
    const Eigen::VectorXd column = value.AsVector();
    return column;
  }
  const int columns = static_cast<int>(items[0].Items().size());
  Eigen::MatrixXd matrix(static_cast<int>(items.size()), columns);
  for (size_t i = 0; i < items.size(); ++i) {
    if (!items[i].IsSequence()) items[i].Fail("must be a list of numbers, as the first row");
    matrix.row(static_cast<int>(i)) = items[i].AsVector(columns).transpose();
  }
  return matrix;
}

// The block as written (SceneDocument::formulation): its type and parameters, unchecked. The
// error of the first parameter that cannot be read goes to *unread (the parameters before it
// are read), so that a reader that checks the type and those parameters meets their defects
// first, as a file's reader does (SceneDocument::ThrowUnreadFormulationValue).
void ReadFormulationBlock(const YamlValue& formulation, Scene* scene, std::exception_ptr* unread) {
  const YamlValue type = formulation.Get("type");
  scene->formulation.name = type.AsString();
  scene->formulation.source = SourceOf(type);
  try {
    for (const std::string& key : formulation.Keys()) {
      if (key == "type") continue;
      const YamlValue parameter = formulation.Get(key);
      scene->formulation.parameters.Set(key, ReadParameterValue(parameter), SourceOf(parameter));
    }
  } catch (const SceneError&) {
    *unread = std::current_exception();
  }
}

void ReadParameters(const YamlValue& root, Scene* scene, std::exception_ptr* unread) {
  scene->name = root.Get("name").AsString();
  const YamlValue dimension = root.Get("dimension");
  const int d = dimension.AsInt();
  if (d != 2 && d != 3) dimension.Fail("must be 2 (planar) or 3 (got " + std::to_string(d) + ")");
  scene->planar = d == 2;
  scene->gravity = scene->planar ? Eigen::Vector3d(0, -9.81, 0) : Eigen::Vector3d(0, 0, -9.81);
  if (const auto gravity = root.Find("gravity")) {
    scene->gravity = gravity->AsVector3();
    if (scene->planar && scene->gravity.z() != 0.0) {
      gravity->Fail("must lie in the x-y plane (z = 0) in a planar scene");
    }
  }
  scene->time_step = root.Get("time_step").AsDouble(kTimeStepRange);
  if (const auto duration = root.Find("duration")) {  // Scene::duration
    scene->duration = duration->AsDouble(kDurationRange);
  }
  if (const auto tolerance = root.Find("contact_tolerance")) {
    scene->contact_tolerance = tolerance->AsDouble(kContactToleranceRange);
  }
  if (const auto conventions = root.Find("conventions")) {  // model/simulator_conventions.h
    FieldLines lines(*conventions);
    ReadSettingsBlock(SimulatorConventionsSchema(), *conventions, &scene->conventions, &lines);
  }
  if (const auto rays = root.Find("friction_rays")) {
    if (scene->planar) rays->Fail("planar scenes always use the 2 in-plane tangents; remove it");
    scene->friction_rays = rays->AsInt();
    // n_d = 2 in 3D is the reference simulator's pair of rays ±x̂ × n (friction_cone.h).
    const bool qsim_rays = scene->conventions.friction_ray_basis == FrictionRayBasis::kQsim;
    const int fewest = qsim_rays ? 2 : 3;
    if (scene->friction_rays < fewest || scene->friction_rays > kMaxFrictionRays) {
      rays->Fail("must be an integer in [" + std::to_string(fewest) + ", " +
                 std::to_string(kMaxFrictionRays) + "] (got " +
                 std::to_string(scene->friction_rays) + ")" +
                 (qsim_rays ? "" : "; 2 needs conventions.friction_ray_basis: qsim"));
    }
  }
  if (const auto combination = root.Find("friction_combination")) {
    const std::string rule = combination->AsString();
    if (rule == "min") {
      scene->friction_combination = FrictionCombination::kMin;
    } else if (rule == "geometric") {
      scene->friction_combination = FrictionCombination::kGeometricMean;
    } else if (rule == "harmonic") {
      scene->friction_combination = FrictionCombination::kHarmonic;
    } else {
      combination->Fail("unknown rule '" + rule + "' (min, geometric, harmonic)");
    }
  }
  if (const auto formulation = root.Find("formulation"))
    ReadFormulationBlock(*formulation, scene, unread);
}

CommandKnot ReadKnot(const YamlValue& value) {
  value.CheckKeys({"t", "q"});
  CommandKnot knot;
  knot.time = value.Get("t").AsDouble();
  knot.position = value.Get("q").AsVector();
  knot.where = LocationOf(value);
  return knot;
}

void ReadInitialAndCommands(const YamlValue& value, InstanceSpec* instance, bool required) {
  if (const auto initial = value.Find("initial")) {
    instance->initial = initial->AsVector();
    instance->initial_where = LocationOf(*initial);
  } else if (required) {
    value.Get("initial");  // throws "missing required field"
  } else {
    instance->initial_where = LocationOf(value);
  }
  if (const auto velocity = value.Find("initial_velocity")) {  // Scene::v0
    instance->initial_velocity = velocity->AsVector();
    instance->initial_velocity_where = LocationOf(*velocity);
  }
  if (const auto commands = value.Find("commands")) {
    for (const YamlValue& knot : commands->Items()) instance->commands.push_back(ReadKnot(knot));
    if (instance->commands.empty()) commands->Fail("needs at least one knot");
  }
}

// The model file an object or robot names: "urdf", "sdf" or "mjcf", or "" for an inline model;
// two of them fail.
std::string ModelFileKey(const YamlValue& value) {
  std::string found;
  for (const char* key : {"urdf", "sdf", "mjcf"}) {
    if (!value.Has(key)) continue;
    if (!found.empty()) value.Get(key).Fail("give one model file (`" + found + "` is given)");
    found = key;
  }
  return found;
}

// Loads the model file of `key` (ModelFileKey) with the options the entry gives: the URDF
// reader needs `friction` (URDF has none); SDF and MJCF take it for the shapes whose file gives
// none.
InstanceSpec LoadModelFile(const YamlValue& value, const std::string& key, ModelFileOptions options,
                           const Context& context) {
  const YamlValue file = value.Get(key);
  options.instance_name = value.Get("name").AsString();
  options.where = LocationOf(file);
  options.packages = context.packages;
  if (key == "urdf") {
    options.friction = value.Get("friction").AsDouble(kFrictionRange);
  } else if (const auto friction = value.Find("friction")) {
    options.friction = friction->AsDouble(kFrictionRange);
  }
  const std::string path = ResolvePath(file.AsString(), context);
  if (key == "urdf") return LoadUrdfInstance(path, options);
  if (key == "sdf") return LoadSdfInstance(path, options);
  return LoadMjcfInstance(path, options);
}

// An inline model's `bodies` and `joints` (a robot's, or an articulated object's), named
// "<name>/<body>" and "<name>/<joint>".
void ReadInlineModel(const YamlValue& value, const std::string& name, const Context& context,
                     InstanceSpec* instance) {
  instance->name = name;
  for (const YamlValue& body : value.Get("bodies").Items()) {
    const std::string body_name = name + "/" + body.Get("name").AsString();
    instance->bodies.push_back(
        ReadBody(body, context.planar, body_name, {"name"}, context.base_directory));
  }
  for (const YamlValue& joint : value.Get("joints").Items()) {
    joint.CheckKeys({"name", "type", "parent", "child", "pose", "axis", "limits"});
    JointSpec spec;
    spec.name = name + "/" + joint.Get("name").AsString();
    spec.type = ReadJointType(joint.Get("type"));
    const std::string parent = joint.Get("parent").AsString();
    spec.parent = parent == "world" ? parent : name + "/" + parent;
    spec.child = name + "/" + joint.Get("child").AsString();
    if (const auto pose = joint.Find("pose")) spec.X_PJ = ReadPose(*pose, context.planar);
    const bool movable = spec.type == JointType::kRevolute || spec.type == JointType::kPrismatic;
    if (movable) {
      const YamlValue axis = joint.Get("axis");
      spec.axis = axis.AsVector3();
      if (spec.axis.norm() == 0.0) axis.Fail("must be non-zero");
    } else if (joint.Has("axis")) {
      joint.Get("axis").Fail("only revolute and prismatic joints have an axis");
    }
    if (const auto limits = joint.Find("limits")) {  // [lower, upper], Joint::lower_limit
      if (!movable) limits->Fail("only revolute and prismatic joints have limits");
      const Eigen::VectorXd bounds = limits->AsVector();
      if (bounds.size() != 2) limits->Fail("must be [lower, upper] (2 numbers)");
      spec.lower_limit = bounds[0];
      spec.upper_limit = bounds[1];
    }
    spec.where = LocationOf(joint);
    instance->joints.push_back(spec);
  }
}

InstanceSpec ReadObject(const YamlValue& value, const Context& context) {
  // The scene format's keys, and those the caller reads beyond it (ReadModels).
  std::vector<std::string> keys = {
      "name", "joint",    "body", "bodies", "joints",  "urdf",           "sdf",
      "mjcf", "friction", "pose", "plane",  "initial", "external_force", "initial_velocity"};
  for (const std::string& key : context.extension_object_keys) keys.push_back(key);
  value.CheckKeys(keys);
  const std::string name = value.Get("name").AsString();
  const bool articulated_inline = value.Has("bodies") || value.Has("joints");
  const std::string model_file = ModelFileKey(value);
  if (int(value.Has("body")) + int(articulated_inline) + int(!model_file.empty()) != 1) {
    value.Fail(
        "an object needs exactly one of `body` (inline), `bodies` and `joints` (an inline "
        "articulated object), `urdf`, `sdf` or `mjcf`");
  }
  // The object's joint to the world: the scene's `joint:`, or none where its joints are its
  // own (an inline articulated object's `joints`; a model file's joints to the world, where
  // `joint:` is left out: docs/scene-format.md, "Articulated objects").
  std::optional<JointType> joint;
  if (const auto joint_value = value.Find("joint")) {
    if (articulated_inline)
      joint_value->Fail("an inline articulated object's joints, to the world too, are in `joints`");
    joint = ReadJointType(*joint_value);
    if (joint != JointType::kFloating && joint != JointType::kPlanar && joint != JointType::kFixed)
      joint_value->Fail(
          "an object's joint must be floating, planar or fixed (a revolute or prismatic joint "
          "to the world is the model's own: leave `joint:` out, see \"Articulated objects\")");
  } else if (value.Has("body")) {
    value.Get("joint");  // throws "missing required field"
  }
  const bool fixed = joint == JointType::kFixed;
  // X_PJ of the object's joint to the world: a fixed object's pose, where a model file's own
  // joints to the world sit, or the plane of a planar joint in a 3D scene (ReadPlane);
  // identity otherwise.
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
  if (fixed) {
    pose = ReadPose(value.Get("pose"), context.planar);
  } else if (const auto given = value.Find("pose")) {
    if (joint || articulated_inline)
      given->Fail(
          "only fixed objects and model files' articulated objects have a pose; others start "
          "at `initial`");
    pose = ReadPose(*given, context.planar);
  }
  if (const auto plane = value.Find("plane")) {
    if (joint != JointType::kPlanar || context.planar)
      plane->Fail("only a planar joint in a 3D scene has a plane (planar scenes use x-y)");
    pose = ReadPlane(*plane);
  } else if (joint == JointType::kPlanar && !context.planar) {
    pose = PlaneFrame(kDefaultPlaneNormal, Eigen::Vector3d::Zero());
  }
  InstanceSpec instance;
  if (!model_file.empty()) {
    ModelFileOptions options;
    options.actuated = false;
    options.object_joint = joint;
    options.base_pose = pose;
    instance = LoadModelFile(value, model_file, options, context);
  } else if (articulated_inline) {
    if (value.Has("friction"))
      value.Get("friction").Fail("friction goes on each shape of `bodies`");
    ReadInlineModel(value, name, context, &instance);
  } else {
    if (value.Has("friction")) value.Get("friction").Fail("friction goes on each shape of `body`");
    instance.name = name;
    instance.bodies.push_back(
        ReadBody(value.Get("body"), context.planar, name, {}, context.base_directory));
    JointSpec spec;
    spec.name = name + "/root_joint";
    spec.type = *joint;
    spec.parent = "world";
    spec.child = name;
    spec.X_PJ = pose;
    spec.where = LocationOf(value.Get("joint"));
    instance.joints.push_back(spec);
  }
  instance.actuated = false;
  instance.where = LocationOf(value.Get("name"));
  if (const auto force = value.Find("external_force")) {  // Scene::external_force
    instance.external_force = force->AsVector();
    instance.external_force_where = LocationOf(*force);
  }
  ReadInitialAndCommands(value, &instance, !fixed);
  return instance;
}

InstanceSpec ReadRobot(const YamlValue& value, const Context& context) {
  value.CheckKeys({"name", "bodies", "joints", "urdf", "sdf", "mjcf", "friction", "base_pose",
                   "base_parent", "stiffness", "damping", "initial", "initial_velocity",
                   "commands"});
  const std::string name = value.Get("name").AsString();
  const bool inline_model = value.Has("bodies") || value.Has("joints");
  const std::string model_file = ModelFileKey(value);
  if (inline_model == !model_file.empty()) {
    value.Fail("a robot needs either `bodies` and `joints` (inline) or `urdf`, `sdf` or `mjcf`");
  }
  InstanceSpec instance;
  if (!inline_model) {
    ModelFileOptions options;
    options.actuated = true;
    if (const auto base = value.Find("base_pose")) {
      options.base_pose = ReadPose(*base, context.planar);
    }
    instance = LoadModelFile(value, model_file, options, context);
  } else {
    for (const char* key : {"friction", "base_pose"}) {
      if (value.Has(key)) value.Get(key).Fail("only for robots read from a model file");
    }
    ReadInlineModel(value, name, context, &instance);
  }
  // A gripper on an arm's link: the robot's joints to `world` hang from that body instead.
  if (const auto parent = value.Find("base_parent")) {
    for (JointSpec& joint : instance.joints) {
      if (joint.parent != "world") continue;
      joint.parent = parent->AsString();
      joint.where = LocationOf(*parent);
    }
  }
  instance.actuated = true;
  instance.where = LocationOf(value.Get("name"));
  const YamlValue stiffness = value.Get("stiffness");
  instance.stiffness_where = LocationOf(stiffness);
  if (stiffness.IsSequence()) {
    const Eigen::VectorXd k = stiffness.AsVector();
    instance.stiffness.assign(k.data(), k.data() + k.size());
  } else {
    instance.stiffness = {stiffness.AsDouble(kStiffnessRange)};
  }
  if (const auto damping = value.Find("damping")) {  // Joint::damping
    instance.damping_where = LocationOf(*damping);
    if (damping->IsSequence()) {
      const Eigen::VectorXd d = damping->AsVector();
      instance.damping.assign(d.data(), d.data() + d.size());
    } else {
      instance.damping = {damping->AsDouble(kDampingRange)};
    }
  }
  ReadInitialAndCommands(value, &instance, true);
  return instance;
}

// The scene's `packages:` (NAME: folder relative to the scene file) into context->packages.
void ReadPackages(const YamlValue& packages, Context* context) {
  if (!packages.IsMap()) packages.Fail("must be a map of package names to folders");
  for (const std::string& name : packages.Keys()) {
    const YamlValue folder = packages.Get(name);
    if (name.empty() || name.find('/') != std::string::npos)
      folder.Fail("a package name is one folder name, without '/'");
    const std::string path = ResolvePath(folder.AsString(), *context);
    std::error_code error;
    if (!std::filesystem::is_directory(path, error))
      folder.Fail("the folder of package '" + name + "' is not found: " + path);
    context->packages.scene[name] = {
        path, folder.file() + ":" + std::to_string(folder.line()) + ": " + folder.path()};
  }
}

}  // namespace

SceneDocument SceneDocument::FromText(const std::string& yaml_text,
                                      const std::string& name_for_errors,
                                      const std::string& base_directory,
                                      const std::map<std::string, std::string>& package_folders) {
  if (yaml_text.size() > kMaxSceneFileBytes) {
    throw SceneError(name_for_errors, 0, "",
                     "the scene has " + std::to_string(yaml_text.size()) + " bytes; at most " +
                         std::to_string(kMaxSceneFileBytes) + " are read");
  }
  const YamlValue root = YamlValue::Parse(yaml_text, name_for_errors);
  if (!root.IsMap() && !root.IsSequence() && !root.IsScalar()) {
    throw SceneError(name_for_errors, 1, "<document>",
                     "the scene is empty (or only comments); it needs name, dimension, "
                     "time_step, ... (docs/scene-format.md)");
  }
  if (!root.IsMap()) root.Fail("a scene file must be a map of keys (name, dimension, ...)");
  PackageSearch packages;
  for (const auto& [name, folder] : package_folders)
    packages.command_line[name] = {folder, "--package " + name + "=" + folder};
  // A side file (io/side_file.h): its base file's document, with the side file's start and
  // blocks.
  if (IsSideFile(root)) {
    auto side = std::make_shared<const SideFile>(ReadSideFile(root, base_directory, packages));
    SceneDocument document = FromFile(side->base_path, package_folders);
    if (document.side_) {
      throw SceneError(side->base_where.file, side->base_where.line, side->base_where.field,
                       "the base is itself a side file (" + side->base_path +
                           "); name the scene file it adds to");
    }
    document.header_.source_file = name_for_errors;
    document.side_ = std::move(side);
    document.side_root_ = root;
    return document;
  }
  // The reference quasistatic simulator's system and model-directive files
  // (docs/qsim-files.md): read whole here, with no keys beyond the format's.
  if (IsQsimFile(root)) {
    auto qsim = std::make_shared<const QsimScene>(ReadQsimFile(root, base_directory, packages));
    SceneDocument document(YamlValue::Parse("{}", qsim->file));
    document.header_.source_file = qsim->file;
    document.header_.formulation = QsimFormulation(*qsim);
    document.base_directory_ = base_directory;
    document.packages_ = packages;
    document.qsim_ = std::move(qsim);
    return document;
  }
  root.CheckKeys({"name", "dimension", "gravity", "time_step", "duration", "contact_tolerance",
                  "friction_rays", "friction_combination", "conventions", "formulation", "packages",
                  "environment", "objects", "robots", "collision_filter", "planning", "mpc"});
  SceneDocument document(root);
  document.header_.source_file = name_for_errors;
  ReadParameters(root, &document.header_, &document.unread_formulation_value_);
  document.has_formulation_block_ = root.Has("formulation");
  document.base_directory_ = base_directory;
  document.packages_ = packages;
  return document;
}

void SceneDocument::ThrowUnreadFormulationValue() const {
  if (unread_formulation_value_) std::rethrow_exception(unread_formulation_value_);
}

Scene SceneDocument::ReadModels(const std::vector<std::string>& extension_object_keys) const {
  ThrowUnreadFormulationValue();
  const StartOverrides starts = side_ ? side_->starts : StartOverrides{};
  // A side file's scene names the side file (Scene::source_file: a plan or trajectory made from
  // it loads it again); errors of the base's models name the base.
  if (qsim_) {
    QsimScene qsim = *qsim_;
    if (side_)
      qsim.conventions = SideConventions(*side_, qsim.conventions, qsim.friction_rays, false);
    Scene scene = BuildQsimScene(qsim, starts);
    if (side_) {
      scene.source_file = header_.source_file;
      scene.base_file = side_->base_path;
    }
    return scene;
  }
  const YamlValue& root = root_;
  SceneBuilder builder(header_.source_file);
  builder.parameters() = header_;
  if (side_)
    builder.parameters().conventions =
        SideConventions(*side_, header_.conventions, header_.friction_rays, header_.planar);
  builder.SetStarts(starts);
  Context context{header_.planar, base_directory_, packages_, extension_object_keys};
  if (const auto packages = root.Find("packages")) ReadPackages(*packages, &context);
  if (const auto environment = root.Find("environment")) {
    const std::vector<YamlValue> shapes = environment->Items();
    for (size_t i = 0; i < shapes.size(); ++i) {
      ShapeSpec shape =
          ReadShape(shapes[i], context.planar, std::to_string(i), context.base_directory);
      shape.name = "world/" + shape.name;
      builder.AddEnvironmentShape(shape);
    }
  }
  if (const auto objects = root.Find("objects")) {
    for (const YamlValue& object : objects->Items()) {
      builder.AddInstance(ReadObject(object, context));
    }
  }
  if (const auto robots = root.Find("robots")) {
    for (const YamlValue& robot : robots->Items()) builder.AddInstance(ReadRobot(robot, context));
  }
  if (const auto filters = root.Find("collision_filter")) {
    for (const YamlValue& pair : filters->Items()) {
      const std::vector<YamlValue> names = pair.Items();
      if (names.size() != 2) pair.Fail("must be a pair of body names [a, b]");
      builder.AddCollisionFilter(names[0].AsString(), names[1].AsString(), LocationOf(pair));
    }
  }
  Scene scene = builder.Build();
  if (side_) scene.base_file = side_->base_path;
  return scene;
}

void SceneDocument::ReadSettings(Scene* scene) const {
  // A side file's blocks replace the base's (a block it leaves out is the base's).
  const auto block = [&](const char* key) -> std::optional<YamlValue> {
    if (side_root_)
      if (auto side = side_root_->Find(key)) return side;
    if (qsim_) return std::nullopt;
    return root_.Find(key);
  };
  if (const auto planning = block("planning")) {
    scene->planning = ReadPlanningSettings(*planning, *scene);
  }
  if (const auto mpc = block("mpc")) scene->mpc = ReadMpcSettings(*mpc, *scene);
}

SceneDocument SceneDocument::FromFile(const std::string& path,
                                      const std::map<std::string, std::string>& package_folders) {
  std::ifstream file(path);
  if (!std::filesystem::is_regular_file(path) || !file) {
    std::error_code missing;
    if (!std::filesystem::exists(path, missing))
      throw SceneFileNotFoundError(path, 0, "", "cannot open the scene file: no such file", path);
    throw SceneError(path, 0, "", "cannot open the scene file");
  }
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(path, error);
  if (!error && bytes > kMaxSceneFileBytes) {
    throw SceneError(path, 0, "",
                     "the scene file has " + std::to_string(bytes) + " bytes; at most " +
                         std::to_string(kMaxSceneFileBytes) + " are read");
  }
  std::stringstream text;
  text << file.rdbuf();
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  return FromText(text.str(), path, folder.string(), package_folders);
}

namespace {

Scene ReadWhole(const SceneDocument& document) {
  Scene scene = document.ReadModels();
  document.ReadSettings(&scene);
  return scene;
}

}  // namespace

Scene ReadSceneFile(const std::string& path,
                    const std::map<std::string, std::string>& package_folders) {
  return ReadWhole(SceneDocument::FromFile(path, package_folders));
}

Scene ReadSceneText(const std::string& yaml_text, const std::string& name_for_errors,
                    const std::string& base_directory,
                    const std::map<std::string, std::string>& package_folders) {
  return ReadWhole(
      SceneDocument::FromText(yaml_text, name_for_errors, base_directory, package_folders));
}

}  // namespace quasidyn
