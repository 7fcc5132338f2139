#pragma once
// No element of a URDF lost in silence. urdfdom ignores the result of reading a link: a link
// whose <visual> has an unnamed <material>, or whose <collision> is a <cylinder> without
// `length`, is kept with every element after the failing one dropped (often all its collision
// shapes), and the file loads. Drake's URDFs (unnamed materials, `drake:` tags) and ROS's
// (materials, transmissions, gazebo tags) meet this. So the URDF reader (io/urdf_loader.h)
//
//   1. audits the file's text before urdfdom reads it (AuditUrdfText): what matters to physics
//      and would be dropped is a SceneError with the URDF's file:line (a link without a name,
//      an <inertial> without <mass value> or a complete <inertia>, a <collision> whose
//      geometry is missing, unknown or lacks a required attribute, a joint without name, type,
//      parent, child or, when revolute or prismatic, a <limit> with effort and velocity, a
//      misspelt element such as <colision>, a `drake:joint` or `drake:ball_constraint`, an
//      unexpanded xacro file); what is truly ignorable is a warning naming the element and its
//      line (materials, named or not; `drake:` tags; <transmission>, <gazebo>; joint
//      <dynamics>, <mimic>, <safety_controller>, <calibration>; unknown elements), and a
//      <visual> urdfdom would refuse is dropped with a warning;
//   2. hands urdfdom a copy of the document (tinyxml2's, files/xml_tags.h) from which every
//      <material> and every dropped <visual> is removed;
//   3. compares what urdfdom loaded with what the file declares (CheckUrdfLoaded): every link,
//      joint and collision element must be there (else a SceneError at its line); a visual that
//      is not is dropped with a warning and the file read again, so the collisions after it
//      load.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quasidyn/files/xml_tags.h"
#include "quasidyn/io/scene_builder.h"

namespace urdf {
class ModelInterface;
}

namespace quasidyn {

// One top-level <link> as the file declares it.
struct UrdfLinkDeclaration {
  std::string name;
  int line = 0;
  std::vector<int> collision_lines;  // each <collision> child, in document order
  std::vector<size_t> visuals;       // each <visual> child kept: its index in the scan
};

struct UrdfAudit {
  std::vector<UrdfLinkDeclaration> links;           // in document order
  std::vector<std::pair<std::string, int>> joints;  // top-level <joint>s: name and line
  std::vector<std::string> warnings;  // "arm.urdf:7: <material>: ignored ..." (InstanceSpec)
  std::vector<size_t> blanked;        // indices in the scan of the elements urdfdom must not see
};

// Reads what a URDF declares (`scan` = ScanXmlTags of its text, well-formed) and checks it as
// above; throws SceneError at `where` with "<path>:<line>: <problem>".
UrdfAudit AuditUrdfText(const XmlScan& scan, const std::string& path, const SourceLocation& where);

// Removes the audit's blanked elements from `copy`, another ScanXmlTags of the same text (the
// document urdfdom reads, XmlDocumentText).
void BlankUrdfElements(const UrdfAudit& audit, XmlScan* copy);

// Compares `model` (urdfdom's reading of BlankedUrdfText) with the declaration: throws
// SceneError at `where` naming the URDF's line of a link, joint or collision element urdfdom
// did not keep; returns the scan index of the first declared visual it did not keep (the
// caller drops it, AddDroppedVisual, and reads the file again), or nullopt when all are there.
std::optional<size_t> CheckUrdfLoaded(const UrdfAudit& audit, const urdf::ModelInterface& model,
                                      const std::string& path, const SourceLocation& where);

// Marks visual `tag` (a scan index from CheckUrdfLoaded) as dropped, with a warning at its line.
void AddDroppedVisual(size_t tag, const XmlScan& scan, const std::string& path, UrdfAudit* audit);

}  // namespace quasidyn
