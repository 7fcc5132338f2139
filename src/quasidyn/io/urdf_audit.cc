#include "quasidyn/io/urdf_audit.h"

#include <urdf_model/model.h>

#include <algorithm>
#include <map>

#include "quasidyn/common/closest_name.h"

namespace quasidyn {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The elements urdfdom reads under each element it knows (urdfdom 3's link.cpp, joint.cpp,
// model.cpp); <capsule> is quasidyn's extension.
const std::vector<std::string> kRobotChildren = {"link", "joint", "material", "transmission",
                                                 "gazebo"};
const std::vector<std::string> kLinkChildren = {"inertial", "visual", "collision"};
const std::vector<std::string> kInertialChildren = {"origin", "mass", "inertia"};
const std::vector<std::string> kVisualChildren = {"origin", "geometry", "material"};
const std::vector<std::string> kCollisionChildren = {"origin", "geometry"};
const std::vector<std::string> kJointChildren = {
    "origin",      "parent", "child", "axis", "limit", "dynamics", "safety_controller",
    "calibration", "mimic"};
const std::vector<std::string> kJointTypes = {"revolute", "continuous", "prismatic",
                                              "fixed",    "floating",   "planar"};

// What is ignored, and why, for the warnings: elements read by nobody.
struct IgnoredKind {
  std::string label;   // "<material>"
  std::string reason;  // "colours and textures are not read (the viewer draws its own)"
  int first_line = 0;
  int count = 0;
};

class Auditor {
 public:
  Auditor(const XmlScan& scan, const std::string& path, const SourceLocation& where)
      : scan_(scan), path_(path), where_(where), children_(scan.start_tags.size()) {
    for (size_t t = 0; t < scan.start_tags.size(); ++t) {
      const size_t parent = scan.start_tags[t].parent;
      if (parent != XmlStartTag::kNoParent) children_[parent].push_back(t);
    }
  }

  UrdfAudit Run();

 private:
  const XmlStartTag& Tag(size_t t) const { return scan_.start_tags[t]; }
  int Line(size_t t) const { return Tag(t).line; }
  bool Has(size_t t, std::string_view attribute) const {
    return XmlAttribute(Tag(t).attributes, attribute).has_value();
  }
  std::string Name(size_t t) const {
    const std::optional<std::string_view> name = XmlAttribute(Tag(t).attributes, "name");
    return name ? std::string(*name) : std::string();
  }
  // The first child of t named `name`, or npos.
  size_t Child(size_t t, std::string_view name) const {
    for (const size_t c : children_[t])
      if (Tag(c).name == name) return c;
    return XmlStartTag::kNoParent;
  }
  [[noreturn]] void Fail(size_t t, const std::string& problem) const {
    ThrowAt(where_, path_ + ":" + std::to_string(Line(t)) + ": " + problem);
  }
  void Ignore(size_t t, const std::string& label, const std::string& reason) {
    auto [kind, added] = ignored_.emplace(label, IgnoredKind{label, reason, Line(t), 0});
    if (added) order_.push_back(label);
    ++kind->second.count;
  }
  // A child of a known element that urdfdom does not read: a `drake:` tag or an unknown
  // element is ignored with a warning; a misspelt URDF element ("colision") fails.
  void Unknown(size_t t, const std::vector<std::string>& known, const std::string& in);
  // The problem of the <geometry> of collision or visual t as urdfdom reads it, or "".
  std::string GeometryProblem(size_t t) const;
  void AuditLink(size_t t);
  void AuditInertial(size_t t, const std::string& link);
  void AuditJoint(size_t t);

  const XmlScan& scan_;
  const std::string& path_;
  const SourceLocation& where_;
  std::vector<std::vector<size_t>> children_;
  UrdfAudit audit_;
  std::map<std::string, IgnoredKind> ignored_;
  std::vector<std::string> order_;  // labels in order of first occurrence
};

void Auditor::Unknown(size_t t, const std::vector<std::string>& known, const std::string& in) {
  const std::string name(Tag(t).name);
  if (StartsWith(name, "drake:")) {
    const bool filter = name == "drake:collision_filter_group";
    Ignore(t, "<" + name + ">",
           std::string("Drake's extension is not read") +
               (filter ? " (give the pairs in the scene's `collision_filter:`)" : ""));
    return;
  }
  if (const std::string closest = ClosestName(name, known); !closest.empty())
    Fail(t, "<" + name + "> in " + in + " is not a URDF element (did you mean <" + closest +
                ">?); urdfdom would skip it");
  Ignore(t, "<" + name + "> in " + in, "not a URDF element; not read");
}

std::string Auditor::GeometryProblem(size_t t) const {
  const size_t geometry = Child(t, "geometry");
  if (geometry == XmlStartTag::kNoParent) return "it has no <geometry>";
  if (children_[geometry].empty()) return "its <geometry> holds no shape";
  if (children_[geometry].size() > 1)
    return "its <geometry> holds " + std::to_string(children_[geometry].size()) +
           " elements; urdfdom reads only the first (give each shape its own element)";
  const size_t shape = children_[geometry].front();
  const std::string name(Tag(shape).name);
  static const std::map<std::string, std::vector<std::string>> kRequired = {
      {"sphere", {"radius"}}, {"box", {"size"}},     {"cylinder", {"radius", "length"}},
      {"capsule", {}},        {"drake:capsule", {}}, {"mesh", {"filename"}}};
  // A capsule's sizes are checked where it becomes urdfdom's mesh (io/urdf_loader.cc).
  if (name == "capsule" || name == "drake:capsule") return "";
  const auto required = kRequired.find(name);
  if (required == kRequired.end())
    return "<" + name + "> is not a geometry quasidyn reads (box, sphere, cylinder, capsule, mesh)";
  for (const std::string& attribute : required->second) {
    if (Has(shape, attribute)) continue;
    std::string needed;
    for (const std::string& a : required->second) needed += (needed.empty() ? "" : " and ") + a;
    return "<" + name + "> has no `" + attribute + "` (it needs " + needed +
           (name == "mesh" ? "" : " [m]") + ")";
  }
  return "";
}

void Auditor::AuditInertial(size_t t, const std::string& link) {
  const std::string at = "link '" + link + "' <inertial>";
  const size_t mass = Child(t, "mass");
  if (mass == XmlStartTag::kNoParent || !Has(mass, "value"))
    Fail(t, at + " has no <mass value=\"...\"> [kg]; urdfdom would drop the link's inertial, "
                 "visuals and collisions");
  const size_t inertia = Child(t, "inertia");
  for (const char* moment : {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}) {
    if (inertia == XmlStartTag::kNoParent || !Has(inertia, moment))
      Fail(inertia == XmlStartTag::kNoParent ? t : inertia,
           at + " needs <inertia> with ixx, ixy, ixz, iyy, iyz and izz [kg·m²] (no `" + moment +
               "`); urdfdom would drop the link's inertial, visuals and collisions");
  }
  for (const size_t c : children_[t]) {
    if (std::find(kInertialChildren.begin(), kInertialChildren.end(), Tag(c).name) ==
        kInertialChildren.end())
      Unknown(c, kInertialChildren, at);
  }
}

void Auditor::AuditLink(size_t t) {
  if (!Has(t, "name"))
    Fail(t, "a <link> without a name (urdfdom keeps it nameless and drops its contents)");
  UrdfLinkDeclaration link;
  link.name = Name(t);
  link.line = Line(t);
  for (const size_t c : children_[t]) {
    const std::string_view name = Tag(c).name;
    if (name == "inertial") {
      AuditInertial(c, link.name);
    } else if (name == "collision") {
      const std::string at = "link '" + link.name + "' <collision>";
      if (const std::string problem = GeometryProblem(c); !problem.empty())
        Fail(c, at + ": " + problem +
                    "; urdfdom would drop this collision and the link's later "
                    "ones");
      for (const size_t g : children_[c]) {
        if (std::find(kCollisionChildren.begin(), kCollisionChildren.end(), Tag(g).name) ==
            kCollisionChildren.end())
          Unknown(g, kCollisionChildren, at);
      }
      link.collision_lines.push_back(Line(c));
    } else if (name == "visual") {
      const std::string at = "link '" + link.name + "' <visual>";
      for (const size_t g : children_[c]) {
        const std::string_view child = Tag(g).name;
        if (child == "material") {
          audit_.blanked.push_back(g);  // urdfdom drops the link's rest on an unnamed one
          Ignore(g, Has(g, "name") ? "<material>" : "<material> without a name",
                 "colours and textures are not read (the viewer draws its own)");
        } else if (std::find(kVisualChildren.begin(), kVisualChildren.end(), child) ==
                   kVisualChildren.end()) {
          Unknown(g, kVisualChildren, at);
        }
      }
      if (const std::string problem = GeometryProblem(c); !problem.empty()) {
        audit_.blanked.push_back(c);
        audit_.warnings.push_back(path_ + ":" + std::to_string(Line(c)) + ": " + at +
                                  " dropped: " + problem + " (it is not drawn)");
      } else {
        link.visuals.push_back(c);
      }
    } else {
      Unknown(c, kLinkChildren, "link '" + link.name + "'");
    }
  }
  audit_.links.push_back(link);
}

void Auditor::AuditJoint(size_t t) {
  if (!Has(t, "name")) Fail(t, "a <joint> without a name (urdfdom refuses the file)");
  const std::string name = Name(t);
  const std::string at = "joint '" + name + "'";
  const std::optional<std::string_view> type = XmlAttribute(Tag(t).attributes, "type");
  if (!type || std::find(kJointTypes.begin(), kJointTypes.end(), *type) == kJointTypes.end())
    Fail(t, at + ": type must be one of " + JoinNames(kJointTypes) +
                (type ? " (got '" + std::string(*type) + "')" : " (none given)"));
  for (const char* end : {"parent", "child"}) {
    const size_t c = Child(t, end);
    if (c == XmlStartTag::kNoParent || !Has(c, "link"))
      Fail(t, at + " needs <" + std::string(end) + " link=\"...\">");
  }
  if (*type == "revolute" || *type == "prismatic") {
    const size_t limit = Child(t, "limit");
    if (limit == XmlStartTag::kNoParent || !Has(limit, "effort") || !Has(limit, "velocity"))
      Fail(limit == XmlStartTag::kNoParent ? t : limit,
           at + ": a " + std::string(*type) +
               " joint needs <limit effort=\"...\" velocity=\"...\"> (urdfdom refuses the file "
               "without; lower and upper are optional)");
  }
  for (const size_t c : children_[t]) {
    const std::string_view child = Tag(c).name;
    if (child == "dynamics") {
      Ignore(c, "<dynamics>",
             "joint damping and friction are not read (a robot joint is the scene's "
             "impedance)");
    } else if (child == "mimic") {
      Ignore(c, "<mimic>", "mimic constraints are not read: the joint moves on its own");
    } else if (child == "safety_controller" || child == "calibration") {
      Ignore(c, child == "calibration" ? "<calibration>" : "<safety_controller>", "not read");
    } else if (std::find(kJointChildren.begin(), kJointChildren.end(), child) ==
               kJointChildren.end()) {
      Unknown(c, kJointChildren, at);
    }
  }
  audit_.joints.emplace_back(name, Line(t));
}

UrdfAudit Auditor::Run() {
  size_t root = XmlStartTag::kNoParent;
  for (size_t t = 0; t < scan_.start_tags.size(); ++t) {
    const std::string name(Tag(t).name);
    if (root == XmlStartTag::kNoParent && Tag(t).depth == 1) root = t;
    if (StartsWith(name, "xacro:"))
      Fail(t, "<" + name +
                  ">: this is a xacro file, which urdfdom reads without its macros; expand it "
                  "first (xacro model.urdf.xacro > model.urdf)");
    if (name == "drake:joint" || name == "drake:ball_constraint")
      Fail(t, "<" + name +
                  "> (Drake's extension) changes the kinematics and is not read by quasidyn; "
                  "use a URDF joint");
  }
  if (root == XmlStartTag::kNoParent || Tag(root).name != "robot") return audit_;  // urdfdom's
  for (const size_t c : children_[root]) {
    const std::string_view name = Tag(c).name;
    if (name == "link") {
      AuditLink(c);
    } else if (name == "joint") {
      AuditJoint(c);
    } else if (name == "material") {
      audit_.blanked.push_back(c);
      Ignore(c, Has(c, "name") ? "<material>" : "<material> without a name",
             "colours and textures are not read (the viewer draws its own)");
    } else if (name == "transmission") {
      Ignore(c, "<transmission>",
             "transmissions are not read (a robot joint is the scene's "
             "impedance)");
    } else if (name == "gazebo") {
      Ignore(c, "<gazebo>", "Gazebo's extensions are not read");
    } else {
      Unknown(c, kRobotChildren, "<robot>");
    }
  }
  for (const std::string& label : order_) {
    const IgnoredKind& kind = ignored_.at(label);
    std::string warning = path_ + ":" + std::to_string(kind.first_line) + ": " + kind.label +
                          " ignored: " + kind.reason;
    if (kind.count > 1)
      warning += " (" + std::to_string(kind.count) + " in the file, the first at this line)";
    audit_.warnings.push_back(warning);
  }
  return audit_;
}

}  // namespace

UrdfAudit AuditUrdfText(const XmlScan& scan, const std::string& path, const SourceLocation& where) {
  return Auditor(scan, path, where).Run();
}

void BlankUrdfElements(const UrdfAudit& audit, XmlScan* copy) {
  for (const size_t t : audit.blanked) RemoveXmlElement(copy, t);
}

namespace {

[[noreturn]] void FailAtLine(const SourceLocation& where, const std::string& path, int line,
                             const std::string& problem) {
  ThrowAt(where, path + ":" + std::to_string(line) + ": " + problem);
}

}  // namespace

std::optional<size_t> CheckUrdfLoaded(const UrdfAudit& audit, const urdf::ModelInterface& model,
                                      const std::string& path, const SourceLocation& where) {
  const auto fail = [&](int line, const std::string& problem) {
    FailAtLine(where, path, line, problem);
  };
  for (const UrdfLinkDeclaration& declared : audit.links) {
    const auto found = model.links_.find(declared.name);
    if (found == model.links_.end() || !found->second)
      FailAtLine(
          where, path, declared.line,
          "link '" + declared.name + "' was not read by urdfdom (its message is printed above)");
    const urdf::Link& link = *found->second;
    if (link.visual_array.size() < declared.visuals.size())
      return declared.visuals[link.visual_array.size()];
    const size_t loaded = link.collision_array.size();
    if (loaded < declared.collision_lines.size())
      fail(declared.collision_lines[loaded],
           "link '" + declared.name + "' <collision> " + std::to_string(loaded) +
               " was not read by urdfdom (a malformed <origin> or geometry; urdfdom's message "
               "is printed above), nor the link's later ones");
  }
  for (const auto& [name, line] : audit.joints) {
    if (!model.getJoint(name))
      fail(line, "joint '" + name + "' was not read by urdfdom (its message is printed above)");
  }
  return std::nullopt;
}

void AddDroppedVisual(size_t tag, const XmlScan& scan, const std::string& path, UrdfAudit* audit) {
  audit->blanked.push_back(tag);
  for (UrdfLinkDeclaration& link : audit->links) {
    const auto found = std::find(link.visuals.begin(), link.visuals.end(), tag);
    if (found == link.visuals.end()) continue;
    link.visuals.erase(found);
    audit->warnings.push_back(path + ":" + std::to_string(scan.start_tags[tag].line) + ": link '" +
                              link.name +
                              "' <visual> dropped: urdfdom could not read it (its message is "
                              "printed above; it is not drawn)");
    return;
  }
}

}  // namespace quasidyn
