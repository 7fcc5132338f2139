#pragma once
// One check of every number a model file (URDF, SDF, MJCF) brings, applied to the file's text
// before urdfdom, libsdformat or MuJoCo parse it: each number must be finite and lie within
// ±kMaxSceneNumber (io/loader_limits.h, 1e12), the limit every number of a scene file obeys
// (a step multiplies up to three of them, so larger ones overflow it). Without the check a URDF
// <origin xyz="1e308 0 0"/> loaded and the step failed later with an internal message naming
// no file; now it is a SceneError such as
//   arm.urdf:12: joint j1: origin xyz[0]: must lie within +-1e+12 (larger numbers overflow
//   the step), got 1e+308
// that is, file:line, the nearest enclosing element with a name attribute (omitted when there
// is none), the element and attribute (or, for SDF, the element whose text holds the number),
// the number's index in a space-separated list (when there are several), and the wording of
// the scene file's limit. NaN and infinities, spelled any way strtod reads them ("nan",
// "-Infinity", "1e400", "0x1p2000", also through character references such as "&#49;e400"),
// are refused too.
//
// Only the attributes and element texts that are numbers in the file's format are checked (a
// table per format in model_file_numbers.cc; a link named "1e400" is not a number). The format
// is told by the root element: <robot> (URDF, also when libsdformat or MuJoCo read it), <sdf>,
// <mujoco>; a file with another root is not checked (its parser rejects it). Two kinds of
// number are exempt from the range (but must be finite): URDF joint axes, which the scene
// builder normalises without overflow (io/scene_builder.cc, UnitAxis; libsdformat and MuJoCo
// normalise SDF and MJCF axes themselves and make 1e200 a zero axis, so those are
// range-checked), and SDF joint limits of magnitude >= kSdfNoJointLimit, SDFormat's spelling
// of "no limit", which the SDF reader drops. Files an MJCF <include>s are read by MuJoCo only and
// not checked. Masses and principal moments of inertia (URDF <mass value> and <inertia ixx iyy
// izz>, SDF <mass>, <ixx>, <iyy>, <izz>, MJCF mass and diaginertia) must also lie in their usable
// ranges (model/physical_ranges.h; 0 allowed: a robot's massless link, a rotationally singular
// link's iyy = 0), e.g. "arm.urdf:5: link arm: inertia iyy: must be 0 or lie within [1e-18,
// 1e+09] kg m^2, got 1e-300".

#include <optional>
#include <string>
#include <string_view>

#include "quasidyn/files/xml_tags.h"
#include "quasidyn/io/scene_builder.h"

namespace quasidyn {

// SDFormat's default joint limits (±1e16 [rad or m]) mean "no limit": an SDF <lower> or
// <upper> of at least this magnitude is no limit (io/sdf_loader.h).
inline constexpr double kSdfNoJointLimit = 1e16;

// The first number of a model file that breaks the limit.
struct ModelFileNumberProblem {
  int line = 0;  // 1-based line of the number in the file
  // e.g. "joint j1: origin xyz[0]: must lie within +-1e+12 (larger numbers overflow the
  // step), got 1e+308"
  std::string problem;
};

// The first number of a model file (`scan` = ScanXmlTags of its text) in document order that
// is not finite or beyond ±kMaxSceneNumber, or nullopt when there is none. Linear in the size
// of the text.
std::optional<ModelFileNumberProblem> FindModelFileNumberProblem(const XmlScan& scan);

// Throws SceneError at `where` (the scene field naming the model file) with the message
// "<path>:<line>: <problem>" for malformed XML (XmlScan::error) or else the first problem
// FindModelFileNumberProblem finds.
void CheckModelFileNumbers(const XmlScan& scan, const std::string& path,
                           const SourceLocation& where);

// As above for the file at `path`, read whole (the loaders bound its size before; a file that
// cannot be read is left to the model's parser).
void CheckModelFileNumbers(const std::string& path, const SourceLocation& where);

}  // namespace quasidyn
