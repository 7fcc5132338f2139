#include "quasidyn/io/model_directives.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <set>
#include <sstream>
#include <stdexcept>

#include "quasidyn/common/closest_name.h"
#include "quasidyn/io/loader_limits.h"
#include "quasidyn/io/model_uri.h"
#include "quasidyn/io/shape_reader.h"
#include "quasidyn/model/scene_error.h"

namespace quasidyn {
namespace {

// add_directives may nest; a file that includes itself stops here.
constexpr int kMaxDirectiveDepth = 16;
// Frames resolved through more bases than this form a loop.
constexpr int kMaxFrameDepth = 64;

std::string FolderOf(const std::string& file) {
  return std::filesystem::path(file).parent_path().string();
}

// A pose given relative to a frame: an added frame's X_PF, a weld's X_PC.
struct RelativePose {
  std::string base;  // "world", an added frame, MODEL::LINK or LINK (of model LINK)
  XyzRpy local;
  SourceLocation where;  // the base frame's name
};

// A frame's pose: in the world (`model` empty) or in the frame of link `link` of `model`.
struct AnchoredPose {
  std::string model, link;
  SourceLocation where;  // the frame that names the link
  XyzRpy pose;
};

struct Reader {
  const PackageSearch* packages = nullptr;
  std::map<std::string, RelativePose> frames;  // added frames
  std::map<std::string, RelativePose> welds;   // model name: its weld
  std::set<std::string> names;                 // model names so far
  ModelDirectives result;
  int depth = 0;
  std::string folder;  // of the directive file being read

  // A file named by `value`: package://, file:// or relative to the directive file's folder.
  std::string ResolveFile(const YamlValue& value) const {
    return ResolveModelUri(value.AsString(), folder, LocationOf(value), *packages);
  }

  // Drake's schema::Rotation: !Rpy {deg | rad: [r, p, y]} or !AngleAxis {angle_deg, axis}.
  void ReadRotation(const YamlValue& value, Eigen::Vector3d* rpy) const {
    if (!value.IsMap()) value.Fail("must be !Rpy {deg: [r, p, y]} or !AngleAxis {angle_deg, axis}");
    if (value.Has("deg") || value.Has("rad")) {
      value.CheckKeys({"deg", "rad"});
      if (value.Has("deg") && value.Has("rad")) value.Get("rad").Fail("give deg or rad, not both");
      const bool degrees = value.Has("deg");
      *rpy = value.Get(degrees ? "deg" : "rad").AsVector3();
      if (degrees) *rpy *= std::numbers::pi / 180.0;
      return;
    }
    value.CheckKeys({"angle_deg", "axis"});
    const double angle = value.Get("angle_deg").AsDouble() * std::numbers::pi / 180.0;
    const YamlValue axis_value = value.Get("axis");
    const Eigen::Vector3d axis = axis_value.AsVector3();
    if (axis.norm() == 0.0) axis_value.Fail("must be non-zero");
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
    *rpy = XyzRpyOf(X).rpy;
  }

  // A transform {base_frame, translation, rotation}: the pose in its base frame.
  XyzRpy ReadLocal(const YamlValue& value) const {
    value.CheckKeys({"base_frame", "translation", "rotation"});
    XyzRpy local;
    if (const auto translation = value.Find("translation")) local.xyz = translation->AsVector3();
    if (const auto rotation = value.Find("rotation")) ReadRotation(*rotation, &local.rpy);
    return local;
  }

  // The model whose root link `frame` names (MODEL::LINK, or LINK alone: Drake finds the one
  // frame of that name; here the root link LINK of model LINK), or "" for none.
  std::string ModelOfLink(const std::string& frame, std::string* link) const {
    const size_t scope = frame.find("::");
    const std::string model = scope == std::string::npos ? frame : frame.substr(0, scope);
    *link = scope == std::string::npos ? frame : frame.substr(scope + 2);
    return names.count(model) ? model : "";
  }

  // The pose of frame `base`, resolved once every directive is read (Drake resolves frames when
  // the plant is finalised: a frame may name a link welded later): in the world, or on the
  // first link of the chain that is not its model's welded root (a gripper on an arm's last
  // link), whose pose only the model's q gives.
  AnchoredPose Resolve(const std::string& base, const SourceLocation& where, int depth_left) {
    if (base == "world") return {};
    if (depth_left == 0) ThrowAt(where, "frames and welds form a loop through '" + base + "'");
    const RelativePose* relative = nullptr;
    if (const auto frame = frames.find(base); frame != frames.end()) {
      relative = &frame->second;
    } else {
      std::string link;
      const std::string model = ModelOfLink(base, &link);
      if (model.empty()) {
        std::vector<std::string> known = {"world"};
        for (const auto& [name, pose] : frames) known.push_back(name);
        ThrowAt(where, "unknown frame '" + base + "'" + DidYouMean(base, known) + " (" +
                           JoinNames(known) + ", or MODEL::LINK)");
      }
      const auto weld = welds.find(model);
      if (weld == welds.end() || WeldedLinkOf(model) != link) return {model, link, where, {}};
      result.root_links.push_back({model, link, where});
      relative = &weld->second;
    }
    AnchoredPose parent = Resolve(relative->base, relative->where, depth_left - 1);
    if (relative->local.xyz.isZero(0.0) && relative->local.rpy.isZero(0.0)) return parent;
    if (relative->base == "world") {
      parent.pose = relative->local;
    } else {
      parent.pose = XyzRpyOf(IsometryOf(parent.pose) * IsometryOf(relative->local));
    }
    return parent;
  }

  const std::string& WeldedLinkOf(const std::string& model) const {
    for (const DirectiveModel& m : result.models)
      if (m.name == model) return m.weld_link;
    throw std::logic_error("WeldedLinkOf: no model " + model);
  }

  void AddModel(const YamlValue& value) {
    value.CheckKeys({"name", "file"});
    DirectiveModel model;
    const YamlValue name = value.Get("name");
    model.name = name.AsString();
    model.name_where = LocationOf(name);
    if (model.name.empty() || model.name.find("::") != std::string::npos)
      name.Fail("a model name is one word, without '::'");
    if (!names.insert(model.name).second) name.Fail("model '" + model.name + "' is added twice");
    const YamlValue file = value.Get("file");
    model.file = ResolveFile(file);
    model.where = LocationOf(file);
    result.models.push_back(model);
  }

  void AddFrame(const YamlValue& value) {
    value.CheckKeys({"name", "X_PF"});
    const YamlValue name = value.Get("name");
    const std::string frame = name.AsString();
    if (frame == "world" || frames.count(frame)) name.Fail("frame '" + frame + "' exists already");
    const YamlValue pose = value.Get("X_PF");
    const YamlValue base = pose.Get("base_frame");  // required by Drake too
    frames[frame] = {base.AsString(), ReadLocal(pose), LocationOf(base)};
  }

  void AddWeld(const YamlValue& value) {
    value.CheckKeys({"parent", "child", "X_PC"});
    const YamlValue parent = value.Get("parent");
    const YamlValue child = value.Get("child");
    std::string link;
    const std::string model_name = ModelOfLink(child.AsString(), &link);
    if (model_name.empty()) {
      std::vector<std::string> known(names.begin(), names.end());
      child.Fail("no model added before has link '" + child.AsString() + "'" +
                 DidYouMean(child.AsString(), known) + " (MODEL::LINK)");
    }
    DirectiveModel* model = nullptr;
    for (DirectiveModel& m : result.models)
      if (m.name == model_name) model = &m;
    if (welds.count(model_name)) child.Fail("model '" + model_name + "' is welded twice");
    const std::string parent_name = parent.AsString();
    XyzRpy local;
    if (const auto X_PC = value.Find("X_PC")) {
      if (const auto base = X_PC->Find("base_frame"); base && base->AsString() != parent_name)
        base->Fail("X_PC is given in the parent frame '" + parent_name + "'");
      local = ReadLocal(*X_PC);
    }
    welds[model_name] = {parent_name, local, LocationOf(parent)};
    model->weld_link = link;
    model->weld_where = LocationOf(child);
  }

  // Every weld's pose, in the world or on another model's link, once all directives are read.
  void ResolveWelds() {
    for (DirectiveModel& model : result.models) {
      const auto weld = welds.find(model.name);
      if (weld == welds.end()) continue;
      const RelativePose& relative = weld->second;
      AnchoredPose parent = Resolve(relative.base, relative.where, kMaxFrameDepth);
      if (relative.local.xyz.isZero(0.0) && relative.local.rpy.isZero(0.0)) {
        model.weld = parent.pose;
      } else if (relative.base == "world") {
        model.weld = relative.local;
      } else {
        model.weld = XyzRpyOf(IsometryOf(parent.pose) * IsometryOf(relative.local));
      }
      model.weld_parent_model = parent.model;
      model.weld_parent_link = parent.link;
      model.weld_parent_where = parent.where;
    }
  }

  void AddDirectives(const YamlValue& value) {
    value.CheckKeys({"file"});
    const YamlValue file = value.Get("file");
    if (depth >= kMaxDirectiveDepth)
      file.Fail("add_directives nested more than " + std::to_string(kMaxDirectiveDepth) +
                " deep (does a file include itself?)");
    const std::string path = ResolveFile(file);
    const YamlValue root = YamlValue::Parse(ReadYamlFileText(path, LocationOf(file)), path);
    const std::string outer = folder;
    folder = FolderOf(path);
    ++depth;
    Read(root);
    --depth;
    folder = outer;
  }

  void Read(const YamlValue& root) {
    if (!root.IsMap()) root.Fail("a directive file is a map with `directives:`");
    root.CheckKeys({"directives"});
    const YamlValue list = root.Get("directives");
    if (!list.IsSequence()) list.Fail("must be a list of directives");
    const std::vector<std::string> kinds = {"add_model", "add_frame", "add_weld", "add_directives"};
    for (const YamlValue& item : list.Items()) {
      if (!item.IsMap() || item.Keys().size() != 1)
        item.Fail("each directive is a map with one key (" + JoinNames(kinds) + ")");
      const std::string kind = item.Keys()[0];
      const YamlValue body = item.Get(kind);
      if (kind == "add_model") {
        AddModel(body);
      } else if (kind == "add_frame") {
        AddFrame(body);
      } else if (kind == "add_weld") {
        AddWeld(body);
      } else if (kind == "add_directives") {
        AddDirectives(body);
      } else {
        body.Fail("directive '" + kind + "' is not supported" + DidYouMean(kind, kinds) + " (" +
                  JoinNames(kinds) + ")");
      }
    }
  }
};

}  // namespace

Eigen::Isometry3d IsometryOf(const XyzRpy& pose) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = pose.xyz;
  X.linear() = RotationFromRollPitchYaw(pose.rpy);
  return X;
}

XyzRpy XyzRpyOf(const Eigen::Isometry3d& X) {
  const Eigen::Matrix3d R = X.linear();
  XyzRpy pose;
  pose.xyz = X.translation();
  pose.rpy.x() = std::atan2(R(2, 1), R(2, 2));
  pose.rpy.y() = std::atan2(-R(2, 0), std::hypot(R(2, 1), R(2, 2)));
  pose.rpy.z() = std::atan2(R(1, 0), R(0, 0));
  return pose;
}

std::string ReadYamlFileText(const std::string& path, const SourceLocation& where) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    ThrowFileNotFoundAt(where, "cannot open " + path, path);
  const uintmax_t bytes = std::filesystem::file_size(path, error);
  if (!error && bytes > kMaxSceneFileBytes)
    ThrowAt(where, path + " has " + std::to_string(bytes) + " bytes; at most " +
                       std::to_string(kMaxSceneFileBytes) + " are read");
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

ModelDirectives ReadModelDirectives(const YamlValue& root, const std::string& base_directory,
                                    const PackageSearch& packages) {
  Reader reader;
  reader.packages = &packages;
  reader.folder = base_directory;
  reader.Read(root);
  reader.ResolveWelds();
  return reader.result;
}

ModelDirectives ReadModelDirectivesFile(const std::string& path, const SourceLocation& where,
                                        const PackageSearch& packages) {
  const YamlValue root = YamlValue::Parse(ReadYamlFileText(path, where), path);
  return ReadModelDirectives(root, FolderOf(path), packages);
}

}  // namespace quasidyn
